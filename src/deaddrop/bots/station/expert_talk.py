"""What the `expert` level says (S43 claims): when the Station claims, and the Ring's and the
Defector's lies, kept consistent without memory.

The bot is stateless, so a story is read back from its own earlier posts: a fake role once
claimed (on the Floor or told to the Ring Channel) is kept for the rest of the game, a day's
fake result is told once, and a fake result never contradicts the public record (a whisper
count is the true public count, S31; a reading names a player living on that day).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from deaddrop.bots.station.day_builder import live_leader, names_a_suspect, result_claims
from deaddrop.bots.station.expert_policy import Posterior, danger, ring_p, top
from deaddrop.bots.station.known import INVESTIGATORS, Known
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.claims import (
    Claim,
    ProtectionClaim,
    ReadingClaim,
    RoleClaim,
    StanceClaim,
    VisitClaim,
    WhisperCountClaim,
)
from deaddrop.engine.station.roles import ROLE_TABLE

FAKE_FIELD_AGENT = 3
"""One chance in this many a day that an unclaimed Ring member takes a Field Agent's cover."""


@dataclass(slots=True)
class Talk:
    """A day's claims: on the Floor, in the Ring Channel, and whispers (recipient, claims)."""

    floor: list[Claim] = field(default_factory=list)
    ring: list[Claim] = field(default_factory=list)
    whispers: list[tuple[str, list[Claim]]] = field(default_factory=list)


def at_risk(known: Known) -> bool:
    """Whether today's votes are about to recall this seat (S21): time to say what it knows."""
    leader, votes = live_leader(known)
    return leader == known.me and votes >= known.view["threshold"] - 1


def station_talk(known: Known, belief: Posterior, vote: str | None) -> Talk:
    """A Station seat's claims: an investigator goes public once a result names a suspect (a
    COMPROMISED reading, the visitor of a victim) or its recall is near, and keeps telling new
    results after; a Keeper vouches for a player it saved (S18); the vote is explained."""
    talk = Talk()
    mine = result_claims(known)
    said = known.my_claims()
    new = [c for c in mine if c not in said and not isinstance(c, ProtectionClaim)]
    outed = any(isinstance(c, RoleClaim) for c in said)
    telling = outed or any(names_a_suspect(known, c) for c in new) or at_risk(known)
    if telling and (known.role in INVESTIGATORS or at_risk(known)):
        if not outed:
            talk.floor.append(RoleClaim(known.role))
        talk.floor.extend(new)
    for claim in mine:
        if isinstance(claim, ProtectionClaim) and StanceClaim("trust", claim.target) not in said:
            talk.floor.append(StanceClaim("trust", claim.target))  # S10: the Ring's target
    if (
        vote is not None
        and ring_p(belief, vote) >= 0.5
        and StanceClaim("suspect", vote) not in said
    ):
        talk.floor.append(StanceClaim("suspect", vote))
    if known.role == "analyst" and not telling:
        for claim in new:
            if isinstance(claim, ReadingClaim) and claim.reading == "CLEAR":
                talk.whispers.append((claim.target, [RoleClaim("analyst"), claim]))
                break
    return talk


def cover_role(known: Known, author: str | None = None) -> str | None:
    """The role a player claimed last, on the Floor or in the Ring Channel (its cover)."""
    who = known.me if author is None else author
    role = None
    for seen in known.claims:
        if seen.author == who and seen.channel != "whisper" and isinstance(seen.claim, RoleClaim):
            role = seen.claim.role
    return role


def _told_day(known: Known, kind: type, day: int) -> bool:
    """Whether this seat already claimed a result of this kind for that day."""
    return any(isinstance(c, kind) and getattr(c, "day", None) == day for c in known.my_claims())


