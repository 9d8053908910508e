"""Game records: every worked example and edge-case record, format errors, export round trips."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from deaddrop.engine.cards import (
    RecordError,
    Setup,
    export_record,
    outcome,
    parse_record,
    play_record,
    record_game,
    replay,
    replay_record,
)
from tests.engine.cards.helpers import play_random

TESTS = Path(__file__).resolve().parents[2]
SHARED = sorted((TESTS / "scenarios" / "cards").glob("*.json"))
OWN = sorted((Path(__file__).parent / "records").glob("*.json"))
ALL = SHARED + OWN
VALID = [path for path in ALL if "invalid" not in json.loads(path.read_text())["expect"]]


def run(data: Any) -> dict[str, Any]:
    """The outcome, or {"invalid": rule, "message": line} as the examples write it."""
    try:
        return replay_record(data)
    except RecordError as error:
        return {"invalid": error.code, "message": str(error)}


def test_the_worked_examples_are_all_here() -> None:
    assert len(SHARED) >= 7
    assert len(OWN) >= 20


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_record_gives_its_expected_outcome(path: Path) -> None:
    data = json.loads(path.read_text())
    assert run(data) == data["expect"]


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_export_of_a_played_record_replays_to_the_same_outcome(path: Path) -> None:
    data = json.loads(path.read_text())
    setup, log = record_game(parse_record(data))
    exported = export_record(setup, log, name=data["name"])
    assert json.loads(json.dumps(exported)) == exported
    # After a finished round the engine has dealt the next one (C10): the export holds it too.
    n = len(data["rounds"])
    result = replay_record(exported)
    assert result["rounds"][:n] == data["expect"]["rounds"]
    assert (result["tokens"], result["winner"]) == (
        data["expect"]["tokens"],
        data["expect"]["winner"],
    )
    assert all(not r["turns"] for r in exported["rounds"][n:])
    # The exported record is the same game: same deals, starts and turns.
    assert parse_record(exported).rounds[:n] == parse_record(data).rounds
    assert replay(setup, log) == play_record(parse_record(data))


def test_export_writes_the_readme_format() -> None:
    data = json.loads((TESTS / "scenarios" / "cards" / "01-readme-example.json").read_text())
    exported = export_record(*record_game(parse_record(data)), name="again")
    assert exported == {
        "name": "again",
        "players": 3,
        "options": {"grab_face_down": False, "tokens_to_win": 3},
        "rounds": [
            {
                "deal": {"drop": 2, "stash": [0, 1, 3], "hands": [[0, 0, 1], [1, 2, 3], [0, 4, 5]]},
                "start": 0,
                "turns": [
                    {"seat": 0, "swap_stash": {"give": 0, "take": 3}},
                    {"seat": 1, "share_info": {"with": 2, "give": 1, "receive": 5}},
                    {
                        "seat": 2,
                        "sell_secrets": {"to": 0, "show": [0, 1], "hand_back": 0},
                        "grab": [1, 1],
                    },
                ],
            },
            {
                # C10: the next round has been dealt from the RNG and waits for its first turn.
                "deal": exported["rounds"][1]["deal"],
                "start": 1,
                "turns": [],
            },
        ],
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_export_of_seeded_random_games_replays_to_the_same_outcome(players: int) -> None:
    for seed in range(10):
        setup = Setup(players, seed=seed)
        state, log, _ = play_random(setup, chooser=seed, patience=0.7)
        exported = export_record(setup, log)
        assert replay_record(exported) == outcome(state)


BASE: dict[str, Any] = {
    "players": 3,
    "rounds": [
        {
            "deal": {"drop": 2, "stash": [0, 1, 3], "hands": [[0, 0, 1], [1, 2, 3], [0, 4, 5]]},
            "start": 0,
            "turns": [{"seat": 0, "swap_stash": {"give": 0, "take": 3}}],
        }
    ],
}


def _with(path: tuple[Any, ...], value: Any) -> Any:
    """BASE with one value replaced (or a key deleted when value is ...)."""
    data = json.loads(json.dumps(BASE))
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


R = ("rounds", 0)
T = ("rounds", 0, "turns", 0)
AT = "round 1, turn 1: seat 0: "
SALE = {"to": 1, "show": [0, 0]}
BAD = [
    ([], "record", "record: a record must be a JSON object"),
    (_with(("colour",), "red"), "record", "record: a record has unknown key 'colour'"),
    (_with(("players",), ...), "record", "record: a record needs 'players'"),
    (_with(("players",), "3"), "C2", "record: players must be 2 to 4"),
    (_with(("name",), 3), "record", "record: name must be text"),
    (_with(("options",), {"speed": 1}), "record", "record: options has unknown key 'speed'"),
    (
        _with(("options",), {"grab_face_down": 1}),
        "C8",
        "record: grab_face_down must be true or false",
    ),
    (
        _with(("options",), {"tokens_to_win": 0}),
        "C11",
        "record: tokens_to_win must be a positive integer",
    ),
    (_with(("rounds",), {}), "record", "record: rounds must be a list"),
    (_with((*R, "start"), ...), "record", "round 1: a round needs 'start'"),
    (_with((*R, "start"), 3), "C3", "round 1: start must be a seat from 0 to 2"),
    (_with((*R, "turns"), {}), "record", "round 1: turns must be a list"),
    (
        _with((*R, "deal", "drop"), "2"),
        "record",
        "round 1: the deal's drop, stash and hands are card values",
    ),
    (
        _with((*R, "deal", "hands"), [[0, 0, 1], [1, 2, 3]]),
        "C2",
        "round 1: the deal must give 3 hands of 3 cards",
    ),
    (_with((*T, "seat"), "0"), "record", "round 1, turn 1: a turn's seat is a number"),
    (
        _with((*T, "swap_stash"), ...),
        "C4",
        AT + "a turn has exactly one action, not 0: swap_stash, share_info or sell_secrets",
    ),
    (
        _with((*T, "share_info"), {"with": 1, "give": 0, "receive": 1}),
        "C4",
        AT + "a turn has exactly one action, not 2: swap_stash and share_info",
    ),
    (_with((*T, "grab"), [1]), "record", AT + "grab is two card values"),
    (_with((*T, "swap_stash"), {"give": 0}), "record", AT + "swap_stash needs 'take'"),
    (
        _with((*T, "swap_stash"), {"give": 0, "take": None}),
        "record",
        AT + "swap_stash take must be a number",
    ),
    (
        _with(T, {"seat": 0, "sell_secrets": {"to": 1, "show": [0]}}),
        "record",
        AT + "sell_secrets shows two card values",
    ),
    (
        _with(T, {"seat": 0, "sell_secrets": SALE | {"hand_back": "0"}}),
        "record",
        AT + "hand_back is a card value or null",
    ),
    (
        _with(T, {"seat": 0, "share_info": {"with": 0, "give": 0, "receive": 0}}),
        "C4",
        AT + "share info with another seat",
    ),
    (
        _with(T, {"seat": 0, "share_info": {"with": 1, "give": 4, "receive": 1}}),
        "C4",
        AT + "give 4 is not in hand",
    ),
]


@pytest.mark.parametrize(("data", "code", "line"), BAD)
def test_a_bad_record_is_one_line_naming_where_and_the_rule(
    data: Any, code: str, line: str
) -> None:
    with pytest.raises(RecordError) as error:
        replay_record(data)
    assert error.value.code == code
    assert str(error.value) == f"{line} ({code})"
    assert "\n" not in str(error.value)


def test_a_record_may_omit_options_and_turns() -> None:
    data = _with(("rounds", 0, "turns"), ...)
    result = replay_record(data)
    assert result["rounds"][0]["hands"] == [[0, 0, 1], [1, 2, 3], [0, 4, 5]]
    assert result["rounds"][0]["winner"] is None


def test_a_null_grab_is_no_grab() -> None:
    data = _with(("rounds", 0, "turns", 0, "grab"), None)
    assert replay_record(data)["rounds"][0]["hands"][0] == [0, 1, 3]
