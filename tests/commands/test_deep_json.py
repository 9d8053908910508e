"""Commands that read JSON answer a too deeply nested document like any invalid one: one line on
standard error and exit status 2, never a RecursionError traceback."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from deaddrop.cli import main

DEEP = "[" * 100_000
"""Far past Python's recursion limit: the parser gives up."""
DEEP_OBJECT = '{"a": ' * 100_000
COMMANDS = [["station", "adjudicate"], ["cards", "replay"]]
PREFIX = {"station": "scenario: ", "cards": "record: "}


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_deeply_nested_json_on_standard_input_is_one_line_and_exit_2(command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deaddrop.cli", *command, "-"],
        input=DEEP,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(PREFIX[command[0]] + "not valid JSON: nested too deeply")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECT], ids=["arrays", "objects"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_deeply_nested_json_in_a_file_is_one_line_and_exit_2(
    command: list[str], text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text)
    assert main([*command, str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "nested too deeply" in err


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


NESTED_WHERE_A_VALUE_BELONGS = {
    "station": [
        '{"players": %s, "days": []}',
        '{"players": [["OWL", %s]], "days": []}',
        '{"players": [], "days": [{"votes": {"OWL": %s}}]}',
    ],
    "cards": [
        '{"options": {"players": %s}, "rounds": []}',
        '{"options": {"players": 2}, "rounds": [%s]}',
        '{"options": {"players": 2}, "rounds": [{"deal": %s}]}',
    ],
}
"""Documents the parser accepts, nested where the format wants a name, a number or a list."""


@pytest.mark.parametrize("depth", [50, 800])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_nesting_the_parser_accepts_is_refused_in_one_line(
    command: list[str],
    depth: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for document in NESTED_WHERE_A_VALUE_BELONGS[command[0]]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(document % _nested(depth)))
        assert main([*command, "-"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, (document, err)


def test_a_binary_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "scenario.json"
    path.write_bytes(b"\xff\xfe\x00[")
    for command in COMMANDS:
        assert main([*command, str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "not UTF-8 text" in err


def test_station_bench_names_a_deeply_nested_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "deep.json").write_text(DEEP)
    assert main(["station", "bench", str(tmp_path), "--rounds", "1", "--seconds", "0.01"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "nested too deeply" in err
