"""The belief's factored engine: the same posterior as `belief_brute`, summed smartly.

An assignment splits into the non-Station part (which players are the Ring, which is the
Defector, and who holds each Ring role) and the Station part (which Station role each other
player holds). Votes, stances and whispers see factions only; results, deaths and most claims
see one player's role; so the sum runs over the faction placements (the Ring set R and the
Defector d), and for each one multiplies
- the pair factors of that placement (`belief_pairs`),
- a sum over the Ring roles within R (at most 3! terms),
- the Station permanent of the others: every way to deal the Station roles to them, summed
  for every subset at once by one dynamic programme over subsets (`belief_subsets`).
A claim whose truth depends on other players' roles (a reading of a player whose role is
unknown) couples its author's role with the placement; the engine then conditions on who holds
each such claimed Station role (the Analyst, say), which leaves every claim a function of the
placement alone, and sums the branches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, permutations

from deaddrop.bots.station.belief_evidence import Evidence
from deaddrop.bots.station.belief_factors import (
    RINGLEADER,
    Content,
    Marginals,
    Posterior,
    VisitFact,
    Weights,
    content_factor,
    honest_weight,
    lie_weight,
    visit_weight,
)
from deaddrop.bots.station.belief_pairs import FactionPairs, fold_pairs
from deaddrop.bots.station.belief_subsets import StationDeal
from deaddrop.bots.station.likelihood import NEUTRAL, RING, STATION, faction_of_label, label
from deaddrop.engine.station.roles import FACTION

RingDeals = list[tuple[float, tuple[str, ...]]]
"""Each way to deal the Ring roles to a Ring set: (product of unary weights, roles)."""


def exact_posterior(ev: Evidence) -> Posterior:
    """The exact posterior of the evidence."""
    roles = sorted(set(ev.pool))
    u = {p: {r: ev.unary.get(p, {}).get(r, 1.0) for r in roles} for p in ev.unknown}
    variable = _fold_contents(ev, u)
    visits = _fold_visits(ev, u)
    claimants: dict[str, set[str]] = {}
    for c in variable:
        if c.honest_possible and c.role in roles and label(c.role) == STATION:
            # only Analyst, Watcher and Shadow claims see others' roles; S1 deals each once
            assert ev.pool.count(c.role) == 1, c.role
            claimants.setdefault(c.role, set()).add(c.author)
    sums: Marginals = {p: dict.fromkeys(roles, 0.0) for p in ev.unknown}
    rings: dict[frozenset[str], float] = {}
    fixed_ring = frozenset(c for c, r in ev.fixed.items() if FACTION[r].value == RING)
    total = 0.0
    for holders, barred in _branches(claimants, u):
        weight = 1.0
        for p, r in holders.items():
            weight *= u[p][r]
        branch = _Branch(ev, u, holders, barred, variable, visits)
        z, part = branch.posterior()
        if z == 0.0:
            continue
        for ring, x in branch.ring_sets.items():
            key = fixed_ring | ring
            rings[key] = rings.get(key, 0.0) + weight * x
        total += weight * z
        for p, r in holders.items():
            sums[p][r] += weight * z
        for p, row in part.items():
            for r, x in row.items():
                sums[p][r] += weight * x
    if total == 0.0:
        raise ValueError("no assignment fits this seat's hard facts")
    out: Marginals = {c: {r: 1.0} for c, r in ev.fixed.items()}
    for p, row in sums.items():
        out[p] = {r: x / total for r, x in row.items() if x > 0.0}
    return Posterior(out, {ring: x / total for ring, x in rings.items() if x > 0.0})


Branch = tuple[dict[str, str], list[tuple[str, str]]]


def _branches(claimants: Mapping[str, set[str]], u: Weights) -> list[Branch]:
    """Who holds each coupled Station role: one of its claimants, or (barring them all) someone
    else; each such role is dealt once (S1), and a player holds one role."""
    branches: list[Branch] = [({}, [])]
    for role, authors in sorted(claimants.items()):
        grown: list[Branch] = []
        for holders, barred in branches:
            grown.append((holders, barred + [(a, role) for a in sorted(authors)]))
            for a in sorted(authors):
                if a not in holders and u[a][role] > 0.0:
                    grown.append((holders | {a: role}, barred))
        branches = grown
    return branches


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


def _fold_visits(ev: Evidence, u: Weights) -> list[VisitFact]:
    """Visits that name one player of unknown role become unary weights on them (none: a
    constant, 1 in any game that happened); the rest stay, coupled with the placement."""
    coupled: list[VisitFact] = []
    for v in ev.visits:
        open_ = [p for p in v.players if p not in ev.fixed]
        if len(open_) > 1:
            coupled.append(v)
            continue
        known = {p: label(r) for p, r in ev.fixed.items()}
        if not open_ and visit_weight(v, tuple(known[p] for p in v.players), ev.model) == 0.0:
            raise ValueError("no assignment fits this seat's hard facts")
        for p in open_:
            row = u[p]
            for r in row:
                labels = tuple(known.get(q, label(r)) for q in v.players)
                row[r] *= visit_weight(v, labels, ev.model)
    return coupled


class _Branch:
    """The sum over every assignment in which `holders` hold their roles."""

    def __init__(
        self,
        ev: Evidence,
        u: Weights,
        holders: Mapping[str, str],
        barred: Sequence[tuple[str, str]],
        variable: Sequence[Content],
        visits: Sequence[VisitFact],
    ) -> None:
        self.ev, self.holders, self.variable = ev, holders, variable
        self.coupled = bool(variable or visits)
        self.players = tuple(p for p in ev.unknown if p not in holders)
        station = dict.fromkeys(holders, STATION)
        self.known_labels = {c: label(r) for c, r in ev.fixed.items()} | station
        self.u = {p: dict(u[p]) for p in self.players}
        for p, r in barred:
            if p in self.u:
                self.u[p][r] = 0.0  # this branch's holder of r is someone else
        pairs, self.certain = fold_pairs(ev, self.u, station)
        self.pairs = FactionPairs(pairs, self.players)
        pool = list(ev.pool)
        for r in holders.values():
            pool.remove(r)
        self.ring_roles = tuple(r for r in sorted(set(pool)) if FACTION[r].value == RING)
        self.defector = "defector" in pool
        slots = tuple(r for r in pool if label(r) == STATION)
        self.deal = StationDeal(self.players, slots, self.u)
        named = {c.author for c in variable} | {t for c in variable for t in c.targets}
        self.named = tuple(sorted(named - set(self.known_labels)))
        self.named_set = frozenset(self.named)
        """The players of unknown label whom the coupled claims name (authors and targets)."""
        self.visits = _RingleaderVisits(visits, ev, self.known_labels)
        self.claim_memo: dict[tuple[str, ...], float] = {}
        self.ring_sets: dict[frozenset[str], float] = {}
        """The weight of each Ring set (its unknown members) in this branch."""

    def posterior(self) -> tuple[float, Weights]:
        """The branch's total weight and each player's unnormalised role weights."""
        sums: Weights = {p: {} for p in self.players}
        total = 0.0
        for ring in combinations(self.players, len(self.ring_roles)):
            terms, inner = self._ring_terms(ring)
            if inner and self._has_ring(ring):
                total += self._ring_set(ring, terms, inner, sums)
        self.deal.add_shares(sums)
        for row in sums.values():
            for r in row:
                row[r] *= self.certain
        return total * self.certain, sums

    def _ring_set(
        self,
        ring: tuple[str, ...],
        terms: RingDeals,
        inner: float,
        sums: Weights,
    ) -> float:
        """The weight of every placement whose Ring is this set; adds its role weights.

        The coupled claims depend on the Defector's identity only when they name them, so for
        every other Defector the Ring role deals weigh the same: summed once per Ring set."""
        deal, pairs = self.deal, self.pairs
        unary_terms = terms
        if self.coupled:
            visits = self.visits.factor
            terms = [
                (tw * self._claims(ring, roles, None) * visits(ring, roles, None), roles)
                for tw, roles in terms
            ]
            inner = sum(tw for tw, _ in terms)
        placed = dict.fromkeys(ring, RING)
        w_ring = pairs.weight(placed)
        rest = deal.full ^ deal.mask(ring)
        ring_weight = ring_total = 0.0
        guards = self.visits.guards_of(ring)
        for d in [p for p in self.players if p not in placed] if self.defector else [None]:
            w, station_mask = w_ring, rest
            if d is not None:
                w *= self.u[d]["defector"] * pairs.added(placed, d, NEUTRAL)
                station_mask ^= deal.bit[d]
            station = deal.perm_of(station_mask)
            if w == 0.0 or station == 0.0:
                continue
            if d is not None and (d in self.named_set or d in guards):
                x = self._coupled(ring, unary_terms, d, w, station, sums)
            else:
                x = w * inner
                ring_weight += x * station
            if d is not None:
                sums[d]["defector"] = sums[d].get("defector", 0.0) + x * station
            deal.weigh(station_mask, x)
            ring_total += x * station
        if ring_total:
            self.ring_sets[frozenset(ring)] = ring_total * self.certain
        if ring_weight:
            for tw, roles in terms:
                for p, r in zip(ring, roles, strict=True):
                    sums[p][r] = sums[p].get(r, 0.0) + ring_weight * tw / inner
        return ring_total

    def _has_ring(self, ring: Sequence[str]) -> bool:
        """S18: every victim's watched visitors hold a Ring member."""
        labels = self.known_labels
        return all(
            any(c in ring or faction_of_label(labels.get(c, STATION)) == RING for c in group)
            for group in self.ev.any_ring
        )

    def _coupled(
        self,
        ring: tuple[str, ...],
        terms: RingDeals,
        d: str,
        w: float,
        station: float,
        sums: Weights,
    ) -> float:
        """A placement's weight over its Ring role deals when its Defector weighs (named by the
        claims, or a guard of its Ringleader's visits);
        adds the Ring players' role weights."""
        placed_total = 0.0
        for inner, roles in terms:
            x = w * inner * self._claims(ring, roles, d) * self.visits.factor(ring, roles, d)
            placed_total += x
            for p, r in zip(ring, roles, strict=True):
                sums[p][r] = sums[p].get(r, 0.0) + x * station
        return placed_total

    def _ring_terms(self, ring: tuple[str, ...]) -> tuple[RingDeals, float]:
        """(product of unary weights, roles) for each way to deal the Ring roles within R, and
        their sum."""
        terms = []
        for roles in permutations(self.ring_roles):
            w = 1.0
            for p, r in zip(ring, roles, strict=True):
                w *= self.u[p][r]
            if w:
                terms.append((w, roles))
        return terms, sum(w for w, _ in terms)

    def _claims(self, ring: tuple[str, ...], roles: tuple[str, ...], d: str | None) -> float:
        """The coupled claims' factors, now functions of the placement alone (memoised on the
        labels of the few players they name)."""
        placed = dict(zip(ring, roles, strict=True))
        if d is not None:
            placed[d] = "defector"
        key = tuple(placed.get(p, STATION) for p in self.named)
        w = self.claim_memo.get(key)
        if w is None:
            w = self.claim_memo[key] = self._claims_of(dict(zip(self.named, key, strict=True)))
        return w

    def _claims_of(self, named: Mapping[str, str]) -> float:
        """The coupled claims' factors when the players they name have these labels."""
        labels = {**self.known_labels, **named}
        w = 1.0
        m = self.ev.model
        for c in self.variable:
            targets = tuple(labels[t] for t in c.targets)
            author = labels[c.author]
            holds = self.holders.get(c.author) == c.role or author == c.role
            if c.honest_possible and holds:
                w *= honest_weight(c, targets, m)
            else:
                w *= lie_weight(c, faction_of_label(author), targets, m)
        return w


