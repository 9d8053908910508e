"""`deaddrop station bench`: the engine's adjudication rate beside the plain adjudicator's."""

from __future__ import annotations

from pathlib import Path

import pytest

from deaddrop.cli import main
from tests.commands.cli_output import one_json_object

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "station"


def test_json_gives_both_rates_and_their_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["station", "bench", str(SCENARIOS), "--rounds", "2", "--seconds", "0.01", "--json"]
    data = one_json_object(capsys, args)
    assert list(data) == ["games_per_s", "pouches_per_s", "plain_games_per_s", "engine_to_plain"]
    assert data["games_per_s"] > 0 and data["plain_games_per_s"] > 0
    assert data["engine_to_plain"] == pytest.approx(
        data["games_per_s"] / data["plain_games_per_s"], rel=0.01
    )


def test_text_names_the_plain_adjudicator_beside_the_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["station", "bench", str(SCENARIOS), "--rounds", "1", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "plain adjudicator, games/s" in out
    assert "x the plain adjudicator's" in out
