"""The factors of the Station belief: claims' honest and lying weights, pairs of factions.

Shared by both engines, so they weigh each assignment by the very same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from deaddrop.bots.station.likelihood import RING, STATION, Likelihood, faction_of_label
from deaddrop.engine.station.roles import FACTION, TARGETING, Targeting

FRAMEABLE_COMPROMISED = frozenset({"forger", "honeytrap"})
"""S19: the roles an unframed reading shows COMPROMISED (the Ringleader reads CLEAR)."""

RINGLEADER = "ringleader"

SELF_VISITORS = frozenset(r for r, t in TARGETING.items() if t is Targeting.ANY)
"""S9, S13: the roles whose visit may land on themselves."""


Marginals = dict[str, dict[str, float]]
"""Each player's probability of each role."""
Weights = dict[str, dict[str, float]]
"""Each player's unnormalised weight of each role (the engines' sums before the total)."""


class Posterior(NamedTuple):
    """What an engine sums: each player's role marginals, and the law of the Ring's members."""

    roles: Marginals
    """Codename -> role -> probability (roles of probability 0 left out)."""
    ring_sets: dict[frozenset[str], float]
    """The set of every Ring member (burned ones too) -> probability."""


@dataclass(frozen=True, slots=True)
class Pair:
    """Soft evidence between two players' factions: `table[(faction of a, faction of b)]`."""

    a: str
    b: str
    table: Mapping[tuple[str, str], float]


@dataclass(frozen=True, slots=True)
class Content:
    """A claim by a player whose role is unknown: honest only if the author holds `role`.

    kind: "const" (its truth is `truth`, known now), "clear"/"compromised" (a reading of
    targets[0]), "any_ring" (the victim's visitors include the performer), "victim_visit"
    (targets[0] visited the night's victim).
    """

    author: str
    role: str
    kind: str
    targets: tuple[str, ...] = ()
    truth: float = 1.0
    refuted: bool = False
    """Its content is false by public facts or its own terms (the author is a liar)."""
    honest_possible: bool = True
    """False for a liar's claims, which weigh as lies whatever the author's role."""


@dataclass(frozen=True, slots=True)
class VisitFact:
    """A visit this seat saw (S13) whose meaning hangs on the labels of the players it names.

    `visited` None: `visitor` stayed home (a Shadow result). Else `visitor` visited `visited`
    at Day `day`'s Pouch; `survived`: `visited` was not liquidated at it; `guards`: the other
    visitors of `visited` when a Watcher saw them all (S19), None when unseen (a Shadow result).
    """

    visitor: str
    visited: str | None
    day: int
    survived: bool = True
    guards: tuple[str, ...] | None = None

    @property
    def players(self) -> tuple[str, ...]:
        """The players whose labels weigh this fact: the visitor first."""
        rest = () if self.visited is None else (self.visited, *(self.guards or ()))
        return (self.visitor, *rest)


def visit_weight(v: VisitFact, labels: tuple[str, ...], model: Likelihood) -> float:
    """A seen visit's factor, given the labels of `v.players` (see `likelihood`).

    The Ringleader has no ability of its own (S9) and files no order on Day 1 (S10): its only
    visit is as the performer of a liquidation (S12, S13), whose target is never Ring (S10); a
    target who survived it was sheltered or detained (S14, S17, S18), by a Station player whose
    visit the Watcher then saw too. A player who stayed home is likelier the order-holder, who
    stays home when it names another performer (S12), than a role with an ability to use."""
    if v.visited is None:
        return 1.0 if labels[0] == RINGLEADER else model.stay_home
    if labels[0] != RINGLEADER:
        return 1.0
    if v.day == 1 or faction_of_label(labels[1]) == RING:
        return 0.0
    if v.survived and v.guards is not None and STATION not in labels[2:]:
        return 0.0
    return 1.0


def honest_weight(c: Content, labels: tuple[str, ...], model: Likelihood) -> float:
    """The weight of a claim made by an author who holds its role, given the targets' labels."""
    if c.kind == "const":
        return c.truth
    if c.kind == "clear":
        return model.slip if labels[0] in FRAMEABLE_COMPROMISED else 1.0 - model.frame_rate
    if c.kind == "compromised":
        return 1.0 if labels[0] in FRAMEABLE_COMPROMISED else model.frame_rate
    if c.kind == "any_ring":
        return 1.0 if any(faction_of_label(x) == RING for x in labels) else model.slip
    return 1.0 if faction_of_label(labels[0]) == RING else model.victim_visit


def lie_weight(c: Content, faction: str, labels: tuple[str, ...], model: Likelihood) -> float:
    """The weight of a claim its author's role cannot back, by the author's faction."""
    weight = model.lie[faction]
    if faction == RING and c.kind in ("clear", "compromised"):
        ring_target = faction_of_label(labels[0]) == RING
        if ring_target != (c.kind == "clear"):
            weight *= model.ring_off_story  # off the Ring's story: it clears its own
    return weight


def content_factor(c: Content, author_role: str, labels: tuple[str, ...], m: Likelihood) -> float:
    """A claim's factor for one assignment: honest branch or lie branch."""
    if c.honest_possible and author_role == c.role:
        return honest_weight(c, labels, m)
    return lie_weight(c, FACTION[author_role].value, labels, m)
