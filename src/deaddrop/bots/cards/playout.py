"""The master's playout policy: a fast stand-in for the expert at every seat of a guessed round.

The expert needs each seat's exact posterior, which a playout cannot afford for seats whose
private history is only guessed. So each seat here plays the expert's rules on a cheap belief:
P(The Drop = v) is its starting weight for v scaled by how many copies of v it has not yet
seen (C1 minus the most it has seen at once in its hand, The Stash and the face-up hands).
The searching seat starts from its exact posterior; the others from plain counting. With that
belief the searching seat grabs by the expert's threshold (C8) and the others at OTHERS_GRAB (a
counting belief is broader than the exact one they really hold). Each seat swaps or takes a
face-up card when that raises the expert's hand value, else trades or sells at random (C4,
C7), gives the card whose loss hurts its pairs least (C4) and hands back the card it needs
least (C7). Playouts stop after MAX_DECISIONS; the seats left then share the round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from deaddrop.bots.cards.expert import COVER, GRAB_BASE, GRAB_PER_OPPONENT, Dist, sums
from deaddrop.bots.cards.world import ACTION, GIVE, GRAB, World
from deaddrop.engine.cards.actions import (
    Action,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    ShareInfo,
    SwapStash,
)
from deaddrop.engine.cards.inference_model import moved
from deaddrop.engine.cards.legal import pairs

DECK = (4, 3, 2, 2, 1, 1)
"""C1: copies of each value 0…5."""
MAX_DECISIONS = 30
OTHERS_GRAB = 0.5
"""The naive-count chance at which other seats grab: an exact posterior sharpens sooner."""
"""Decisions after which a playout stops; the seats left share the round equally."""


@lru_cache(maxsize=1 << 16)
def hand_value(hand: tuple[int, ...], drop: Dist) -> float:
    """The expert's hand value: the best pair's chance plus COVER times the pairs' cover."""
    hits = [drop[s] for s in sums(hand)]
    return (max(hits) if hits else 0.0) + COVER * sum(hits)


class Playout:
    """Plays one guessed round to its end; `run` says who won it."""

    def __init__(self, world: World, searcher: int, posterior: Dist, rng: random.Random) -> None:
        self.world = world
        self.rng = rng
        self.searcher = searcher
        players = world.players
        self.seen = [self._visible(seat) for seat in range(players)]
        self.base: list[list[float]] = []
        for seat in range(players):
            unseen = [DECK[v] - self.seen[seat][v] for v in range(6)]
            if seat == searcher:
                self.base.append(
                    [p / u if u > 0 else 0.0 for p, u in zip(posterior, unseen, strict=True)]
                )
            else:
                self.base.append([1.0 if u > 0 else 0.0 for u in unseen])
        # A seat's belief changes only when what it sees changes: its hand, The Stash or
        # the face-up hands; most decisions of a playout change none of them for most seats.
        self._cached: list[tuple[object, Dist] | None] = [None] * players

    def _visible(self, seat: int) -> list[int]:
        world = self.world
        counts = [0] * 6
        for card in world.hands[seat]:
            counts[card] += 1
        for card in world.stash:
            counts[card] += 1
        for out in world.eliminated:
            if out != seat:
                for card in world.hands[out]:
                    counts[card] += 1
        return counts

    def belief(self, seat: int) -> Dist:
        """The seat's cheap belief over The Drop now."""
        world = self.world
        key = (world.hands[seat], world.stash, *(world.hands[s] for s in world.eliminated))
        cached = self._cached[seat]
        if cached is not None and cached[0] == key:
            return cached[1]
        drop = self._fresh_belief(seat)
        self._cached[seat] = (key, drop)
        return drop

    def _fresh_belief(self, seat: int) -> Dist:
        seen = self.seen[seat]
        for value, count in enumerate(self._visible(seat)):
            if count > seen[value]:
                seen[value] = count
        weights = [b * max(0, DECK[v] - seen[v]) for v, b in enumerate(self.base[seat])]
        total = sum(weights)
        if total <= 0.0:
            return tuple(1.0 / 6 for _ in range(6))
        return tuple(w / total for w in weights)

    def run(self) -> tuple[int | None, int]:
        """Play to the round's end: (winner or None if stopped, seats left in the round)."""
        world = self.world
        for _ in range(MAX_DECISIONS):
            if world.winner is not None:
                return world.winner, 1
            world.play(self.decide())
        if world.winner is not None:
            return world.winner, 1
        return None, len(world.living())

    def decide(self) -> Action:
        """The pending seat's decision by the policy of the module docstring."""
        world = self.world
        seat, kind = world.seat, world.kind
        hand = world.hands[seat]
        drop = self.belief(seat)
        if kind == GRAB:
            return self._grab(seat, hand, drop)
        if kind == GIVE:
            return GiveCard(seat, _least_needed(hand, drop))
        if kind == ACTION:
            return self._action(seat, hand, drop, world.options())
        total = world.show[0] + world.show[1]
        keep = max(set(world.show), key=lambda c: (hand_value(moved(hand, c, total), drop), c))
        return HandBack(seat, keep)

    def _grab(self, seat: int, hand: tuple[int, ...], drop: Dist) -> Action:
        best = max(pairs(hand), key=lambda p: drop[p[0] + p[1]] if p[0] + p[1] <= 5 else -1.0)
        total = best[0] + best[1]
        q = drop[total] if total <= 5 else 0.0
        opponents = len(self.world.living()) - 1
        if seat == self.searcher:
            threshold = GRAB_BASE - GRAB_PER_OPPONENT * max(0, opponents - 1)
        else:
            threshold = OTHERS_GRAB
        return Grab(seat, best) if q >= threshold - 1e-9 else EndTurn(seat)

    def _action(
        self, seat: int, hand: tuple[int, ...], drop: Dist, options: Sequence[Action]
    ) -> Action:
        now = hand_value(hand, drop)
        best, best_value = None, now + 1e-9
        chances: list[Action] = []
        values: dict[tuple[int, int], float] = {}  # one hand value per card given and taken
        for option in options:
            if isinstance(option, SwapStash) or (
                isinstance(option, ShareInfo) and option.take is not None
            ):
                take = option.take
                assert take is not None
                trade = (option.give, take)
                if trade in values:
                    continue  # the same value as an earlier option, which keeps the lead
                value = values[trade] = hand_value(moved(hand, option.give, take), drop)
                if value > best_value:
                    best, best_value = option, value
            elif isinstance(option, ShareInfo | SellSecrets):
                chances.append(option)
        if best is not None:
            return best
        pool = chances or list(options)
        return pool[self.rng.randrange(len(pool))]


def _least_needed(hand: tuple[int, ...], drop: Dist) -> int:
    """C4: the card whose loss leaves the rest of the hand worth most."""
    best_card, best_value = hand[0], -1.0
    for card in dict.fromkeys(hand):
        rest = list(hand)
        rest.remove(card)
        value = hand_value(tuple(rest), drop)
        if value > best_value:
            best_card, best_value = card, value
    return best_card
