"""The `heuristic` Station level: role-aware rules of thumb, from one seat's view and posts.

A sensible opponent, not a strong one. The Station reads, shelters, watches and detains by a
suspicion score (`suspicion.py`), claims its results in S43 sentences and votes on them; the
Ring agrees a vote in the Ring Channel, liquidates whoever claimed an investigative result,
frames and distracts around it, and now and then fakes a claim that stays consistent with
what it said before and with public facts; the Defector courts its own recall (S25). Every
draw comes from the generator it is given, so a day is a pure function of (view, posts, rng).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deaddrop.bots.station.base import DayPlan
from deaddrop.bots.station.day_builder import (
    DayBuilder,
    best,
    live_leader,
    names_a_suspect,
    result_claims,
)
from deaddrop.bots.station.known import INVESTIGATORS, Known, read_if_playing
from deaddrop.bots.station.suspicion import suspicion
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.claims import (
    Claim,
    Post,
    ProtectionClaim,
    ReadingClaim,
    RoleClaim,
    StanceClaim,
    WhisperCountClaim,
)
from deaddrop.engine.station.roles import ROLE_TABLE

VOTE_BAR = 4.0
"""A Station seat votes for a player only when this suspicious (or joins a leader above 1)."""
WEAK_BAR = 2.0
"""With no strong suspect and no recall under way, a seat votes for one this suspicious."""
FAKE_FIELD_AGENT = 6
"""One chance in this many a day that an unclaimed Ring member fakes a Field Agent's claim."""
COUNTERCLAIM = 2
"""One chance in this many that an accused Ring member counterclaims the Analyst."""


