"""The expert's belief (issue 12): one seat's exact posterior over the hidden role assignment.

The prior is the deal (S1, S4): every distinct assignment of the table's roles consistent with
what the seat is sure of (its own role, its Ring mates' S5, every role after S26) is equally
likely. The evidence (`belief_evidence`) prunes by hard facts and weighs by the likelihood
model written down in `likelihood`. A claim that no assignment fitting the seat's hard facts
lets its author make honestly marks the author a liar, and all that liar's claims then weigh
as lies. `belief_exact` sums the posterior; `belief_brute` checks it by brute force.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from deaddrop.bots.station.belief_evidence import Evidence, evidence
from deaddrop.bots.station.belief_exact import exact_posterior
from deaddrop.bots.station.belief_factors import (
    FRAMEABLE_COMPROMISED,
    Content,
    Marginals,
    Posterior,
)
from deaddrop.bots.station.known import Known
from deaddrop.bots.station.likelihood import DEFAULT, RING, Likelihood
from deaddrop.engine.station.roles import FACTION

Engine = Callable[[Evidence], Posterior]


@dataclass(frozen=True, slots=True)
class Belief:
    """A seat's exact posterior over the hidden role assignment, as marginals."""

    roles: Mapping[str, Mapping[str, float]]
    """Codename -> role -> probability; each sums to 1; own seat and known Ring mates certain."""
    liars: frozenset[str]
    """Authors of a claim contradicted by hard evidence this seat holds."""
    ring_sets: Mapping[frozenset[str], float] = field(default_factory=dict)
    """The set of all the Ring's members (burned ones too) -> probability: joint queries."""

    def p_role(self, codename: str, role: str) -> float:
        """The probability that this player holds this role."""
        return self.roles[codename].get(role, 0.0)

    def p_faction(self, codename: str, faction: str) -> float:
        """The probability that this player is of this faction: station, ring or neutral."""
        return sum(p for r, p in self.roles[codename].items() if FACTION[r].value == faction)

    def p_all_ring(self, codenames: Iterable[str]) -> float:
        """The probability that every one of these players is Ring (jointly, not one by one)."""
        wanted = frozenset(codenames)
        return sum(p for ring, p in self.ring_sets.items() if wanted <= ring)


def belief_of(known: Known, model: Likelihood = DEFAULT) -> Belief:
    """The seat's exact belief from its Known (read from its view and posts, S42)."""
    return belief_with(known, model, exact_posterior)


def belief_with(known: Known, model: Likelihood, engine: Engine) -> Belief:
    """The belief summed by a given engine (the exact one, or the brute force that checks it).

    Every soft factor is positive (`Likelihood` checks it), so the posterior rules out exactly
    what the hard facts rule out, whatever weight the claims get: its support finds the liars.
    The sum starts with the liars plain on the face of the evidence and is done again only if
    its support shows more.
    """
    ev = evidence(known, model)
    claims = ev.contents
    plain = plain_liars(ev)
    if plain:
        ev = evidence(known, model, plain)
    posterior = engine(ev)
    liars = plain | find_liars(claims, posterior.roles)
    if liars != plain:
        posterior = engine(evidence(known, model, liars))
    return Belief(posterior.roles, liars, posterior.ring_sets)


def plain_liars(ev: Evidence) -> frozenset[str]:
    """Liars the evidence shows without a sum: a refuted claim, two roles claimed, or a role
    the author's own hard facts (S23 faction, S14 interrogation) or the deal (S1: all its
    copies held by players of known role) rule out."""
    found: set[str] = set()
    roles: dict[str, set[str]] = {}
    for c in ev.contents:
        roles.setdefault(c.author, set()).add(c.role)
        if c.refuted or c.role not in ev.pool or ev.unary.get(c.author, {}).get(c.role) == 0.0:
            found.add(c.author)
    found.update(a for a, claimed in roles.items() if len(claimed) > 1)
    return frozenset(found)


def find_liars(contents: Iterable[Content], support: Marginals) -> frozenset[str]:
    """Authors of a claim no assignment that fits the hard facts lets them make honestly: a
    role they cannot hold, two roles, a content false on its face, a CLEAR reading of a
    certain Forger or Honeytrap (S19), a victim's visitors none of whom can be the Ring (S18)."""
    found: set[str] = set()
    roles: dict[str, set[str]] = {}
    for c in contents:
        roles.setdefault(c.author, set()).add(c.role)
        if (
            c.refuted
            or support[c.author].get(c.role, 0.0) == 0.0
            or (c.kind == "clear" and _p_other(support, c.targets[0]) == 0.0)
            or (c.kind == "any_ring" and all(_p_ring(support, t) == 0.0 for t in c.targets))
        ):
            found.add(c.author)
    found.update(a for a, claimed in roles.items() if len(claimed) > 1)
    return frozenset(found)


def _p_other(support: Marginals, codename: str) -> float:
    """P(a player is neither Forger nor Honeytrap), under the hard facts."""
    return sum(p for r, p in support[codename].items() if r not in FRAMEABLE_COMPROMISED)


def _p_ring(support: Marginals, codename: str) -> float:
    """P(a player is Ring), under the hard facts."""
    return sum(p for r, p in support[codename].items() if FACTION[r].value == RING)
