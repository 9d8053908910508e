"""`deaddrop cards simulate`: seating, tallies, the JSON shape and the Wilson interval."""

from __future__ import annotations

import json
from collections import Counter
from math import sqrt

import pytest

from deaddrop.cards_sim.simulate import seating, simulate
from deaddrop.cli import main
from deaddrop.stats import Z95, percentile, wilson


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["cards", "simulate", *args, "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress bar with --json
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1  # exactly one object
    data: dict[str, object] = json.loads(lines[0])
    return data


def test_json_shape_is_exact_and_results_follow_the_bots_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("--players", "3", "--bots", "random,heuristic", "--games", "12", "--seed", "4")
    data = _json(capsys, *args)
    assert list(data) == ["players", "games", "seed", "games_per_s", "voided_rounds", "results"]
    assert (data["players"], data["games"], data["seed"]) == (3, 12, 4)
    assert isinstance(data["games_per_s"], float) and data["games_per_s"] > 0
    assert data["voided_rounds"] == 0
    results = data["results"]
    assert isinstance(results, list)
    assert [entry["bot"] for entry in results] == ["random", "heuristic"]
    for entry in results:
        assert list(entry)[:4] == ["bot", "wins", "win_rate", "ci95"]
        low, high = entry["ci95"]
        assert 0.0 <= low <= entry["win_rate"] <= high <= 1.0
        assert entry["win_rate"] == entry["wins"] / entry["games"]
        assert (low, high) == pytest.approx(wilson(entry["wins"], entry["games"]))
    assert sum(entry["wins"] for entry in results) == 12  # nothing abandoned here
    assert results[0]["failed_grabs"] > 0 and results[1]["failed_grabs"] == 0


def test_a_run_is_repeatable_from_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--players", "2", "--bots", "random,random,heuristic", "--games", "9")
    first = _json(capsys, *args, "--seed", "7")
    again = _json(capsys, *args, "--seed", "7")
    other = _json(capsys, *args, "--seed", "8")
    assert first["results"] == again["results"]
    assert first["results"] != other["results"]


def test_seating_rotates_so_every_bot_sits_everywhere_equally() -> None:
    for bots, players in [(3, 4), (2, 3), (3, 2), (1, 4), (4, 4)]:
        at = Counter(
            (seat, bot) for g in range(bots) for seat, bot in enumerate(seating(bots, players, g))
        )
        assert set(at.values()) == {1}
        assert len(at) == players * bots  # each seat meets every bot once per cycle of B games
    assert seating(3, 4, 0) == [0, 1, 2, 0]
    assert seating(3, 4, 1) == [1, 2, 0, 1]
    assert seating(3, 2, 2) == [2, 0]


def test_the_turn_cap_voids_rounds_and_the_count_is_reported(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("--players", "4", "--bots", "heuristic", "--games", "2", "--turn-cap", "2")
    data = _json(capsys, *args)
    assert isinstance(data["voided_rounds"], int) and data["voided_rounds"] > 0


def test_same_bot_twice_shares_the_wins_fairly() -> None:
    report = simulate(2, ["random", "random"], 400, 3)
    first, second = report.tallies
    assert first.wins + second.wins == 400
    low, high = wilson(first.wins, first.games)
    assert low < 0.5 < high


def test_text_output_has_the_table_and_the_totals(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["cards", "simulate", "--players", "2", "--bots", "heuristic,random", "--games", "6"]
    assert main(args) == 0
    out = capsys.readouterr().out
    for text in ("heuristic", "random", "win rate", "95% CI", "failed", "grabs", "rounds/game"):
        assert text in out
    assert "turns/game" in out and "voided rounds 0" in out and "games/s" in out


def test_unknown_bots_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "simulate", "--bots", "random,oracle", "--json"]) == 2
    assert "unknown bot 'oracle'" in capsys.readouterr().err


def test_wilson_interval_solves_its_defining_equation() -> None:
    # The Wilson bounds are the p with (p̂ − p)² = z² p (1 − p) / n.
    for wins, games in [(1, 10), (5, 10), (37, 200), (1999, 2000), (700, 2000)]:
        rate = wins / games
        for p in wilson(wins, games):
            assert (rate - p) ** 2 == pytest.approx(Z95**2 * p * (1 - p) / games, abs=1e-12)


def test_wilson_interval_known_values_and_edges() -> None:
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    half = wilson(1000, 2000)
    assert half[1] - half[0] == pytest.approx(2 * Z95 * sqrt(0.25 / 2000), rel=1e-3)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_percentile_interpolates() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == pytest.approx(50.5)
    assert percentile(values, 99) == pytest.approx(99.01)
    assert percentile([2.0], 99) == 2.0
