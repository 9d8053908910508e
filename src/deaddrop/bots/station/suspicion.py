"""How suspicious each living player looks to one seat: a score from what it knows (S42).

Positive means Ring-like, negative trusted. The weights are a sensible player's rules of thumb,
not a probability: one's own COMPROMISED reading counts most (a frame, S16, may fake it), a
claimed result counts by its author's credibility, and a claim that contradicts public facts
(a whisper count the Floor's announcements refute, S31, or a second claimant of a role the
table deals once, S1) marks its author a liar.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from deaddrop.bots.station.known import Known
from deaddrop.engine.station.claims import (
    Claim,
    ReadingClaim,
    StanceClaim,
    VisitClaim,
    VisitorsClaim,
    WhisperCountClaim,
)
from deaddrop.engine.station.roles import ROLE_TABLE, is_ring

OWN_COMPROMISED = 10.0
OWN_CLEAR = -4.0
SAFEHOUSE_NEEDED = -100.0  # S10: an order never names a Ring member, so its target is not Ring
LIAR = 8.0
CLAIMED_COMPROMISED = 6.0
CLAIMED_CLEAR = -3.0
CONTESTED = 2.0
VISITOR_OF_VICTIM = 6.0
WHISPER_SENT = 1.0
"""Per whisper sent: the Field Agent's lesson (S19) that private traffic is where plots are."""
VOTED_AGAINST_ME = 1.5
RECALLED_STATION = 2.5
"""Per vote for a player the Tribunal recalled and the Cable showed was not the Ring (S23)."""
RECALLED_RING = -1.0


def liars(known: Known, private: bool = True) -> set[str]:
    """Authors whose claims contradict public facts (or, if `private`, this seat's own role)."""
    found: set[str] = set()
    for seen in known.floor_claims():
        claim = seen.claim
        refuted = isinstance(claim, WhisperCountClaim) and (
            known.whisper_counts.get((claim.day, claim.target), 0) != claim.count
        )
        if refuted:
            found.add(seen.author)  # S31: the counts are public; a wrong one is a lie
    if private and not is_ring(known.role):
        for author, role in known.role_claims().items():
            if author == known.me or role != known.role:
                continue
            if ROLE_TABLE[len(known.codenames)].count(role) == 1:
                found.add(author)  # S1: I hold the only one; they lie
    return found


def credibility(known: Known, author: str, contested: set[str], lying: set[str]) -> float:
    """How far to believe an author's results: 0 for liars and burned Ring, 1/2 if contested."""
    if author in lying or known.dead.get(author) == "ring":
        return 0.0
    if known.dead.get(author) == "station":
        return 1.0  # a burned Station player had no reason to lie
    return 0.5 if author in contested else 1.0


def contested_roles(known: Known) -> set[str]:
    """Authors who claim a role more players claim than the table deals (S1)."""
    table = ROLE_TABLE[len(known.codenames)]
    by_role: dict[str, list[str]] = defaultdict(list)
    for author, role in known.role_claims().items():
        by_role[role].append(author)
    out: set[str] = set()
    for role, authors in by_role.items():
        confirmed = [a for a in authors if known.dead.get(a) == "station"]
        if len(authors) > table.count(role) and len(confirmed) < len(authors):
            out.update(a for a in authors if a not in confirmed)
    return out


