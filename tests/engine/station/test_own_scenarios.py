"""The suite's own scenarios (tests/engine/station/scenarios): library and `adjudicate` CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deaddrop.cli import main
from deaddrop.engine.station.scenario import ScenarioError, adjudicate

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def test_the_own_scenarios_are_here() -> None:
    assert len(SCENARIOS) >= 15
    assert all(path.name.startswith("s") for path in SCENARIOS)  # named after a rule id


@pytest.mark.parametrize("path", SCENARIOS, ids=[path.stem for path in SCENARIOS])
def test_own_scenario_adjudicates_as_expected(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    expect = scenario["expect"]
    if "invalid" in expect:
        with pytest.raises(ScenarioError) as caught:
            adjudicate(scenario)
        assert (caught.value.rule, caught.value.line) == (expect["invalid"], expect["message"])
    else:
        assert adjudicate(scenario) == expect


@pytest.mark.parametrize("path", SCENARIOS, ids=[path.stem for path in SCENARIOS])
def test_own_scenario_through_the_command(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect = json.loads(path.read_text(encoding="utf-8"))["expect"]
    status = main(["station", "adjudicate", str(path)])
    out, err = capsys.readouterr()
    if "invalid" in expect:
        assert (status, out, err) == (2, "", expect["message"] + "\n")
    else:
        assert (status, err) == (0, "")
        assert json.loads(out) == expect
