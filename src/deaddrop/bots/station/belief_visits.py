"""Visits as evidence (S13): who the seat saw visit whom, and the Ring's own records of its kills.

A Watcher's list of visitors (S19) and a Shadow's followed visit say which roles were out that
night: the Ringleader's only visit is a liquidation it performs (S9, S12), never on Day 1 nor at
a Ring player (S10), and a target who survived it was protected (S14, S17, S18). They become
`VisitFact`s, weighed by the labels of the players they name (`belief_factors.visit_weight`).

A Ring seat reads the Ring Channel (S29): its mates' cover stories and agreed votes are plans,
not evidence, but two kinds of record there state what only the Ring can know, and the Ring
does not lie to itself: "Day D: P visited T" with P of the Ring and T not is the night's order
(S12; the view's own list of the orders the seat saw filed, S10, gives the same record), and
"Day D: X visited P" with P of the Ring and X not is P's detention (S14, the interrogation
entry that only P saw). They weigh the seat's unknown players' roles directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deaddrop.bots.station.belief_factors import VisitFact
from deaddrop.bots.station.known import Known
from deaddrop.bots.station.likelihood import Likelihood
from deaddrop.engine.station.claims import VisitClaim
from deaddrop.engine.station.roles import ROLE_TABLE

Unary = dict[str, dict[str, float]]


def seen_visits(known: Known) -> list[VisitFact]:
    """Every visit this seat's own Watcher and Shadow results show (S19), victims' included;
    the other visitors guard a Ringleader's visit only where every protection is seen."""
    facts: list[VisitFact] = []
    # S15: a distracted Interrogator still detains, with no visit the Watcher sees, so at a
    # table with a Honeytrap a survivor's protector may be missing from its visitors
    unseen_detention = "honeytrap" in ROLE_TABLE[len(known.codenames)]
    for day, r in known.results:
        kind = r.get("kind")
        if kind == "watcher":
            target = str(r["target"])
            visitors = [str(v) for v in r["visitors"] if v != target]
            survived = known.liquidated.get(target) != day
            for v in visitors:
                guards = None if unseen_detention else tuple(g for g in visitors if g != v)
                facts.append(VisitFact(v, target, day, survived, guards))
        elif kind == "shadow":
            visited = r["visited"]
            if visited is None or visited != r["target"]:
                survived = visited is None or known.liquidated.get(visited) != day
                facts.append(VisitFact(str(r["target"]), visited, day, survived))
    return facts


def ring_records(known: Known, unary: Unary, model: Likelihood) -> None:
    """Weigh the unknown players' roles by the Ring Channel's records (a Ring seat only)."""
    if not known.ring:
        return
    table = ROLE_TABLE[len(known.codenames)]
    burned = _burned_days(known.view)
    records = dict.fromkeys(s.claim for s in known.claims if s.channel == "ring")
    # S10: the orders the seat saw filed are the same record, whether or not a mate posted it
    for order in known.view["ring"].get("orders", []):
        records[VisitClaim(order["day"], order["performer"], order["target"])] = None
    for claim in records:
        if not isinstance(claim, VisitClaim) or claim.visited is None:
            continue
        subject, visited = claim.target, claim.visited
        if subject in known.ring and visited not in known.ring:
            if known.liquidated.get(visited) == claim.day or "interrogator" in table:
                continue  # a kill, or a failure four protections may explain (S14, S15, S17)
            # S17, S18: with no detention or distraction at this table, only a shelter saves
            for c in unary:
                if c == visited or burned.get(c, claim.day) < claim.day:
                    _soften(unary, c, "safehouse_keeper", model.slip)
        elif visited in known.ring and subject not in known.ring and "interrogator" in table:
            # S14: only a detention shows a Ring member its visitor
            row = unary.get(subject)
            if row is not None:
                for role in set(table) - {"interrogator"}:
                    row[role] = row.get(role, 1.0) * model.slip


def _soften(unary: Unary, codename: str, role: str, weight: float) -> None:
    """Multiply one player's weight of one role."""
    row = unary[codename]
    row[role] = row.get(role, 1.0) * weight


def _burned_days(seen: Mapping[str, Any]) -> dict[str, int]:
    """Burned codename -> the day of the Pouch that burned them (S23)."""
    return {e["codename"]: e["death"]["day"] for e in seen["roster"] if e["death"] is not None}
