"""The evidence of one seat's belief, read from its `Known` alone (S42): facts and factors.

Both engines (the factored `belief_exact` and the plain `belief_brute`) weigh assignments by
exactly this evidence, so they compute the same posterior by different sums.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from deaddrop.bots.station.belief_claims import claim_contents, stance_pairs
from deaddrop.bots.station.belief_factors import (
    FRAMEABLE_COMPROMISED,
    SELF_VISITORS,
    Content,
    Pair,
    VisitFact,
)
from deaddrop.bots.station.belief_visits import ring_records, seen_visits
from deaddrop.bots.station.known import Known
from deaddrop.bots.station.likelihood import RING, Likelihood
from deaddrop.engine.station.roles import FACTION, ROLE_TABLE, is_ring

Unary = dict[str, dict[str, float]]


@dataclass(frozen=True, slots=True)
class Evidence:
    """Everything the belief weighs: the deal left to guess and the factors on it."""

    codenames: tuple[str, ...]
    fixed: Mapping[str, str]
    """Codename -> role this seat is certain of (itself, its Ring mates S5, the reveal S26)."""
    unknown: tuple[str, ...]
    pool: tuple[str, ...]
    """The roles dealt among `unknown` (S1's table less the fixed ones), sorted."""
    unary: Unary
    """Unknown codename -> role -> weight; a missing role weighs 1."""
    pairs: tuple[Pair, ...]
    any_ring: tuple[frozenset[str], ...]
    """Sets that hold at least one Ring member (hard)."""
    contents: tuple[Content, ...]
    visits: tuple[VisitFact, ...]
    """Visits this seat saw (S13), weighed by the labels of the players they name."""
    model: Likelihood


def fixed_roles(known: Known) -> dict[str, str]:
    """The roles this seat is sure of: its own, the Ring's for the Ring (S5), all after S26."""
    fixed = {known.me: known.role}
    for member in known.view.get("ring", {}).get("members", []):
        fixed[member["codename"]] = member["role"]
    for entry in known.view["roster"]:
        if "role" in entry:
            fixed[entry["codename"]] = entry["role"]
    return fixed


def evidence(known: Known, model: Likelihood, liars: Iterable[str] = ()) -> Evidence:
    """The evidence of a seat's Known under a likelihood model; `liars`' claims weigh as lies."""
    fixed = fixed_roles(known)
    unknown = tuple(c for c in known.codenames if c not in fixed)
    left = Counter(ROLE_TABLE[len(known.codenames)])
    left.subtract(fixed.values())
    pool = tuple(sorted(left.elements()))
    unary: Unary = {c: {} for c in unknown}
    any_ring: list[frozenset[str]] = []
    _public_facts(known, unary)
    _own_results(known, unary, any_ring, model)
    ring_records(known, unary, model)
    pairs = _vote_pairs(known, fixed, unary, model) + stance_pairs(known, fixed, model)
    contents = claim_contents(known, fixed, model, liars)
    return Evidence(
        codenames=known.codenames,
        fixed=fixed,
        unknown=unknown,
        pool=pool,
        unary={c: w for c, w in unary.items() if w},
        pairs=tuple(pairs),
        any_ring=tuple(any_ring),
        contents=tuple(contents),
        visits=tuple(seen_visits(known)),
        model=model,
    )


def _scale(unary: Unary, codename: str, weights: Mapping[str, float]) -> None:
    """Multiply a player's role weights (only players whose role is unknown carry any)."""
    if codename not in unary:
        return
    row = unary[codename]
    for role, w in weights.items():
        row[role] = row.get(role, 1.0) * w


def _where(pred: Any) -> dict[str, float]:
    """Role -> 1 where the predicate holds, 0 elsewhere (a hard fact)."""
    return {r: 1.0 if pred(r) else 0.0 for r in FACTION}


def _public_facts(known: Known, unary: Unary) -> None:
    """S23: a burned player's published faction (liquidated ones are never Ring, S10)."""
    for codename, faction in known.dead.items():
        _scale(unary, codename, _where(lambda r, f=faction: FACTION[r].value == f))
    for codename in known.liquidated:
        _scale(unary, codename, _where(lambda r: FACTION[r].value != RING))


def _own_results(
    known: Known, unary: Unary, any_ring: list[frozenset[str]], model: Likelihood
) -> None:
    """S14, S16, S18, S19: what this seat's own private results prove or suggest."""
    for day, r in known.results:
        kind = r.get("kind")
        if kind == "analyst":
            if r["reading"] == "CLEAR":  # S19: an unframed Forger/Honeytrap reads COMPROMISED
                weights = {x: 0.0 for x in FRAMEABLE_COMPROMISED}
            else:  # S16: any other player reads COMPROMISED only when framed
                weights = {x: model.frame_rate for x in FACTION if x not in FRAMEABLE_COMPROMISED}
            _scale(unary, r["target"], weights)
        elif kind == "watcher":
            _watched(known, day, r["target"], r["visitors"], unary, any_ring)
        elif kind == "shadow" and r["visited"] is not None:
            _shadowed(known, day, r["target"], r["visited"], unary, model)
        elif kind == "safehouse_needed":  # S10, S18: an order never targets the Ring
            _scale(unary, r["target"], _where(lambda x: FACTION[x].value != RING))
        elif kind == "interrogation" and known.role != "interrogator":
            _scale(unary, r["with"], _where(lambda x: x == "interrogator"))  # S19, S14


def _watched(
    known: Known,
    day: int,
    target: str,
    visitors: list[str],
    unary: Unary,
    any_ring: list[frozenset[str]],
) -> None:
    """S13, S19: a self-visit needs a role that may target itself; a victim's visitors hold
    the performer (S18) and neither the Keeper nor the Interrogator, who would have saved them."""
    for v in visitors:
        if v == target:
            _scale(unary, v, _where(lambda x: x in SELF_VISITORS))
    if known.liquidated.get(target) == day:
        any_ring.append(frozenset(visitors))
        for v in visitors:
            _scale(unary, v, _where(lambda x: x not in ("safehouse_keeper", "interrogator")))


def _shadowed(
    known: Known, day: int, target: str, visited: str, unary: Unary, model: Likelihood
) -> None:
    """S13, S19: the shadowed player's visit; to the night's victim it is likely the kill."""
    if visited == target:
        _scale(unary, target, _where(lambda x: x in SELF_VISITORS))
    if known.liquidated.get(visited) == day:
        saver = _where(lambda x: x not in ("safehouse_keeper", "interrogator"))
        _scale(unary, target, saver)
        _scale(unary, target, {x: 1.0 if is_ring(x) else model.victim_visit for x in FACTION})


def _vote_pairs(
    known: Known, fixed: Mapping[str, str], unary: Unary, model: Likelihood
) -> list[Pair]:
    """S21: every vote (today's live ones too) and S31: every announced whisper."""
    pairs: list[Pair] = []
    for _, voter, vote in known.votes:
        if voter in fixed or vote is None or vote == "abstain":
            continue  # my own and my Ring mates' votes tell me nothing new
        if vote == voter:
            _scale(unary, voter, {x: model.self_vote[FACTION[x].value] for x in FACTION})
        else:
            pairs.append(Pair(voter, vote, model.vote))
    for w in known.view["whispers_announced"]:
        if w["sender"] not in fixed:
            pairs.append(Pair(w["sender"], w["recipient"], model.whisper))
    return pairs