def ring_story(known: Known, belief: Posterior, plan: str | None, rng: Rng) -> tuple[Talk, Rng]:
    """A Ring seat's lie for today. One member plays the Analyst: an accused member
    counterclaims and reads its accuser COMPROMISED; with no Analyst claimed yet, the latest
    joined member takes the role and reads the Ring's vote target COMPROMISED (once a day, kept
    up after). Others now and then take a Field Agent's cover with true public counts. A cover
    is first told to the Ring Channel (S29), so no two members take the same one."""
    last = known.day - 1
    if last < 1:
        return Talk(), rng
    cover = cover_role(known)
    mates = {cover_role(known, m) for m in known.ring if m != known.me}
    outsiders = [c for c in known.living if c not in known.ring]
    if cover == "analyst" or (cover is None and "analyst" not in mates):
        target = _accuser(known, outsiders)
        claimed = {a for a, r in known.role_claims().items() if r == "analyst" and a != known.me}
        living_ring = [c for c in known.living if c in known.ring]
        chosen = not claimed and bool(living_ring) and living_ring[-1] == known.me
        if target is None and (cover == "analyst" or chosen):
            target = plan
        if target is not None:
            return _fake_reading(known, cover, target, outsiders, last), rng
    return _fake_count(known, belief, cover, outsiders, last, rng)


def _accuser(known: Known, outsiders: Sequence[str]) -> str | None:
    """The latest living outsider who claimed to read this seat COMPROMISED."""
    return next(
        (
            s.author
            for s in reversed(known.floor_claims())
            if isinstance(s.claim, ReadingClaim)
            and s.claim.reading == "COMPROMISED"
            and s.claim.target == known.me
            and s.author in outsiders
        ),
        None,
    )


def _fake_reading(
    known: Known, cover: str | None, target: str, outsiders: Sequence[str], last: int
) -> Talk:
    """An Analyst's fake reading of a living outsider, once for each day."""
    talk = Talk()
    if target in outsiders and not _told_day(known, ReadingClaim, last):
        claims: list[Claim] = [] if cover else [RoleClaim("analyst")]
        claims.append(ReadingClaim(last, target, "COMPROMISED"))
        talk.ring.extend(claims)  # S29: the Ring hears the story first, to keep to it
        talk.floor.extend(claims)
    return talk


def _fake_count(
    known: Known,
    belief: Posterior,
    cover: str | None,
    outsiders: Sequence[str],
    last: int,
    rng: Rng,
) -> tuple[Talk, Rng]:
    """A Field Agent's cover: the true public count (S31) of the most dangerous outsider."""
    talk = Talk()
    if cover is None:
        agents = [a for a, r in known.role_claims().items() if r == "field_agent"]
        roll, rng = rng.below(FAKE_FIELD_AGENT)
        if roll or len(agents) >= ROLE_TABLE[len(known.codenames)].count("field_agent"):
            return talk, rng
    elif cover != "field_agent":
        return talk, rng
    if _told_day(known, WhisperCountClaim, last):
        return talk, rng
    target = top(known, outsiders, lambda c: danger(known, belief, c))
    if target is not None:
        count = known.whisper_counts.get((last, target), 0)
        claims: list[Claim] = [] if cover else [RoleClaim("field_agent")]
        claims.append(WhisperCountClaim(last, target, count))
        talk.ring.extend(claims[:1] if not cover else [])
        talk.floor.extend(claims)
    return talk, rng


def detention_records(known: Known) -> list[Claim]:
    """A Ring seat's detentions, told once to the Ring Channel (S14, S29): "Day D: X visited
    me" shows the mates who the Interrogator is, which only the detainee's entry says."""
    told = set(known.my_claims("ring"))
    records = [
        VisitClaim(int(e["day"]), str(e["with"]), known.me)
        for e in known.view["me"].get("interrogations", [])
        if e["day"] < known.day
    ]
    return [r for r in records if r not in told]


def defector_story(known: Known, belief: Posterior) -> Talk:
    """The Defector courts its recall (S25) by looking like the Ring without a lie anyone can
    check: it claims the Analyst's role and reads a trusted player COMPROMISED each day."""
    talk = Talk()
    last = known.day - 1
    others = [c for c in known.living if c != known.me]
    if last < 1 or not others:
        return talk
    trusted = top(known, others, lambda c: -ring_p(belief, c))
    if trusted is not None and not _told_day(known, ReadingClaim, last):
        if cover_role(known) is None:
            talk.floor.append(RoleClaim("analyst"))
        talk.floor.append(ReadingClaim(last, trusted, "COMPROMISED"))
    return talk
