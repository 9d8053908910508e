"""`deaddrop cards replay FILE|-`: outcome JSON on stdout (exit 0) or one error line (exit 2)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deaddrop.cli import main

TESTS = Path(__file__).resolve().parents[1]
SHARED = sorted((TESTS / "scenarios" / "cards").glob("*.json"))
OWN = sorted((TESTS / "engine" / "cards" / "records").glob("*.json"))


def _check(expect: dict[str, Any], status: int, out: str, err: str) -> None:
    """The command's result against a record's `expect`."""
    if "invalid" in expect:
        assert status == 2
        assert out == ""
        assert err == expect["message"] + "\n"
    else:
        assert status == 0
        assert err == ""
        assert json.loads(out) == expect


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name)
def test_cards_replay_as_a_process_matches_every_worked_example(path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deaddrop.cli", "cards", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    expect = json.loads(path.read_text())["expect"]
    _check(expect, done.returncode, done.stdout, done.stderr)


@pytest.mark.parametrize("path", SHARED + OWN, ids=lambda p: p.name)
def test_cards_replay_matches_every_record(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["cards", "replay", str(path)])
    out, err = capsys.readouterr()
    _check(json.loads(path.read_text())["expect"], status, out, err)


def test_cards_replay_pins_the_c7_and_c3_messages(capsys: pytest.CaptureFixture[str]) -> None:
    folder = TESTS / "scenarios" / "cards"
    assert main(["cards", "replay", str(folder / "05-sell-to-eliminated.json")]) == 2
    assert capsys.readouterr() == (
        "",
        "round 1, turn 2: seat 1: sell to another seat still in the round (C7)\n",
    )
    assert main(["cards", "replay", str(folder / "06-wrong-seat.json")]) == 2
    assert capsys.readouterr() == ("", "round 1, turn 1: seat 1: it is seat 0's turn (C3)\n")


def test_cards_replay_names_c4_for_a_turn_with_two_actions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = TESTS / "engine" / "cards" / "records" / "21-two-actions.json"
    assert main(["cards", "replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "round 1, turn 1: seat 0: a turn has exactly one action, not 2: "
        "swap_stash and share_info (C4)\n"
    )


def test_cards_replay_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = TESTS / "scenarios" / "cards" / "01-readme-example.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO(path.read_text()))
    assert main(["cards", "replay", "-"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert json.loads(out) == json.loads(path.read_text())["expect"]


def test_cards_replay_reads_standard_input_as_a_process() -> None:
    path = TESTS / "scenarios" / "cards" / "06-wrong-seat.json"
    done = subprocess.run(
        [sys.executable, "-m", "deaddrop.cli", "cards", "replay", "-"],
        input=path.read_text(),
        capture_output=True,
        text=True,
        check=False,
    )
    _check(json.loads(path.read_text())["expect"], done.returncode, done.stdout, done.stderr)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("{", "record: not valid JSON: "),
        ("[" * 100_000, "record: not valid JSON: "),
        ("[1, 2]", "record: a record must be a JSON object (record)"),
        ('{"players": 9}', "record: players must be 2 to 4 (C2)"),
    ],
)
def test_cards_replay_refuses_a_bad_document_in_one_line(
    text: str, start: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert main(["cards", "replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(start)
    assert err.endswith(")\n") and err.count("\n") == 1


def test_cards_replay_of_a_missing_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cards", "replay", str(tmp_path / "nope.json")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("record: cannot read ") and err.count("\n") == 1


def test_cards_needs_a_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["cards"])
    assert exit_.value.code == 2