def plan_day(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
    """The heuristic level's day for the seat whose view this is (S42: view and posts only)."""
    known = read_if_playing(seen, posts)
    if known is None:
        return DayPlan(), rng
    if known.faction == "ring":
        return _ring_day(known, rng)
    if known.role == "defector":
        return _defector_day(known, rng)
    return _station_day(known, rng)


def _likely_victim(known: Known, score: Mapping[str, float], rng: Rng) -> tuple[str | None, Rng]:
    """Whom the Ring most likely liquidates: a trusted investigator who claimed, else the most
    trusted player (ties broken by the generator)."""
    targets = [c for c in known.options["ability_targets"] if c != known.me]
    roles = known.role_claims()
    told_me = {s.author for s in known.claims if s.channel == "whisper" and s.author != known.me}
    claimed = [
        c
        for c in targets
        if (roles.get(c) in INVESTIGATORS or c in told_me) and score.get(c, 0.0) < 2
    ]
    if claimed:
        return best(claimed, lambda c: -score.get(c, 0.0), rng)
    return best(targets, lambda c: -score.get(c, 0.0), rng)


def _station_day(known: Known, rng: Rng) -> tuple[DayPlan, Rng]:
    """A Station seat: act on the most suspicious, protect the likeliest victim, claim, vote."""
    day = DayBuilder(known)
    score = suspicion(known)
    role = known.role
    others = [c for c in known.options["ability_targets"] if c != known.me]
    target: str | None = None
    if role == "analyst":
        read_already = {r["target"] for _, r in known.results if r.get("kind") == "analyst"}
        unread = [c for c in others if c not in read_already and score[c] > -50]
        target, rng = best(unread or others, lambda c: score[c], rng)
    elif role in ("safehouse_keeper", "watcher"):
        target, rng = _likely_victim(known, score, rng)
    elif role == "interrogator":
        suspect, rng = best(others, lambda c: score[c], rng)
        if suspect is not None and score[suspect] >= VOTE_BAR:
            target = suspect
        else:
            target, rng = _likely_victim(known, score, rng)
    else:  # shadow, field_agent: follow the most suspicious
        target, rng = best(others, lambda c: score[c], rng)
    day.operation(target)
    _station_talk(day, known, score)
    candidates = [c for c in known.living if c != known.me]
    suspect, rng = best(candidates, lambda c: score[c], rng)
    if suspect is not None and score[suspect] >= VOTE_BAR:
        day.vote(suspect)
    else:
        day.vote(_station_fallback_vote(known, score))
    day.final_cable([RoleClaim(role), *result_claims(known)])
    return day.plan(), rng


def _station_fallback_vote(known: Known, score: Mapping[str, float]) -> str | None:
    """With no strong suspect: vote a weaker one while no recall is under way; stand against
    a recall nobody gave a reason for (vote the most suspicious of its voters, the same one for
    every Station seat that agrees); join a leader it has some reason to doubt; or Abstain."""
    leader, votes = live_leader(known)
    order = known.codenames.index
    if score and (leader is None or votes < known.view["threshold"] - 1):
        weak = max(score, key=lambda c: (score[c], -order(c)))  # the same for all who agree
        if score[weak] >= WEAK_BAR:
            return weak
    if leader is None:
        return None
    if votes >= known.view["threshold"] - 1 and (leader == known.me or score[leader] < 1):
        voters = [
            voter
            for day, voter, vote in known.votes
            if day == known.day and vote == leader and voter in score
        ]
        if voters:
            return max(voters, key=lambda v: (score[v], -order(v)))
        return None
    return leader if votes >= 2 and leader != known.me and score[leader] >= 1 else None


def _station_talk(day: DayBuilder, known: Known, score: Mapping[str, float]) -> None:
    """Claim results on the Floor when they name a suspect (S43), and whisper CLEAR readings."""
    mine = result_claims(known)
    said = known.my_claims()
    new = [c for c in mine if c not in said and not isinstance(c, ProtectionClaim)]
    out: list[Claim] = []
    outed = any(isinstance(c, RoleClaim) for c in said)
    telling = outed or any(names_a_suspect(known, c) for c in new)
    if telling and known.role in INVESTIGATORS:
        if not outed:
            out.append(RoleClaim(known.role))
        out.extend(new)
    for claim in mine:
        if isinstance(claim, ProtectionClaim) and StanceClaim("trust", claim.target) not in said:
            out.append(StanceClaim("trust", claim.target))  # S18: attacked, so not the Ring
    if out:
        day.post("floor", out)
    if known.role == "analyst" and not telling:
        for claim in new:
            if isinstance(claim, ReadingClaim) and claim.reading == "CLEAR":
                day.whisper(claim.target, [RoleClaim("analyst"), claim])
                break


def _threat(known: Known, codename: str) -> float:
    """How much the Ring wants a player gone: claimed investigators first, then protectors,
    then whoever accused a Ring member."""
    roles = known.role_claims()
    value = 0.0
    if roles.get(codename) in INVESTIGATORS:
        value += 10
    elif roles.get(codename) in ("safehouse_keeper", "interrogator"):
        value += 6
    for seen in known.floor_claims():
        claim = seen.claim
        if seen.author != codename:
            continue
        if isinstance(claim, ReadingClaim) and claim.reading == "COMPROMISED":
            value += 5 if claim.target in known.ring else 0
        elif isinstance(claim, StanceClaim) and claim.stance == "suspect":
            value += 2 if claim.target in known.ring else 0
    return value


def _ring_day(known: Known, rng: Rng) -> tuple[DayPlan, Rng]:
    """A Ring seat: agree the vote in the Ring Channel, order the kill, frame, distract, fake."""
    day = DayBuilder(known)
    outsiders = [c for c in known.living if c not in known.ring]
    public = suspicion(known, private=False)
    plan = next(
        (
            s.claim.target
            for s in known.claims
            if s.channel == "ring"
            and s.day == known.day
            and s.author != known.me
            and isinstance(s.claim, StanceClaim)
            and s.claim.stance == "suspect"
            and s.claim.target in outsiders
        ),
        None,
    )
    if plan is None:
        plan, rng = _ring_vote_target(known, outsiders, rng)
        if plan is not None:
            day.post("ring", [StanceClaim("suspect", plan)])  # S29: the Ring agrees its vote
    options = known.options
    if options["order_targets"]:
        noise, rng = rng.below(4)
        victim, rng = best(
            options["order_targets"],
            lambda c: _threat(known, c) + (2 if c == plan and noise == 0 else 0),
            rng,
        )
        performer, rng = best(
            options["order_performers"],
            lambda c: -public.get(c, 0.0) - (0.5 if c == known.me else 0.0),
            rng,
        )
        assert victim is not None and performer is not None
        seat_of = day.seat_of
        day.actions.append(A.SaveOrder(day.seat, seat_of[victim], seat_of[performer]))
    elif known.role == "forger":
        day.operation(plan)  # S16: an Analyst's reading backs the Ring's vote
    elif known.role == "honeytrap":
        roles = known.role_claims()
        target, rng = best(
            [c for c in outsiders if c in options["ability_targets"]],
            lambda c: (8 if roles.get(c) == "safehouse_keeper" else 0) + _threat(known, c),
            rng,
        )
        day.operation(target)
    rng = _ring_fakes(day, known, outsiders, rng)
    day.vote(plan)
    day.final_cable(known.my_claims())
    return day.plan(), rng


def _ring_vote_target(known: Known, outsiders: Sequence[str], rng: Rng) -> tuple[str | None, Rng]:
    """Whom the Ring votes out: an accuser of a Ring member, else the live leader, else a threat."""
    accusers = [
        s.author
        for s in known.floor_claims()
        if isinstance(s.claim, ReadingClaim)
        and s.claim.reading == "COMPROMISED"
        and s.claim.target in known.ring
        and s.claim.target in known.living
        and s.author in outsiders
    ]
    if accusers:
        return accusers[-1], rng
    leader, _ = live_leader(known, exclude=tuple(known.ring))
    if leader is not None:
        return leader, rng
    return best(list(outsiders), lambda c: _threat(known, c), rng)


def _ring_fakes(day: DayBuilder, known: Known, outsiders: Sequence[str], rng: Rng) -> Rng:
    """Sometimes a fake claim (S43) that agrees with what this seat said before and with
    public facts: a counterclaimed Analyst reading on an accuser, or a Field Agent's count
    that matches the public whisper announcements (S31)."""
    said = known.my_claims()
    my_role = next((c.role for c in said if isinstance(c, RoleClaim)), None)
    last = known.day - 1
    if last < 1:
        return rng
    taken = set(known.role_claims().items())
    accuser = next(
        (
            s.author
            for s in known.floor_claims()
            if isinstance(s.claim, ReadingClaim)
            and s.claim.reading == "COMPROMISED"
            and s.claim.target == known.me
            and s.author in outsiders
        ),
        None,
    )
    read_days = {c.day for c in said if isinstance(c, ReadingClaim)}
    if accuser is not None and my_role in (None, "analyst") and last not in read_days:
        roll, rng = rng.below(COUNTERCLAIM)
        if roll == 0 or my_role == "analyst":
            claims: list[Claim] = [] if my_role else [RoleClaim("analyst")]
            claims.append(ReadingClaim(last, accuser, "COMPROMISED"))
            day.post("ring", claims)  # S29: the Ring hears the story first, to keep to it
            day.post("floor", claims)
            return rng
    if my_role == "field_agent" or (my_role is None and not said):
        if my_role is None:
            agents = [a for a, r in taken if r == "field_agent"]
            table = ROLE_TABLE[len(known.codenames)].count("field_agent")
            roll, rng = rng.below(FAKE_FIELD_AGENT)
            if roll or len(agents) >= table:
                return rng
        target, rng = best(list(outsiders), lambda c: _threat(known, c), rng)
        if target is None:
            return rng
        count = known.whisper_counts.get((last, target), 0)  # the true, public count
        fake: list[Claim] = [] if my_role else [RoleClaim("field_agent")]
        fake.append(WhisperCountClaim(last, target, count))
        day.post("floor", fake)
    return rng


def _defector_day(known: Known, rng: Rng) -> tuple[DayPlan, Rng]:
    """The Defector wants the Tribunal to recall it (S25): it votes for itself and tells a
    lie the public record refutes, so the Station takes it for the Ring."""
    day = DayBuilder(known)
    others = [c for c in known.options["ability_targets"] if c != known.me]
    if others:
        target, rng = rng.choice(others)
        day.operation(target)  # S27: a rumor, colour only
    last = known.day - 1
    if last >= 1 and not known.my_claims() and others:
        target, rng = rng.choice(others)
        count = known.whisper_counts.get((last, target), 0) + 1  # one more than the truth
        day.post("floor", [RoleClaim("field_agent"), WhisperCountClaim(last, target, count)])
    day.vote(known.me)
    return day.plan(), rng
