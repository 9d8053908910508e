"""Every shared Station scenario adjudicates exactly as its `expect` says, library and CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from deaddrop.cli import main
from deaddrop.engine.station.scenario import ScenarioError, adjudicate

SCENARIOS = sorted((Path(__file__).parents[2] / "scenarios" / "station").glob("*.json"))


def _ids(paths: list[Path]) -> list[str]:
    return [path.stem for path in paths]


def test_the_shared_scenarios_are_all_here() -> None:
    assert len(SCENARIOS) >= 10


@pytest.mark.parametrize("path", SCENARIOS, ids=_ids(SCENARIOS))
def test_scenario_adjudicates_as_expected(path: Path) -> None:
    scenario = json.loads(path.read_text())
    expect = scenario["expect"]
    if "invalid" in expect:
        with pytest.raises(ScenarioError) as caught:
            adjudicate(scenario)
        assert caught.value.line == expect["message"]
        assert caught.value.rule == expect["invalid"]
    else:
        assert adjudicate(scenario) == expect


@pytest.mark.parametrize("path", SCENARIOS, ids=_ids(SCENARIOS))
def test_adjudicate_command(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect = json.loads(path.read_text())["expect"]
    status = main(["station", "adjudicate", str(path)])
    out, err = capsys.readouterr()
    if "invalid" in expect:
        assert (status, out, err) == (2, "", expect["message"] + "\n")
    else:
        assert (status, err) == (0, "")
        assert json.loads(out) == expect


def test_adjudicate_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(SCENARIOS[0].read_text()))
    assert main(["station", "adjudicate", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(SCENARIOS[0].read_text())["expect"]


@pytest.mark.parametrize(
    "text",
    ["not json", "[]", '{"players": 3}', '{"players": [["OWL", "analyst"]]}'],
)
def test_malformed_scenarios_exit_2_with_one_line(
    text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["station", "adjudicate", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
