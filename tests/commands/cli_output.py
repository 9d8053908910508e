"""What a command printed, checked the way every `deaddrop` command's tests need it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from deaddrop.cli import main


def one_json_object(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    """Run the command: it succeeds and prints exactly one JSON object, nothing on stderr."""
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1
    data: dict[str, Any] = json.loads(lines[0])
    return data


def refused_in_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    """Run the command: it exits 2 with one line on stderr that says `words`, and no output."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert words in captured.err and len(captured.err.strip().splitlines()) == 1
