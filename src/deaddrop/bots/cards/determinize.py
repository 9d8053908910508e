"""Guesses at the hidden cards of a round, drawn from what one seat's view allows (C12, C13).

Two ways to weigh the configurations (The Drop and every hand) the view leaves possible:

- `uniform_sampler`: every physical deal of the hidden cards that fits the view is equally
  likely, so a configuration weighs the number of ways to lay its cards (1 / ∏ count!), and
  nothing is read into how others chose. The plain ISMCTS baseline uses this.
- `posterior_sampler`: the exact posterior (`inference.Belief`), which also weighs how
  likely each configuration made the choices the log shows. The master uses this.

Both are seeded by the caller's RNG and list configurations in sorted order, so a seed and a
view give the same guesses.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping
from itertools import accumulate
from math import factorial

from deaddrop.engine.cards.inference import Belief
from deaddrop.engine.cards.inference_prior import Config, Hand


class Sampler:
    """Draws configurations with fixed weights."""

    def __init__(self, weights: Mapping[Config, float]) -> None:
        items = sorted((config, w) for config, w in weights.items() if w > 0.0)
        if not items:
            raise ValueError("the view allows no configuration")
        self.configs = [config for config, _ in items]
        self.cumulative = list(accumulate(w for _, w in items))

    def draw(self, rng: random.Random) -> Config:
        """One configuration, at random by weight."""
        x = rng.random() * self.cumulative[-1]
        index = min(bisect_right(self.cumulative, x), len(self.configs) - 1)
        return self.configs[index]


def _layouts(hands: tuple[Hand, ...]) -> float:
    """How many ways the physical cards can lie to give these hands, up to a constant."""
    out = 1.0
    for hand in hands:
        for value in set(hand):
            out /= factorial(hand.count(value))
    return out


def uniform_sampler(belief: Belief) -> Sampler:
    """Uniform over the physical deals consistent with the view (C13's consistent deals)."""
    return Sampler({config: _layouts(config[1]) for config in belief.probs})


def posterior_sampler(belief: Belief) -> Sampler:
    """The exact posterior of the view."""
    return Sampler(belief.probs)
