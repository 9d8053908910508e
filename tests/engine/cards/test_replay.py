"""A game is its setup plus its action log: replay rebuilds it exactly; actions serialize."""

import json

import pytest

from deaddrop.engine.cards import (
    Action,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    Setup,
    ShareInfo,
    SwapStash,
    action_from_json,
    action_to_json,
    legal_actions,
    replay,
    start,
)
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import play_random


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_rebuilds_every_state_exactly(players: int) -> None:
    setup = Setup(players, seed=77)
    final, log, states = play_random(setup, chooser=5, patience=0.5)
    assert replay(setup, log) == final
    for index in (0, 1, len(log) // 2):
        assert replay(setup, log[:index]) == states[index]


def test_replay_of_an_illegal_log_raises_illegal_action() -> None:
    setup = Setup(3, seed=1, first=0)
    with pytest.raises(IllegalAction) as error:
        replay(setup, [EndTurn(0)])
    assert error.value.code == "C3"


def test_a_new_game_is_the_replay_of_an_empty_log() -> None:
    assert replay(Setup(4, seed=2), []) == start(Setup(4, seed=2))


def test_every_kind_of_action_round_trips_through_json() -> None:
    actions: list[Action] = [
        ShareInfo(0, 1, 2),
        ShareInfo(0, 1, 2, take=3),
        SwapStash(1, 0, 5),
        SellSecrets(2, 0, (1, 3)),
        GiveCard(1, 0),
        HandBack(2, 3),
        Grab(0, (4, 1)),
        EndTurn(3),
    ]
    for action in actions:
        data = action_to_json(action)
        assert json.loads(json.dumps(data)) == data
        assert action_from_json(data) == action


def test_legal_actions_of_random_games_round_trip_through_json() -> None:
    _, _, states = play_random(Setup(3, seed=4), chooser=4, patience=0.5)
    for state in states[:200]:
        for action in legal_actions(state):
            assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"kind": "grab"},
        {"kind": "dance", "seat": 0},
        {"kind": "grab", "seat": 0, "pair": [1]},
        {"kind": "grab", "seat": 0, "pair": [1, "2"]},
        {"kind": "swap_stash", "seat": 0, "give": 1},
        {"kind": "share_info", "seat": 0, "target": 1, "give": 1, "take": "x"},
        {"kind": "end_turn", "seat": True},
    ],
)
def test_malformed_action_json_is_refused(data: object) -> None:
    with pytest.raises(IllegalAction) as error:
        action_from_json(data)
    assert error.value.code == "action"
