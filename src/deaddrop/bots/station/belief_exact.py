"""The belief's factored engine: the same posterior as `belief_brute`, summed smartly.

An assignment splits into the non-Station part (who holds each Ring role and the Defector) and
the Station part (which Station role each other player holds). Every factor but a claim whose
truth depends on other players is either unary (one player's role) or a pair of factions; so
for each non-Station placement the Station part is a permanent of per-player weights, computed
with its marginals by a forward-backward sum over subsets and cached by the Station players and
the few claim weights that depend on the placement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations

from deaddrop.bots.station.belief_evidence import Evidence
from deaddrop.bots.station.belief_factors import Content, content_factor, honest_weight, lie_weight
from deaddrop.bots.station.likelihood import RING, STATION, faction_of_label, label
from deaddrop.engine.station.roles import FACTION

Marginals = dict[str, dict[str, float]]
Weights = dict[str, dict[str, float]]
Signature = tuple[tuple[str, str | None, float, float], ...]
"""Per claim of a Station-labelled author: (author, role it backs or None, honest, lie)."""


def exact_posterior(ev: Evidence) -> Marginals:
    """codename -> role -> probability: the exact posterior of the evidence."""
    roles = sorted(set(ev.pool))
    outer = [r for r in roles if label(r) != STATION]
    slots = tuple(r for r in ev.pool if label(r) == STATION)
    u = {p: {r: ev.unary.get(p, {}).get(r, 1.0) for r in roles} for p in ev.unknown}
    pairs = _fold_pairs(ev, u)
    variable = _fold_contents(ev, u)
    sums: Marginals = {p: dict.fromkeys(roles, 0.0) for p in ev.unknown}
    factions: dict[tuple[frozenset[str], str | None], float] = {}
    stations: dict[tuple[tuple[str, ...], Signature], tuple[float, Weights]] = {}
    total = 0.0
    for chosen in permutations(ev.unknown, len(outer)):
        w = 1.0
        for p, r in zip(chosen, outer, strict=True):
            w *= u[p][r]
        if w == 0.0:
            continue
        placed = dict(zip(chosen, outer, strict=True))
        ring = frozenset(p for p, r in placed.items() if FACTION[r].value == RING)
        defector = next((p for p, r in placed.items() if r == "defector"), None)
        key = (ring, defector)
        if key not in factions:
            factions[key] = _faction_weight(ev, pairs, ring, defector)
        w *= factions[key]
        if w == 0.0:
            continue
        w, signature = _variable_weight(ev, variable, placed, w)
        rest = tuple(p for p in ev.unknown if p not in placed)
        skey = (rest, signature)
        if skey not in stations:
            stations[skey] = station_permanent(rest, slots, _signed(u, rest, signature, slots))
        perm, shares = stations[skey]
        w *= perm
        if w == 0.0:
            continue
        total += w
        for p, r in placed.items():
            sums[p][r] += w
        for p in rest:
            row = sums[p]
            for r, share in shares[p].items():
                row[r] += w * share
    if total == 0.0:
        raise ValueError("no assignment fits this seat's hard facts")
    out: Marginals = {c: {r: 1.0} for c, r in ev.fixed.items()}
    for p, row in sums.items():
        out[p] = {r: x / total for r, x in row.items() if x > 0.0}
    return out


PairTable = dict[tuple[str, str], float]


def _fold_pairs(ev: Evidence, u: Weights) -> dict[tuple[str, str], PairTable]:
    """Pairs with a fixed player become unary weights; the others multiply by player pair."""
    agg: dict[tuple[str, str], PairTable] = {}
    for pair in ev.pairs:
        a_fixed, b_fixed = pair.a in ev.fixed, pair.b in ev.fixed
        if a_fixed and b_fixed:
            continue  # the same for every assignment
        if a_fixed or b_fixed:
            other = pair.b if a_fixed else pair.a
            known = FACTION[ev.fixed[pair.a if a_fixed else pair.b]].value
            for r in u[other]:
                f = FACTION[r].value
                u[other][r] *= pair.table[(known, f) if a_fixed else (f, known)]
            continue
        table = agg.setdefault((pair.a, pair.b), {k: 1.0 for k in pair.table})
        for k, x in pair.table.items():
            table[k] *= x
    return agg


def _faction_weight(
    ev: Evidence,
    pairs: Mapping[tuple[str, str], PairTable],
    ring: frozenset[str],
    defector: str | None,
) -> float:
    """The factors that see only factions: pairs, and the sets holding a Ring member (S18)."""
    for group in ev.any_ring:
        if not group & ring and not any(
            c in ev.fixed and FACTION[ev.fixed[c]].value == RING for c in group
        ):
            return 0.0
    w = 1.0
    for (a, b), table in pairs.items():
        w *= table[(_faction(a, ring, defector), _faction(b, ring, defector))]
    return w


def _faction(p: str, ring: frozenset[str], defector: str | None) -> str:
    """An unknown player's faction under a placement."""
    return RING if p in ring else "neutral" if p == defector else STATION