def suspicion(known: Known, private: bool = True) -> dict[str, float]:
    """A score for every living player but oneself; `private` adds this seat's own results."""
    score = {c: 0.0 for c in known.living if c != known.me}

    def add(codename: str | None, value: float) -> None:
        if codename is not None and codename in score:
            score[codename] += value

    lying = liars(known, private)
    contested = contested_roles(known)
    for author in contested:
        add(author, CONTESTED)
    # A lie the public record refutes at once is the Defector's way to court a recall (S25),
    # while a Defector lives; a Ring member would not lie so plainly.
    defector_lives = "defector" in ROLE_TABLE[len(known.codenames)] and (
        "neutral" not in known.dead.values()
    )
    for author in lying:
        add(author, 0.0 if defector_lives and known.role != "defector" else LIAR)
    for (_, sender), count in _sent(known).items():
        add(sender, WHISPER_SENT * count)
    if private:
        _add_own_results(known, add)
    told: list[tuple[str, Claim]] = [
        (s.author, s.claim)
        for s in known.claims
        if s.channel == "floor" or (s.channel == "whisper" and s.author != known.me)
    ]
    told += [(author, claim) for author, claims in known.wills.items() for claim in claims]
    for author, claim in told:
        if author == known.me:
            continue
        weight = credibility(known, author, contested, lying)
        if isinstance(claim, ReadingClaim):
            if claim.reading == "COMPROMISED":
                add(claim.target, CLAIMED_COMPROMISED * weight)
                if known.dead.get(claim.target) == "station":
                    add(author, CONTESTED)  # a frame (S16), or a lie
            else:
                add(claim.target, CLAIMED_CLEAR * weight)
        elif isinstance(claim, VisitorsClaim) and known.liquidated.get(claim.target) == claim.day:
            for visitor in claim.visitors:
                add(visitor, VISITOR_OF_VICTIM / 2 * weight / len(claim.visitors))
        elif (
            isinstance(claim, VisitClaim) and known.liquidated.get(claim.visited or "") == claim.day
        ):
            add(claim.target, VISITOR_OF_VICTIM / 2 * weight)
        elif isinstance(claim, StanceClaim) and weight > 0 and score.get(author, 0.0) <= 0:
            add(claim.target, 0.5 if claim.stance == "suspect" else -0.5)
    _add_votes(known, add, private)
    return score


Add = Callable[[str | None, float], None]
"""Adds to one player's suspicion score (a name outside the scored players is ignored)."""


def _add_own_results(known: Known, add: Add) -> None:
    """This seat's own results (S19): readings, a needed safehouse, visitors of a victim."""
    for day, result in known.results:
        kind = result.get("kind")
        target = str(result.get("target", ""))
        if kind == "analyst":
            add(target, OWN_COMPROMISED if result["reading"] == "COMPROMISED" else OWN_CLEAR)
        elif kind == "safehouse_needed":
            add(target, SAFEHOUSE_NEEDED)
        elif kind == "watcher" and known.liquidated.get(target) == day:
            visitors = [v for v in result["visitors"] if v != known.me]
            for visitor in visitors:  # S18: the performer visited the victim
                add(visitor, VISITOR_OF_VICTIM / len(visitors))
        elif kind == "shadow" and known.liquidated.get(result.get("visited") or "") == day:
            add(target, VISITOR_OF_VICTIM / 2)


def _add_votes(known: Known, add: Add, private: bool) -> None:
    """The vote record: a vote against me (I know my side), and votes the Cable judged (S23)."""
    for day, voter, vote in known.votes:
        if private and vote == known.me and not is_ring(known.role):
            add(voter, VOTED_AGAINST_ME)  # I know I am not the Ring
        cable = next((c for c in known.view["cables"] if c["day"] == day), None)
        if cable is None or cable["recalled"] is None or vote != cable["recalled"]:
            continue
        # S23: the recalled player's faction tells who voted well
        add(voter, RECALLED_RING if known.dead.get(vote or "") == "ring" else RECALLED_STATION)


def _sent(known: Known) -> dict[tuple[int, str], int]:
    """(day, sender) → whispers sent, from the public announcements (S31)."""
    out: dict[tuple[int, str], int] = {}
    for w in known.view["whispers_announced"]:
        key = (w["day"], w["sender"])
        out[key] = out.get(key, 0) + 1
    return out


def _visited_victim(known: Known, claim: VisitClaim) -> bool:
    """Whether a claimed visit went to a player liquidated at that Pouch (S18)."""
    return claim.visited is not None and known.liquidated.get(claim.visited) == claim.day
