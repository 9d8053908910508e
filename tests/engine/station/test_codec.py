"""Setups and action logs round-trip through JSON and replay to the same game."""

from __future__ import annotations

import json

import pytest

from deaddrop.bots.station.random_bot import random_game
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station import Setup, replay
from deaddrop.engine.station.codec import (
    action_from_json,
    action_to_json,
    setup_from_json,
    setup_to_json,
)

PLAYERS = tuple(f"p{i}" for i in range(8))


def test_a_played_game_round_trips_through_json() -> None:
    state, log = random_game(PLAYERS, seed=11)
    text = json.dumps([action_to_json(action) for action in log])
    decoded = [action_from_json(item) for item in json.loads(text)]
    assert decoded == log
    setup = setup_from_json(json.loads(json.dumps(setup_to_json(Setup(PLAYERS, 11)))))
    assert replay(setup, decoded) == state


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"kind": "fly_away"},
        {"kind": "cast_vote", "seat": "1", "choice": 2},
        {"kind": "send_whisper", "seat": 1, "recipient": 2},
        {"kind": "save_order", "seat": 1, "target": True, "performer": 0},
    ],
)
def test_malformed_actions_are_refused_with_a_format_error(data: object) -> None:
    with pytest.raises(IllegalAction) as refused:
        action_from_json(data)
    assert refused.value.code == "format"


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"players": "abc", "seed": 1},
        {"players": [], "seed": 1.5},
        {"players": [], "seed": 1, "deal": [["OWL"]]},
    ],
)
def test_malformed_setups_are_refused(data: object) -> None:
    with pytest.raises(IllegalAction):
        setup_from_json(data)