class _RingleaderVisits:
    """The coupled visits as a factor of a placement. Only the Ringleader's own visits weigh
    (`visit_weight`: anyone else's weighs 1, S12), so they are indexed by visitor, and the
    Defector's identity matters only as a guard of its Ringleader's visit (S17, S18)."""

    def __init__(
        self, visits: Sequence[VisitFact], ev: Evidence, known_labels: Mapping[str, str]
    ) -> None:
        self.by_visitor: dict[str, list[VisitFact]] = {}
        for v in visits:
            self.by_visitor.setdefault(v.visitor, []).append(v)
        self.fixed_rl = next((c for c, r in ev.fixed.items() if r == RINGLEADER), None)
        self.known_labels, self.model = known_labels, ev.model
        self.guards = {
            p: frozenset(g for v in vs if v.survived for g in v.guards or ())
            for p, vs in self.by_visitor.items()
        }
        self.memo: dict[tuple[tuple[str, ...], str, str | None], float] = {}
        """(Ring, its Ringleader, the Defector if a guard) -> factor: the labels the visits see
        are the Ring's faction and the Defector's, never which Ring role a visited or guard
        holds."""

    def guards_of(self, ring: Sequence[str]) -> frozenset[str]:
        """The guards of the visits of every player who may be the Ringleader of this Ring."""
        out = self.guards.get(self.fixed_rl or "", frozenset())
        for p in ring:
            out |= self.guards.get(p, frozenset())
        return out

    def factor(self, ring: Sequence[str], roles: Sequence[str], d: str | None) -> float:
        """The visits' factor when these Ring players hold these roles and d is the Defector."""
        placed = dict(zip(ring, roles, strict=True))
        rl = next((p for p, r in placed.items() if r == RINGLEADER), self.fixed_rl)
        facts = self.by_visitor.get(rl or "")
        if rl is None or not facts:
            return 1.0
        d = d if d in self.guards[rl] else None
        key = (tuple(ring), rl, d)
        w = self.memo.get(key)
        if w is None:
            if d is not None:
                placed[d] = "defector"
            known = self.known_labels
            w = 1.0
            for v in facts:
                labels = tuple(placed.get(p) or known.get(p, STATION) for p in v.players)
                w *= visit_weight(v, labels, self.model)
            self.memo[key] = w
        return w
