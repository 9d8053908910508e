"""The seeded RNG is deterministic, serializable and unbiased enough for deals."""

from collections import Counter

from deaddrop.engine.core.rng import Rng


def test_same_seed_same_stream() -> None:
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    for _ in range(100):
        x, a = a.next_u64()
        y, b = b.next_u64()
        assert x == y


def test_state_is_one_int_and_resumes() -> None:
    rng = Rng.from_seed(7)
    _, rng = rng.next_u64()
    resumed = Rng(rng.state)
    assert rng.next_u64() == resumed.next_u64()


def test_below_is_in_range_and_roughly_uniform() -> None:
    rng = Rng.from_seed(1)
    counts: Counter[int] = Counter()
    for _ in range(6000):
        value, rng = rng.below(6)
        counts[value] += 1
    assert set(counts) == set(range(6))
    assert all(800 < n < 1200 for n in counts.values())


def test_shuffled_is_a_permutation_and_pure() -> None:
    rng = Rng.from_seed(3)
    items = list(range(13))
    out, after = rng.shuffled(items)
    assert sorted(out) == items
    assert items == list(range(13))
    assert rng.shuffled(items) == (out, after)
