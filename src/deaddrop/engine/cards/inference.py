"""Exact deduction for one seat: the posterior over The Drop and the hidden hands (C12, C13).

From a seat's view alone (never the state) `belief_from_view(view)` gives the exact posterior
over the current round's hidden configuration: The Drop's value and the multiset in every
hand (`Config = (drop, hands)`, hands by seat; the seat's own hand and the face-up hands of
eliminated seats are known and the same in every configuration).

The model
---------
- The deal (C2): every shuffle of the 13 cards (C1) is equally likely, so given the seat's
  dealt hand and The Stash a configuration weighs the number of shuffles that give it (a
  multinomial count per card value).
- The seat's own choices have probability 1; the answer to its own sale is the truth about
  the buyer's hand (C7), and so is a buyer's card of the sum.
- Other seats' choices, `UNIFORM` (the default): each decision is uniformly random among that
  seat's distinct legal options at that moment, as `legal.legal_actions` lists them: the main
  action (Share Info, Swap the Stash, Sell Secrets, C4–C7), the card a Share Info target
  gives (C4, also when this seat is the mover), the card a seller hands back (C7), and
  Grab-or-End-Turn (C8). The likelihood of what the seat sees is (options consistent with
  it) / (all options), given the hidden hands. Exact for random players.
- Other seats' choices, `CONSISTENT`: a choice this seat sees (a swap, a face-up trade, the
  card offered to it or given to it, the pair it is shown, a grab, an End Turn) only has to
  be legal for the hidden hand (likelihood 1 or 0: C13's "deals consistent with the view");
  a choice it cannot see (the cards of a trade between two others, the pair shown in their
  sale and the card handed back) is uniform over its options (the card offered to this seat
  counts as unseen until its own answer shows it). Players who choose with a purpose rather
  than at random (they rarely grab, keep pairs) make the uniform likelihoods of seen choices
  pile up over a long round into confident mistakes; this model does not.

Forward filtering over distinct configurations keeps this exact and small (at most a few
hundred configurations: equal values are interchangeable). Decisions that leave no entry in
the seat's log (a third party's Give Card or Hand Back, any End Turn) are folded in once a
later entry, or the view's `pending`, shows they were taken (`settle`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import log2
from types import MappingProxyType
from typing import Any

from deaddrop.engine.cards.inference_filter import Tracker
from deaddrop.engine.cards.inference_model import CONSISTENT, MODELS, UNIFORM, Deferred
from deaddrop.engine.cards.inference_prior import Config, Hand
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.records import record

__all__ = [
    "CONSISTENT",
    "MODELS",
    "UNIFORM",
    "Belief",
    "Config",
    "Hand",
    "belief_from_view",
    "drop_distribution",
    "drop_entropy",
    "empty_belief",
    "hand_distribution",
    "joint_drop_hand",
    "pair_success",
    "round_entries",
    "settle",
    "update",
]


@record
class Belief:
    """A seat's exact posterior over the current round's hidden configuration; immutable."""

    seat: int
    """The seat whose knowledge this is."""
    players: int
    """Seats at the table."""
    probs: Mapping[Config, float]
    """Probability of each configuration (read-only); empty before the first deal."""
    stash: Hand
    """The Stash now (public)."""
    eliminated: tuple[int, ...]
    """Seats out of the round, in the order they fell (public)."""
    queue: tuple[Deferred, ...] = ()
    """Hidden decisions due but not yet shown to have been taken."""
    show: tuple[int, int] | None = None
    """The two cards of a sale this seat is party to, until its answer."""
    hidden_grab: int | None = None
    """A seat whose failed grab was face down, until its hand goes face up."""
    model: str = UNIFORM
    """The model of other seats' choices: UNIFORM or CONSISTENT."""


def empty_belief(seat: int, players: int, model: str = UNIFORM) -> Belief:
    """A belief before any deal; `update` it with log entries from a `deal` on."""
    if model not in MODELS:
        raise IllegalAction("C13", f"unknown model {model!r}: one of {', '.join(MODELS)}")
    return Belief(seat, players, MappingProxyType({}), (), (), model=model)


def _tracker(belief: Belief) -> Tracker:
    return Tracker(
        belief.seat,
        belief.players,
        belief.model,
        dict(belief.probs),
        belief.stash,
        belief.eliminated,
        belief.queue,
        belief.show,
        belief.hidden_grab,
    )


def _snapshot(tracker: Tracker) -> Belief:
    return Belief(
        tracker.seat,
        tracker.players,
        MappingProxyType(tracker.weights),
        tracker.stash,
        tracker.eliminated,
        tuple(tracker.queue),
        tracker.show,
        tracker.hidden_grab,
        tracker.model,
    )


def update(belief: Belief, entries: Iterable[Mapping[str, Any]]) -> Belief:
    """The belief after more log entries of the seat's view, in order (a `deal` starts afresh)."""
    tracker = _tracker(belief)
    for entry in entries:
        tracker.feed(entry)
    return _snapshot(tracker)


def settle(belief: Belief, pending: Mapping[str, Any] | None) -> Belief:
    """The belief once the view's `pending` shows which queued hidden decisions were taken."""
    if not belief.queue:
        return belief
    tracker = _tracker(belief)
    tracker.settle(pending)
    return _snapshot(tracker)


def round_entries(log: Sequence[Mapping[str, Any]]) -> Sequence[Mapping[str, Any]]:
    """The log entries of the current round: from its `deal` on."""
    for index in range(len(log) - 1, -1, -1):
        if log[index]["kind"] == "deal":
            return log[index:]
    return []


def belief_from_view(view: Mapping[str, Any], model: str = UNIFORM) -> Belief:
    """C13: the exact posterior of the viewing seat, from its view alone, under a model."""
    seat = view["viewer"]
    if seat is None:
        raise IllegalAction("C13", "deduction is for a seat, not a spectator")
    belief = update(empty_belief(seat, view["players"], model), round_entries(view["log"]))
    return settle(belief, view["pending"])


def drop_distribution(belief: Belief) -> dict[int, float]:
    """P(The Drop = value) for each possible value."""
    out: dict[int, float] = {}
    for (drop, _), p in belief.probs.items():
        out[drop] = out.get(drop, 0.0) + p
    return dict(sorted(out.items()))


def hand_distribution(belief: Belief, seat: int) -> dict[Hand, float]:
    """P(seat's hand = multiset) for each possible sorted hand."""
    out: dict[Hand, float] = {}
    for (_, hands), p in belief.probs.items():
        out[hands[seat]] = out.get(hands[seat], 0.0) + p
    return out


def joint_drop_hand(belief: Belief, seat: int) -> dict[tuple[int, Hand], float]:
    """P(The Drop = d and seat's hand = h) for each (d, h)."""
    out: dict[tuple[int, Hand], float] = {}
    for (drop, hands), p in belief.probs.items():
        key = (drop, hands[seat])
        out[key] = out.get(key, 0.0) + p
    return out


def pair_success(belief: Belief, pair: tuple[int, int]) -> float:
    """C8: the chance that grabbing with this pair matches The Drop."""
    total = pair[0] + pair[1]
    return sum(p for (drop, _), p in belief.probs.items() if drop == total)


def drop_entropy(distribution: Mapping[int, float]) -> float:
    """The Shannon entropy (bits) of a distribution over The Drop."""
    return -sum(p * log2(p) for p in distribution.values() if p > 0.0)
