"""The models of other seats' choices, and the small pure pieces the forward filter is built of.

Two models (see `inference`'s docstring): `UNIFORM`, where every decision of another seat is
uniform over its distinct legal options (`legal.legal_actions`), and `CONSISTENT`, where a
choice this seat sees only has to be legal and a choice it cannot see is uniform.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import NamedTuple

from deaddrop.engine.cards.inference_prior import Config, Hand
from deaddrop.engine.cards.legal import distinct, pairs

UNIFORM = "uniform"
"""Every decision of another seat is uniform over its distinct legal options."""
CONSISTENT = "consistent"
"""A choice of another seat that this seat sees only has to be legal; an unseen one is uniform."""
MODELS = (UNIFORM, CONSISTENT)
"""The models `inference` knows."""

Step = Callable[[Config], Iterable[tuple[Config, float]]]
"""A transition: a configuration's successors, each with its probability."""


class Deferred(NamedTuple):
    """A hidden decision known to be due but not yet known to be taken."""

    kind: str
    """"give" (C4, a third party's answer), "hand_back" (C7, a third party's sale) or "may_grab"."""
    seat: int
    """The seat that decides."""
    other: int
    """The mover of a "give", the buyer of a "hand_back"; -1 for "may_grab"."""


PENDING_KIND = {"give": "give", "hand_back": "hand_back", "may_grab": "grab"}
"""The view's pending kind while a queued decision is still to be taken."""


@lru_cache(maxsize=65536)
def moved(hand: Hand, out: int, into: int) -> Hand:
    """The sorted hand with one `out` replaced by `into`."""
    if out == into:
        return hand
    cards = list(hand)
    cards.remove(out)
    cards.append(into)
    return tuple(sorted(cards))


def with_hands(hands: tuple[Hand, ...], *changes: tuple[int, Hand]) -> tuple[Hand, ...]:
    """The hands with some seats' hands replaced."""
    out = list(hands)
    for seat, hand in changes:
        out[seat] = hand
    return tuple(out)


def per_card(living: int, stash: Hand, face_up: Iterable[Hand]) -> int:
    """C4–C6: the main actions open per distinct card of the mover's hand.

    A Share Info with each of the `living` other seats in the round, a swap for each distinct
    Stash card, a face-up trade for each distinct card of each eliminated hand (`face_up`).
    """
    return living + len(distinct(stash)) + sum(len(distinct(other)) for other in face_up)


def main_options(hand: Hand, living: int, per_card: int) -> int:
    """C4–C7: how many distinct main actions a mover has (as `legal.legal_actions` lists them)."""
    return len(distinct(hand)) * per_card + living * len(pairs(hand))


def grab_options(hand: Hand) -> int:
    """C8: End Turn, or a grab with any distinct pair."""
    return 1 + len(pairs(hand))


@lru_cache(maxsize=65536)
def sale_matches(hand: Hand, buyer: Hand, yes: bool) -> int:
    """How many pairs the seller could show that the buyer answers `yes` to (C7)."""
    return sum(((a + b <= 5 and a + b in buyer) == yes) for a, b in pairs(hand))


@lru_cache(maxsize=65536)
def grab_matches(hand: Hand, drop: int, matched: bool) -> int:
    """How many pairs of the hand a grab could place with this outcome (C8)."""
    return sum(((a + b == drop) == matched) for a, b in pairs(hand))


@lru_cache(maxsize=65536)
def trades(mover: Hand, target: Hand) -> tuple[tuple[Hand, Hand, float], ...]:
    """C4: the two hands after a trade of unseen cards, each side uniform over its values."""
    gives, takes = distinct(mover), distinct(target)
    f = 1.0 / (len(gives) * len(takes))
    return tuple(
        (moved(mover, give, take), moved(target, take, give), f) for give in gives for take in takes
    )


def third_party_give(mover: int, target: int) -> Step:
    """C4: a trade this seat cannot see: each side's card uniform over its distinct values."""

    def step(c: Config) -> Iterable[tuple[Config, float]]:
        hands = c[1]
        for new_mover, new_target, f in trades(hands[mover], hands[target]):
            yield (c[0], with_hands(hands, (mover, new_mover), (target, new_target))), f

    return step


def third_party_hand_back(seller: int, buyer: int) -> Step:
    """C7: a yes this seat cannot see: the pair uniform among those answered yes, then the card
    handed back uniform over the pair's distinct values."""

    def step(c: Config) -> Iterable[tuple[Config, float]]:
        hands = c[1]
        buyer_hand = hands[buyer]
        shows = [p for p in pairs(hands[seller]) if p[0] + p[1] <= 5 and p[0] + p[1] in buyer_hand]
        for show in shows:
            total, backs = show[0] + show[1], distinct(show)
            f = 1.0 / (len(shows) * len(backs))
            for back in backs:
                moves = (
                    (seller, moved(hands[seller], back, total)),
                    (buyer, moved(buyer_hand, total, back)),
                )
                yield (c[0], with_hands(hands, *moves)), f

    return step
