"""A seeded, serializable random generator whose whole state is one integer.

SplitMix64: tiny, fast in pure Python, and its state (a 64-bit int) stores in JSON and in the
game state, so that a game replays exactly (DESIGN.md: randomness is state).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from deaddrop.engine.core.records import record

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


@record
class Rng:
    """An immutable generator: every draw returns the value and the next generator."""

    state: int
    """The 64-bit SplitMix64 counter; everything the generator is."""

    @staticmethod
    def from_seed(seed: int) -> Rng:
        """A generator for a game seed (any integer; it is folded into 64 bits)."""
        return Rng(seed & _MASK)

    def next_u64(self) -> tuple[int, Rng]:
        """A uniformly random 64-bit integer and the next generator."""
        state = (self.state + _GAMMA) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(state)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in [0, n) without modulo bias, and the next generator."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            value, rng = rng.next_u64()
            if value < limit:
                return value % n, rng

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """One item drawn uniformly, and the next generator."""
        index, rng = self.below(len(items))
        return items[index], rng

    def shuffled(self, items: Sequence[T]) -> tuple[list[T], Rng]:
        """A Fisher-Yates shuffled copy of the items, and the next generator."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out, rng
