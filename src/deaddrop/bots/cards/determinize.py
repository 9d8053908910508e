"""Guesses at the hidden cards of a round, drawn from what one seat's view allows (C12, C13).

They are drawn from a seat's exact posterior (`inference.Belief`) over the configurations (The
Drop and every hand) the view leaves possible. Under the CONSISTENT model, the one the expert,
ismcts and master keep, that posterior is uniform over the physical deals consistent with the
view (C13): a configuration weighs the shuffles that give it, a choice the seat saw only has
to have been legal, and a choice it could not see (the cards of a trade between two others) is
uniform over its options. At two seats, where every card that moves is seen, a test checks it
against the engine: each shuffle of the hidden cards that, dealt with the seat's hand and The
Stash and replayed with the round's actions, gives the same view counts once.

Draws are seeded by the caller's RNG and list configurations in sorted order, so a seed and a
view give the same guesses.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping
from itertools import accumulate

from deaddrop.engine.cards.inference import Belief
from deaddrop.engine.cards.inference_prior import Config


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


def posterior_sampler(belief: Belief) -> Sampler:
    """The exact posterior of the view (uniform over the consistent deals under CONSISTENT)."""
    return Sampler(belief.probs)
