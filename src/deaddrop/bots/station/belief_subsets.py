"""The Station permanent for every subset of players at once (a dynamic programme over subsets).

Dealing the Station roles (`slots`, a Field Agent twice where the table has two) to a set S of
players weighs the product of their unary weights; `perm[S]` sums it over every deal. A
player's share of role r in S is `count(r) * u[p][r] * perm_without_r[S - p] / perm[S]`, where
`perm_without_r` deals the slots less one copy of r: one more programme per distinct role.
Slots are dealt in a fixed order, so each distinct deal is counted the same number of times
(the product of the multiplicities' factorials), a constant that cancels in the posterior.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from deaddrop.bots.station.belief_factors import Weights


def subset_sums(rows: Sequence[Sequence[float]], m: int) -> dict[int, float]:
    """For every set of m players (a bit mask), the sum over every deal of the m slots to them;
    rows[i][j] weighs player i holding slot j."""
    layer = {0: 1.0}
    for j in range(m):
        column = [(1 << i, row[j]) for i, row in enumerate(rows) if row[j]]
        nxt: dict[int, float] = {}
        get = nxt.get
        for mask, x in layer.items():
            for bit, w in column:
                if not mask & bit:
                    key = mask | bit
                    nxt[key] = get(key, 0.0) + x * w
        layer = nxt
    return layer


class StationDeal:
    """The Station part of the posterior over a fixed list of players and Station slots."""

    def __init__(
        self, players: Sequence[str], slots: Sequence[str], u: Mapping[str, Mapping[str, float]]
    ) -> None:
        self.players = tuple(players)
        self.bit = {p: 1 << i for i, p in enumerate(self.players)}
        self.full = (1 << len(self.players)) - 1
        self.u = u
        self.count = Counter(slots)
        self.perm = subset_sums([[u[p][r] for r in slots] for p in self.players], len(slots))
        self.without: dict[str, dict[int, float]] = {}
        for role in self.count:
            rest = list(slots)
            rest.remove(role)
            rows = [[u[p][r] for r in rest] for p in self.players]
            self.without[role] = subset_sums(rows, len(rest))
        self.weights: dict[int, float] = {}

    def mask(self, players: Iterable[str]) -> int:
        """The bit mask of some players."""
        m = 0
        for p in players:
            m |= self.bit[p]
        return m

    def perm_of(self, mask: int) -> float:
        """The sum over every deal of the slots to exactly the players of this mask."""
        return self.perm.get(mask, 0.0) if self.count else 1.0

    def weigh(self, mask: int, w: float) -> None:
        """Add weight w to the placement whose Station players are this mask's."""
        if w:
            self.weights[mask] = self.weights.get(mask, 0.0) + w

    def add_shares(self, sums: Weights) -> float:
        """Add each Station player's weight by role, over every weighed placement; the total."""
        total = 0.0
        for key, w in self.weights.items():
            perm = self.perm_of(key)
            total += w * perm
            if perm == 0.0:
                continue
            for p, bit in self.bit.items():
                if not key & bit:
                    continue
                row, weights, rest = sums[p], self.u[p], key ^ bit
                for role, n in self.count.items():
                    x = self.without[role].get(rest, 0.0)
                    if x:
                        row[role] = row.get(role, 0.0) + w * n * weights[role] * x
        return total
