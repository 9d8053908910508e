"""The adjudicator's fast paths give exactly what the one-by-one path gives."""

from __future__ import annotations

import pytest

from deaddrop.bots.station.random_bot import random_game
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.records import evolve
from deaddrop.engine.station import actions as A
from deaddrop.engine.station import apply, start
from deaddrop.engine.station.game import (
    BatchRefused,
    apply_day,
    check_saves,
    save_day,
    with_saves,
)
from deaddrop.engine.station.pouch import advance, resolve_pouch
from deaddrop.engine.station.setup import Setup
from deaddrop.engine.station.state import ABILITY_ON, ABSTAIN, Ability, Whisper


@pytest.mark.parametrize("players,seed", [(6, 1), (7, 2), (8, 3), (9, 4), (10, 5), (10, 6)])
def test_apply_day_and_advance_match_apply(players: int, seed: int) -> None:
    names = tuple(f"p{i}" for i in range(players))
    final, log = random_game(names, seed)
    assert any(isinstance(action, A.MarkDone) for action in log)  # S41 goes through the batch
    slow = fast = start(Setup(names, seed))
    day: list[A.DayAction] = []
    for action in log:
        if isinstance(action, A.ResolvePouch):
            fast = apply_day(fast, day)
            assert fast == slow
            assert advance(fast) == resolve_pouch(slow)[0]
            fast, day = advance(fast), []
            slow, _ = apply(slow, action)
        else:
            assert not isinstance(action, A.EditFinalCable | A.RemovePlayer)
            slow, _ = apply(slow, action)
            day.append(action)
    assert fast == slow == final


def test_apply_day_names_the_refused_action() -> None:
    state = start(Setup(tuple(f"p{i}" for i in range(6)), 9))
    whispers: list[A.DayAction] = [A.SendWhisper(0, 1), A.SendWhisper(0, 2), A.SendWhisper(0, 3)]
    with pytest.raises(BatchRefused) as refused:
        apply_day(state, whispers)
    assert refused.value.index == 2
    assert refused.value.code == "S31"
    assert isinstance(refused.value, IllegalAction)


@pytest.mark.parametrize("players,seed", [(6, 1), (8, 3), (10, 6)])
def test_advance_reads_the_saves_apart(players: int, seed: int) -> None:
    """The scenario's Pouch takes the day's saves as they are, with no State made for them:
    the same next state as the Pouch of the state that holds them."""
    names = tuple(f"p{i}" for i in range(players))
    final, log = random_game(names, seed)
    state = start(Setup(names, seed))
    day: list[A.DayAction] = []
    for action in log:
        if isinstance(action, A.ResolvePouch):
            saved = apply_day(state, day)
            assert advance(state, (saved.operations, saved.votes, saved.whispers)) == advance(saved)
            state, day = advance(saved), []
        else:
            assert not isinstance(action, A.EditFinalCable | A.RemovePlayer)
            day.append(action)
    assert state == final


def test_check_saves_gives_what_save_day_saves() -> None:
    state = start(Setup(tuple(f"p{i}" for i in range(6)), 9))
    actors = [seat.index for seat in state.seats if seat.role != "ringleader"][:2]
    operations = [(seat, ABILITY_ON[(seat + 1) % 6]) for seat in actors]
    votes, whispers = [(1, 2), (3, ABSTAIN)], [(0, 1, ""), (0, 2, "hello"), (1, 0, "")]
    saved = check_saves(state, (operations, votes, whispers))
    assert with_saves(state, saved) == save_day(state, operations, votes, whispers)
    again = check_saves(state, (operations, votes, whispers))  # shared records, equal to new ones
    assert again[2] == saved[2] == tuple(Whisper(1, s, r, text) for s, r, text in whispers)


@pytest.mark.parametrize("winner", [None, "ring"])
def test_check_saves_refuses_every_operation_check_ability_refuses(winner: str | None) -> None:
    """For every seat on every target, at a table with burned players and a detainee from
    yesterday (S8, S9, S24), check_saves passes an Operation exactly when check_ability_at
    does, and refuses it with the same rule and the save's index."""
    fresh = start(Setup(tuple(f"p{i}" for i in range(10)), 4))
    interrogator = next(s.index for s in fresh.seats if s.role == "interrogator")
    alive = tuple(seat not in (2, 7) for seat in range(10))
    detained = 5 if interrogator != 5 else 6
    state = evolve(fresh, day=3, alive=alive, last_detained=detained, winner=winner)
    assert interrogator not in (2, 7)  # the seed keeps the Interrogator alive
    for seat in range(-1, 11):
        for target in range(-1, 11):
            operation = Ability(target)
            try:
                A.check_ability_at(state, seat, target)
                expected: str | None = None
            except IllegalAction as error:
                expected = error.code
            try:
                saved = check_saves(state, ([(seat, operation)], [], []))
                assert expected is None, (seat, target)
                assert saved[0][seat] == operation
            except BatchRefused as refused:
                assert (refused.code, refused.index) == (expected, 0), (seat, target)
