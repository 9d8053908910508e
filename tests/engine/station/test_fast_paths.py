"""The adjudicator's fast paths give exactly what the one-by-one path gives."""

from __future__ import annotations

import pytest

from deaddrop.bots.station.random_bot import random_game
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station import actions as A
from deaddrop.engine.station import apply, start
from deaddrop.engine.station.game import BatchRefused, apply_day
from deaddrop.engine.station.pouch import advance, resolve_pouch
from deaddrop.engine.station.setup import Setup


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
