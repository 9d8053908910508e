"""Pair factors of the belief (votes S21, stances S43, whispers S31): they see factions only.

A pair with a player whose faction is certain is a unary weight on the other; the rest are
multiplied by ordered pair. `FactionPairs` weighs a faction placement in time quadratic in the
placed (non-Station) players, not in the whole table: every pair is measured against the
all-Station placement, whose weight is the same for every placement and cancels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deaddrop.bots.station.belief_evidence import Evidence
from deaddrop.bots.station.belief_factors import Weights
from deaddrop.bots.station.likelihood import NEUTRAL, RING, STATION
from deaddrop.engine.station.roles import FACTION

PairTable = dict[tuple[str, str], float]


def fold_pairs(
    ev: Evidence, u: Weights, also_known: Mapping[str, str]
) -> tuple[dict[tuple[str, str], PairTable], float]:
    """Fold pairs with a player of certain faction into `u`; multiply the others by pair; the
    product of the pairs whose both factions are certain.

    `also_known` maps more players to their faction (a branch's role holders): their pairs
    with each other weigh the branch, so they are returned, not dropped."""
    known = {c: FACTION[r].value for c, r in ev.fixed.items()} | dict(also_known)
    agg: dict[tuple[str, str], PairTable] = {}
    certain = 1.0
    for pair in ev.pairs:
        fa, fb = known.get(pair.a), known.get(pair.b)
        if fa is not None and fb is not None:
            certain *= pair.table[(fa, fb)]
            continue
        if fa is not None or fb is not None:
            other = pair.b if fa is not None else pair.a
            for r in u[other]:
                f = FACTION[r].value
                u[other][r] *= pair.table[(fa, f) if fa is not None else (f, fb)]  # type: ignore[index]
            continue
        table = agg.setdefault((pair.a, pair.b), dict.fromkeys(pair.table, 1.0))
        for k, x in pair.table.items():
            table[k] *= x
    return agg, certain


class FactionPairs:
    """The pair factors among players of unknown faction, relative to all of them Station."""

    def __init__(self, pairs: Mapping[tuple[str, str], PairTable], players: Sequence[str]) -> None:
        self.alone: dict[str, dict[str, float]] = {p: {RING: 1.0, NEUTRAL: 1.0} for p in players}
        self.partners: dict[str, list[tuple[str, dict[tuple[str, str], float]]]] = {
            p: [] for p in players
        }
        for (a, b), table in pairs.items():
            q = {k: x / table[(STATION, STATION)] for k, x in table.items()}
            for f in (RING, NEUTRAL):
                self.alone[a][f] *= q[(f, STATION)]
                self.alone[b][f] *= q[(STATION, f)]
            # both ends placed: the table's own cell, not the two one-sided ones
            both = {
                (f, g): q[(f, g)] / (q[(f, STATION)] * q[(STATION, g)])
                for f in (RING, NEUTRAL)
                for g in (RING, NEUTRAL)
            }
            self.partners[a].append((b, both))
            self.partners[b].append((a, {(g, f): x for (f, g), x in both.items()}))

    def added(self, placed: Mapping[str, str], p: str, f: str) -> float:
        """The factor of placing p in faction f beside an existing placement."""
        w = self.alone[p][f]
        for q, both in self.partners[p]:
            g = placed.get(q)
            if g is not None:
                w *= both[(f, g)]
        return w

    def weight(self, placed: Mapping[str, str]) -> float:
        """The pair factors of a placement: the factions of its non-Station players."""
        w = 1.0
        so_far: dict[str, str] = {}
        for p, f in placed.items():
            w *= self.added(so_far, p, f)
            so_far[p] = f
        return w