def _fold_contents(ev: Evidence, u: Weights) -> list[Content]:
    """Claims whose targets are all fixed become unary weights on the author; the rest stay."""
    variable: list[Content] = []
    for c in ev.contents:
        if all(t in ev.fixed for t in c.targets):
            labels = tuple(label(ev.fixed[t]) for t in c.targets)
            row = u[c.author]
            for r in row:
                row[r] *= content_factor(c, r, labels, ev.model)
        else:
            variable.append(c)
    return variable


def _variable_weight(
    ev: Evidence, variable: Sequence[Content], placed: Mapping[str, str], w: float
) -> tuple[float, Signature]:
    """Multiply in the claims of placed authors; list those of Station-labelled authors."""
    signature: list[tuple[str, str | None, float, float]] = []
    for c in variable:
        labels = tuple(
            label(ev.fixed[t]) if t in ev.fixed else placed.get(t, STATION) for t in c.targets
        )
        if c.author in placed:
            w *= content_factor(c, placed[c.author], labels, ev.model)
        else:
            backs = (
                c.role if c.honest_possible and faction_of_label(label(c.role)) == STATION else None
            )
            honest = honest_weight(c, labels, ev.model) if backs else 0.0
            signature.append((c.author, backs, honest, lie_weight(c, STATION, labels, ev.model)))
    return w, tuple(signature)


def _signed(u: Weights, rest: Sequence[str], signature: Signature, slots: Sequence[str]) -> Weights:
    """The Station players' role weights with this placement's claim weights multiplied in."""
    out = {p: {r: u[p][r] for r in set(slots)} for p in rest}
    for author, backs, honest, lie in signature:
        row = out[author]
        for r in row:
            row[r] *= honest if r == backs else lie
    return out


def station_permanent(
    players: Sequence[str], slots: Sequence[str], u: Weights
) -> tuple[float, Weights]:
    """The sum over every way to deal `slots` to `players` of the product of their weights,
    and each player's share of it by role (a forward-backward sum over subsets of players)."""
    m = len(players)
    full = (1 << m) - 1
    fwd = [0.0] * (1 << m)
    fwd[0] = 1.0
    layers: list[list[float]] = [fwd]
    for j in range(m):
        nxt = [0.0] * (1 << m)
        for mask, x in enumerate(layers[j]):
            if x == 0.0:
                continue
            for i in range(m):
                if not mask >> i & 1:
                    nxt[mask | 1 << i] += x * u[players[i]][slots[j]]
        layers.append(nxt)
    back: list[list[float]] = [[0.0] * (1 << m) for _ in range(m + 1)]
    back[m][0] = 1.0
    for j in range(m - 1, -1, -1):
        for mask in range(1 << m):
            x = 0.0
            for i in range(m):
                if mask >> i & 1:
                    x += u[players[i]][slots[j]] * back[j + 1][mask & ~(1 << i)]
            back[j][mask] = x
    perm = layers[m][full]
    shares: Weights = {p: {} for p in players}
    if perm == 0.0:
        return 0.0, shares
    for j, role in enumerate(slots):
        for mask, x in enumerate(layers[j]):
            if x == 0.0:
                continue
            for i in range(m):
                if not mask >> i & 1:
                    y = x * u[players[i]][role] * back[j + 1][full & ~mask & ~(1 << i)]
                    if y:
                        row = shares[players[i]]
                        row[role] = row.get(role, 0.0) + y / perm
    return perm, shares
