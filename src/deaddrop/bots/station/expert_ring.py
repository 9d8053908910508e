"""The `expert` Ring seat: the order, the frame, the distraction and the Ring's vote.

The order (S10-S12) names the most dangerous outsider by the posterior (a likely or claimed
investigator, an accuser of the Ring), discounted when the Keeper is likely to shelter that very
player tonight (S17): the Ring reasons about the Keeper as the Station does, so the player the
Station would shelter is the one it expects sheltered. The performer is the member least
suspected in public (an Interrogator detains the likeliest, S14) and, at equal suspicion, one
whose own ability is not lost by performing (S12). The Forger frames (S16) the Ring's vote
target, so an Analyst who reads that player backs the Ring's vote; the Honeytrap distracts (S15)
the Keeper when tonight's order is likely sheltered, else the likeliest investigator. The Ring
agrees one vote in the Ring Channel (S29): today's leader when an outsider leads (its votes
push that player over the threshold, S21), else an accuser of the Ring, else the outsider the
public suspects most; never a Ring mate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deaddrop.bots.station.day_builder import live_leader
from deaddrop.bots.station.expert_policy import Posterior, accusers, danger, likely_victim, top
from deaddrop.bots.station.known import Known
from deaddrop.bots.station.suspicion import suspicion
from deaddrop.engine.station.claims import StanceClaim

SHELTER_DISCOUNT = 0.8
"""How much of a target's worth a likely shelter takes away (S17: the kill then fails)."""
OWN_ABILITY = 0.75
"""The public suspicion a performer with an ability of its own is worth: performing loses it."""


def keeper_alive(known: Known, belief: Posterior) -> float:
    """The probability that a Keeper lives to shelter tonight."""
    return min(1.0, sum(belief.p_role(c, "safehouse_keeper") for c in known.living))


def expected_shelter(known: Known, belief: Posterior) -> str | None:
    """Whom the Keeper most likely shelters tonight: the Station's likeliest victim, judged
    from what the Station can see (claims), which a Ring seat sees as well."""
    return likely_victim(known, PUBLIC, exclude=known.ring)


class _Public:
    """The Station's side of the table as the public sees it: every outsider equally trusted.
    Only claims then separate them, as they do for a Keeper who knows nothing more."""

    liars: frozenset[str] = frozenset()

    def p_role(self, codename: str, role: str) -> float:
        return 0.0

    def p_faction(self, codename: str, faction: str) -> float:
        return 0.0


PUBLIC: Posterior = _Public()
"""A neutral posterior: only public claims rank the likeliest victim."""


def order_target(known: Known, belief: Posterior) -> str | None:
    """The liquidation's target (S10): the most dangerous outsider, not the one expected
    sheltered if another is worth nearly as much."""
    targets = list(known.options["order_targets"])
    sheltered = expected_shelter(known, belief)
    keeper = keeper_alive(known, belief)

    def worth(c: str) -> float:
        value = danger(known, belief, c)
        if c == sheltered:
            value *= 1 - SHELTER_DISCOUNT * keeper * (1 - belief.p_role(c, "safehouse_keeper"))
        return value

    return top(known, targets, worth)


def order_performer(known: Known, public: Mapping[str, float]) -> str | None:
    """Who performs the order (S12): the Ring member least suspected in public; the
    order-holder's own seat has no ability to lose when it is the Ringleader."""
    performers = list(known.options["order_performers"])

    def cost(c: str) -> float:
        role = _ring_role(known, c)
        own = OWN_ABILITY if role in ("forger", "honeytrap") else 0.0
        return public.get(c, 0.0) + own

    return top(known, performers, lambda c: -cost(c))


def _ring_role(known: Known, codename: str) -> str | None:
    """A Ring member's role, which every member sees (S5)."""
    for member in known.view.get("ring", {}).get("members", []):
        if member["codename"] == codename:
            return str(member["role"])
    return None


def agreed_plan(known: Known) -> str | None:
    """The vote a Ring mate already proposed today in the Ring Channel (S29)."""
    outsiders = {c for c in known.living if c not in known.ring}
    for seen in known.claims:
        claim = seen.claim
        if (
            seen.channel == "ring"
            and seen.day == known.day
            and seen.author != known.me
            and isinstance(claim, StanceClaim)
            and claim.stance == "suspect"
            and claim.target in outsiders
        ):
            return claim.target
    return None


def ring_vote(known: Known, belief: Posterior, public: Mapping[str, float]) -> str | None:
    """The outsider the Ring votes out (S21): today's leader, an accuser, or the most suspected;
    a likely Defector last (its recall is its own win, and it draws the Station's votes)."""
    outsiders = [c for c in known.living if c not in known.ring]
    if not outsiders:
        return None
    leader, votes = live_leader(known, exclude=tuple(known.ring))
    if leader is not None and votes >= 1 and belief.p_faction(leader, "neutral") < 0.5:
        return leader
    blamers = [c for c in outsiders if c in accusers(known, known.ring)]
    if blamers:
        return top(known, blamers, lambda c: danger(known, belief, c))
    return top(
        known,
        outsiders,
        lambda c: (
            public.get(c, 0.0) - 3 * belief.p_faction(c, "neutral") + 0.1 * danger(known, belief, c)
        ),
    )


def frame_target(known: Known, plan: str | None) -> str | None:
    """The Forger's frame (S16): the Ring's vote target, so a reading of it backs the vote."""
    legal = known.options["ability_targets"]
    if plan in legal:
        return plan
    outsiders = [c for c in legal if c not in known.ring]
    return outsiders[0] if outsiders else None


def distract_target(known: Known, belief: Posterior, order_on: str | None) -> str | None:
    """The Honeytrap's distraction (S15): the Keeper when tonight's order is likely sheltered,
    else the likeliest investigator."""
    legal = [c for c in known.options["ability_targets"] if c not in known.ring]
    if order_on is not None and order_on == expected_shelter(known, belief):
        keeper = top(known, legal, lambda c: belief.p_role(c, "safehouse_keeper"))
        if keeper is not None and belief.p_role(keeper, "safehouse_keeper") > 0:
            return keeper
    return top(
        known,
        legal,
        lambda c: sum(belief.p_role(c, r) for r in ("analyst", "watcher", "shadow")),
    )


def public_suspicion(known: Known) -> dict[str, float]:
    """How the public sees each living player (no private results): what the Station acts on."""
    return suspicion(known, private=False)


def current_order(known: Known) -> str | None:
    """Tonight's order target if the order-holder filed one already (S10: the Ring sees it)."""
    order = known.view.get("ring", {}).get("order")
    if isinstance(order, Mapping):
        target = order.get("order_target")
        return str(target) if target is not None else None
    return None


def outsiders_of(known: Known) -> Sequence[str]:
    """The living players outside the Ring."""
    return [c for c in known.living if c not in known.ring]
