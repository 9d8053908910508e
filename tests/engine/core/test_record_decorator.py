"""`record`: the engines' records are frozen, slotted dataclasses, as they were declared before."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from deaddrop.engine.cards.actions import ShareInfo
from deaddrop.engine.core.records import builder, evolve, record
from deaddrop.engine.station.actions import SaveOrder


@record
class Pair:
    """A small record to check the decorator on."""

    left: int
    right: tuple[int, ...] = ()


def test_a_record_is_a_frozen_slotted_dataclass() -> None:
    pair = Pair(1, (2,))
    assert dataclasses.is_dataclass(pair) and Pair.__dict__["__slots__"] == ("left", "right")
    assert not hasattr(pair, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.left = 2  # type: ignore[misc]
    assert pair == Pair(1, (2,)) and hash(pair) == hash(Pair(1, (2,)))
    assert pickle.loads(pickle.dumps(pair)) == pair
    assert builder(Pair)(1, (2,)) == pair and evolve(pair, left=3) == Pair(3, (2,))


@pytest.mark.parametrize("made", [ShareInfo(0, 1, 2), SaveOrder(0, 1, 2)])
def test_the_engines_actions_are_records(made: object) -> None:
    params = type(made).__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen and "__slots__" in type(made).__dict__
    assert pickle.loads(pickle.dumps(made)) == made


def test_a_built_record_is_a_record_of_its_class() -> None:
    """`builder` stores the slots in an unfrozen twin and then gives the object its class: the
    result is the record `cls(...)` makes, frozen, and no twin is ever seen."""
    built = builder(Pair)(1, (2,))
    assert type(built) is Pair and built == Pair(1, (2,)) and hash(built) == hash(Pair(1, (2,)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.left = 2  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(built)) == built and not hasattr(built, "__dict__")
    assert type(evolve(built, right=(3,))) is Pair
