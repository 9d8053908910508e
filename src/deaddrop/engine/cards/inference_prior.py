"""The deal prior of a seat's deduction: how many shuffles give each hidden configuration (C2).

A configuration is `(drop, hands)`: The Drop's value and every seat's hand (sorted tuples,
indexed by seat; the seat's own hand and eliminated hands are known and equal in every
configuration). Cards of equal value are interchangeable, so one configuration stands for
every shuffle that puts the same values in the same places.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from math import factorial, prod

from deaddrop.engine.cards.deck import DECK_COUNTS, HAND_SIZES
from deaddrop.engine.core.errors import IllegalAction

Hand = tuple[int, ...]
"""A sorted tuple of card values."""
Config = tuple[int, tuple[Hand, ...]]
"""A hidden configuration: (The Drop, every seat's hand by seat)."""


def unknown_cards(hand: Hand, stash: Hand) -> Hand:
    """The cards the seat cannot see at the deal: the deck minus its hand and The Stash (C1)."""
    rest = Counter(DECK_COUNTS)
    rest.subtract(hand)
    rest.subtract(stash)
    if any(count < 0 for count in rest.values()):
        raise IllegalAction("C1", "a hand and stash that are not part of the deck")
    return tuple(sorted(rest.elements()))


@lru_cache(maxsize=4096)
def splits(cards: Hand, hands: int, size: int) -> tuple[tuple[Hand, ...], ...]:
    """Every distinct way to share a sorted multiset into `hands` sorted hands of `size` cards."""
    if hands == 0:
        return ((),) if not cards else ()
    out: list[tuple[Hand, ...]] = []
    for first in sorted(set(combinations(cards, size))):
        rest = list(cards)
        for card in first:
            rest.remove(card)
        out.extend((first, *tail) for tail in splits(tuple(rest), hands - 1, size))
    return tuple(out)


def shuffles(unknown: Hand, parts: tuple[Hand, ...]) -> int:
    """How many ways the physical unknown cards land as these parts (a multinomial per value)."""
    total = Counter(unknown)
    ways = prod(factorial(n) for n in total.values())
    for part in parts:
        ways //= prod(factorial(n) for n in Counter(part).values())
    return ways


@lru_cache(maxsize=4096)
def _arrangements(hand: Hand) -> int:
    """Π count! over the hand's values: orders of equal cards a sorted hand forgets."""
    return prod(factorial(n) for n in Counter(hand).values())


@lru_cache(maxsize=1024)
def deal_prior(players: int, seat: int, hand: Hand, stash: Hand) -> dict[Config, float]:
    """The prior over configurations given the seat's dealt hand and The Stash (C2), normalized.

    Every shuffle is equally likely, so a configuration weighs as many shuffles as give it.
    The returned dict is shared (cached): never mutate it.
    """
    size = HAND_SIZES[players]
    if len(hand) != size or len(stash) != players:
        raise IllegalAction(
            "C2", f"a {players}-player deal has hands of {size} and a stash of {players}"
        )
    unknown = unknown_cards(hand, stash)
    weights: dict[Config, float] = {}
    for drop in sorted(set(unknown)):
        rest = list(unknown)
        rest.remove(drop)
        for others in splits(tuple(rest), players - 1, size):
            hands = (*others[:seat], hand, *others[seat:])
            # `shuffles` over a constant (Π count! of the unknown cards): the same proportions.
            weights[(drop, hands)] = 1.0 / prod(_arrangements(other) for other in others)
    total = sum(weights.values())
    return {config: weight / total for config, weight in weights.items()}
