"""What the `expert` level reads off the posterior: the shared measures every side decides by.

The posterior (`belief.belief_of`) gives each player's role and faction probabilities from one
seat's knowledge. The expert never looks past it: the Ring probability of a player, who the
Ring will most likely liquidate (and so whom the Keeper shelters), how dangerous a player is
to the Ring. Ties go to the earliest joined player (S2), so seats that share a belief choose
alike and their votes meet (S21).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from deaddrop.bots.station.known import INVESTIGATORS, Known
from deaddrop.engine.station.claims import ReadingClaim, StanceClaim, VisitClaim, VisitorsClaim
from deaddrop.engine.station.roles import ROLE_TABLE, is_ring

SURE = 1e-9
"""A probability this close to 0 or 1 is a fact: nothing left to learn about that player."""
DANGER: Mapping[str, float] = {
    "analyst": 2.0,
    "watcher": 1.2,
    "shadow": 1.2,
    "safehouse_keeper": 1.0,
    "interrogator": 0.8,
}
"""How much the Ring loses by leaving each Station role alive: results first, then protectors."""


class Posterior(Protocol):
    """The posterior's interface (`belief.Belief`), so tests can build one by hand."""

    @property
    def liars(self) -> frozenset[str]:
        """Authors of a claim hard evidence contradicts."""
        ...

    def p_role(self, codename: str, role: str) -> float:
        """The probability that a player holds a role."""
        ...

    def p_faction(self, codename: str, faction: str) -> float:
        """The probability that a player is of a faction: station, ring or neutral."""
        ...


WHISPER_ODDS = 6.0
"""How much likelier each whisper a player sent makes it the Ring, for a Station seat. The
posterior counts whispers as public facts but not why they were sent: this level's Station
sends at most one a day (an Analyst's CLEAR), so heavier private traffic is someone else's
plan (S31)."""


@dataclass(frozen=True, slots=True)
class WithTraffic:
    """A Station seat's posterior with each player's Ring odds scaled by its whisper traffic."""

    belief: Posterior
    sent: Mapping[str, int]

    @property
    def liars(self) -> frozenset[str]:
        """The posterior's liars."""
        return self.belief.liars

    def p_role(self, codename: str, role: str) -> float:
        """A role's probability, the Ring's roles scaled by the traffic (the rest in proportion)."""
        p = self.belief.p_role(codename, role)
        scale = self._ring_scale(codename)
        if scale == 1.0:
            return p
        return p * scale if is_ring(role) else p * self._rest_scale(codename)

    def p_faction(self, codename: str, faction: str) -> float:
        """A faction's probability after the traffic."""
        p = self.belief.p_faction(codename, faction)
        scale = self._ring_scale(codename)
        if scale == 1.0:
            return p
        return p * scale if faction == "ring" else p * self._rest_scale(codename)

    def _odds(self, codename: str) -> float:
        return WHISPER_ODDS ** min(self.sent.get(codename, 0), 8)

    def _ring_scale(self, codename: str) -> float:
        p = self.belief.p_faction(codename, "ring")
        if p <= SURE or p >= 1 - SURE or self.sent.get(codename, 0) == 0:
            return 1.0
        odds = p / (1 - p) * self._odds(codename)
        return odds / (1 + odds) / p

    def _rest_scale(self, codename: str) -> float:
        p = self.belief.p_faction(codename, "ring")
        return (1 - p * self._ring_scale(codename)) / (1 - p)


def with_traffic(known: Known, belief: Posterior) -> Posterior:
    """The posterior a Station seat decides by: whisper traffic weighed in (see WHISPER_ODDS)."""
    sent: dict[str, int] = {}
    for whisper in known.view["whispers_announced"]:
        if whisper["sender"] != known.me:
            sent[whisper["sender"]] = sent.get(whisper["sender"], 0) + 1
    return WithTraffic(belief, sent) if sent else belief


def top(known: Known, items: Iterable[str], key: Callable[[str], float]) -> str | None:
    """The item with the highest key; ties to the earliest joined (S2); None if there is none."""
    order = {c: i for i, c in enumerate(known.codenames)}
    listed = list(items)
    if not listed:
        return None
    return max(listed, key=lambda c: (key(c), -order[c]))


def ring_p(belief: Posterior, codename: str) -> float:
    """The probability that a player is the Ring."""
    return belief.p_faction(codename, "ring")


def unresolved(belief: Posterior, codename: str) -> bool:
    """Whether a player's faction is still in doubt."""
    p = ring_p(belief, codename)
    return SURE < p < 1 - SURE


def ring_prior(known: Known) -> float:
    """The Ring share of the living players other than oneself, with no evidence at all."""
    table = ROLE_TABLE[len(known.codenames)]
    ring_left = sum(is_ring(r) for r in table) - sum(f == "ring" for f in known.dead.values())
    others = len(known.living) - 1
    mine = 1 if is_ring(known.role) else 0
    return max(ring_left - mine, 0) / others if others > 0 else 0.0


def accusers(known: Known, suspects: Iterable[str]) -> set[str]:
    """Living authors who pointed a result claim or a suspicion at any of these players."""
    named = set(suspects)
    out: set[str] = set()
    for seen in known.floor_claims():
        claim = seen.claim
        if isinstance(claim, ReadingClaim):
            hit = claim.reading == "COMPROMISED" and claim.target in named
        elif isinstance(claim, VisitorsClaim):
            hit = bool(named & set(claim.visitors))
        elif isinstance(claim, VisitClaim):
            hit = claim.target in named and claim.visited is not None
        elif isinstance(claim, StanceClaim):
            hit = claim.stance == "suspect" and claim.target in named
        else:
            hit = False
        if hit and seen.author in known.living:
            out.add(seen.author)
    return out


def exposure(known: Known, codename: str) -> float:
    """How visible a player is as a target: a claimed investigator most, then a protector."""
    claimed = known.role_claims().get(codename)
    if claimed in INVESTIGATORS:
        return 4.0
    if claimed in ("safehouse_keeper", "interrogator"):
        return 2.0
    return 0.0


def likely_victim(known: Known, belief: Posterior, exclude: Iterable[str] = ()) -> str | None:
    """Whom the Ring most likely liquidates tonight, as the Station sees it: a trusted player who
    claimed an investigator's role, else the most trusted (S10: never a Ring member)."""
    left_out = {known.me, *exclude}
    candidates = [c for c in known.living if c not in left_out]
    return top(
        known,
        candidates,
        lambda c: (1 - ring_p(belief, c)) * (1 + exposure(known, c)) - belief.p_role(c, "defector"),
    )


def danger(known: Known, belief: Posterior, codename: str) -> float:
    """How much the Ring gains by removing a player: its likely role's worth, what it claimed
    and whom it accused; a likely Defector is worth keeping (S25: it draws the Station's votes)."""
    worth = sum(weight * belief.p_role(codename, role) for role, weight in DANGER.items())
    worth += 0.3 + 0.5 * exposure(known, codename)
    if codename in accusers(known, known.ring):
        worth += 2.5
    return worth * (1 - belief.p_faction(codename, "neutral"))
