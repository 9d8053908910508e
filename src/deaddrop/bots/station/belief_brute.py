"""The belief's reference: a plain enumeration of every full assignment, each weighed by the
product of all its factors computed directly. Slow (9! assignments at ten), exact, obvious:
the check of the factored engine (`belief_exact`), never used to play.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from deaddrop.bots.station.belief_evidence import Evidence
from deaddrop.bots.station.belief_factors import (
    Marginals,
    Posterior,
    content_factor,
    visit_weight,
)
from deaddrop.bots.station.likelihood import RING, label
from deaddrop.engine.station.roles import FACTION


def deals(pool: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """Every distinct ordering of a multiset of roles, each once."""
    if not pool:
        yield ()
        return
    for role in sorted(set(pool)):
        rest = list(pool)
        rest.remove(role)
        for tail in deals(rest):
            yield (role, *tail)


def weight(ev: Evidence, roles: dict[str, str]) -> float:
    """The likelihood of one full assignment: the product of every factor."""
    w = 1.0
    for codename in ev.unknown:
        w *= ev.unary.get(codename, {}).get(roles[codename], 1.0)
    for pair in ev.pairs:
        w *= pair.table[(FACTION[roles[pair.a]].value, FACTION[roles[pair.b]].value)]
    for group in ev.any_ring:
        if not any(FACTION[roles[c]].value == RING for c in group):
            return 0.0
    for c in ev.contents:
        labels = tuple(label(roles[t]) for t in c.targets)
        w *= content_factor(c, roles[c.author], labels, ev.model)
    for v in ev.visits:
        w *= visit_weight(v, tuple(label(roles[p]) for p in v.players), ev.model)
    return w


def brute_posterior(ev: Evidence) -> Posterior:
    """The posterior, by summing over every assignment."""
    sums: Marginals = {c: {} for c in ev.codenames}
    rings: dict[frozenset[str], float] = {}
    total = 0.0
    for deal in deals(ev.pool):
        roles = dict(ev.fixed)
        roles.update(zip(ev.unknown, deal, strict=True))
        w = weight(ev, roles)
        if w == 0.0:
            continue
        total += w
        for codename, role in roles.items():
            sums[codename][role] = sums[codename].get(role, 0.0) + w
        ring = frozenset(c for c, r in roles.items() if FACTION[r].value == RING)
        rings[ring] = rings.get(ring, 0.0) + w
    if total == 0.0:
        raise ValueError("no assignment fits this seat's hard facts")
    return Posterior(
        {c: {r: w / total for r, w in row.items()} for c, row in sums.items()},
        {ring: w / total for ring, w in rings.items()},
    )
