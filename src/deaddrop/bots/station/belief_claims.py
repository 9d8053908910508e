"""Claims (S43) as belief factors: the role each implies, and what its truth depends on.

A claim is honest only when its author holds the role that could have made it (a reading is an
Analyst's, "I sheltered X" a Keeper's); then its content must be true. Whatever this seat can
already check (public whisper counts S31, who was alive, who was liquidated S23) is folded into
the claim's `truth`; what depends on other players' hidden roles becomes its `kind`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from deaddrop.bots.station.belief_factors import Content, Pair
from deaddrop.bots.station.known import RESULT_ROLE, Known
from deaddrop.bots.station.likelihood import Likelihood
from deaddrop.engine.station.claims import (
    Claim,
    ProtectionClaim,
    ReadingClaim,
    RoleClaim,
    StanceClaim,
    VisitClaim,
    VisitorsClaim,
    WhisperCountClaim,
)
from deaddrop.engine.station.roles import ROLE_TABLE


def seen_claims(known: Known, fixed: Mapping[str, str]) -> list[tuple[str, Claim]]:
    """(author, claim) once each: the Floor, whispers and Final Cables; never my own, my Ring
    mates' (S29: theirs is coordination, not evidence) or the Ring Channel's."""
    out: dict[tuple[str, Claim], None] = {}
    for seen in known.claims:
        if seen.channel != "ring" and seen.author not in fixed:
            out[(seen.author, seen.claim)] = None
    for author, claims in known.wills.items():
        if author not in fixed:
            for claim in claims:
                out[(author, claim)] = None
    return list(out)


def stance_pairs(known: Known, fixed: Mapping[str, str], model: Likelihood) -> list[Pair]:
    """ "I suspect X" / "I trust X": soft evidence between the author's and X's factions."""
    pairs: list[Pair] = []
    for author, claim in seen_claims(known, fixed):
        if isinstance(claim, StanceClaim) and claim.target != author:
            table = model.suspect if claim.stance == "suspect" else model.trust
            pairs.append(Pair(author, claim.target, table))
    return pairs


def claim_contents(
    known: Known, fixed: Mapping[str, str], model: Likelihood, liars: Iterable[str] = ()
) -> list[Content]:
    """Every claim but stances as a Content factor; a liar's ones weigh as lies."""
    lying = frozenset(liars)
    dead = {
        e["codename"]: e["death"]["day"] for e in known.view["roster"] if e["death"] is not None
    }
    out: list[Content] = []
    for author, claim in seen_claims(known, fixed):
        content = _content(known, dead, model, author, claim)
        if content is None:
            continue
        if author in lying:
            content = Content(
                content.author, content.role, content.kind, content.targets, content.truth,
                content.refuted, honest_possible=False,
            )  # fmt: skip
        out.append(content)
    return out


def _content(
    known: Known, dead: Mapping[str, int], model: Likelihood, author: str, claim: Claim
) -> Content | None:
    """One claim's factor, or None for a stance (a Pair instead)."""
    if isinstance(claim, StanceClaim):
        return None
    if isinstance(claim, RoleClaim):
        return Content(author, claim.role, "const")
    if isinstance(claim, ProtectionClaim):
        return _protection(known, dead, model, author, claim)
    role = RESULT_ROLE[type(claim)]
    named = _named(claim)
    if any(dead.get(c, claim.day) < claim.day for c in named):
        return _refuted(author, role, model)  # S8: every target was alive when saved
    if isinstance(claim, VisitorsClaim) and author in claim.visitors:
        return _refuted(author, role, model)  # S19: the Watcher is left out of its visitors
    if isinstance(claim, VisitClaim) and claim.target == author:
        return _refuted(author, role, model)  # S9: a Shadow follows another player
    if isinstance(claim, WhisperCountClaim):
        if known.whisper_counts.get((claim.day, claim.target), 0) != claim.count:
            return _refuted(author, role, model)  # S31: the counts are public
        return Content(author, role, "const")
    if isinstance(claim, ReadingClaim):
        kind = "clear" if claim.reading == "CLEAR" else "compromised"
        return Content(author, role, kind, (claim.target,))
    if isinstance(claim, VisitorsClaim):
        if known.liquidated.get(claim.target) != claim.day:
            return Content(author, role, "const")
        if not claim.visitors:
            return _refuted(author, role, model)  # S18: the performer visited the victim
        return Content(author, role, "any_ring", claim.visitors)
    assert isinstance(claim, VisitClaim)
    if claim.visited is not None and known.liquidated.get(claim.visited) == claim.day:
        return Content(author, role, "victim_visit", (claim.target,))
    return Content(author, role, "const")


def _named(claim: Claim) -> tuple[str, ...]:
    """The players a result claim names, its target first."""
    if isinstance(claim, VisitorsClaim):
        return (claim.target, *claim.visitors)
    if isinstance(claim, VisitClaim) and claim.visited is not None:
        return (claim.target, claim.visited)
    assert isinstance(claim, ReadingClaim | VisitClaim | WhisperCountClaim)
    return (claim.target,)


def _protection(
    known: Known, dead: Mapping[str, int], model: Likelihood, author: str, claim: ProtectionClaim
) -> Content:
    """ "I sheltered / detained X": false if X was the author (S9) or dead already (S8); a
    detainee is never liquidated (S14); a sheltered one only if the Keeper was distracted (S15)."""
    role = "safehouse_keeper" if claim.action == "sheltered" else "interrogator"
    if claim.target == author or dead.get(claim.target, claim.day) < claim.day:
        return _refuted(author, role, model)
    if known.liquidated.get(claim.target) != claim.day:
        return Content(author, role, "const")
    if claim.action == "sheltered" and "honeytrap" in ROLE_TABLE[len(known.codenames)]:
        return Content(author, role, "const", truth=model.distracted)
    return _refuted(author, role, model)


def _refuted(author: str, role: str, model: Likelihood) -> Content:
    """A claim false on its face: even its role's holder would be lying."""
    return Content(author, role, "const", truth=model.slip, refuted=True)
