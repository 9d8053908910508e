"""`deaddrop cards bench`: figures printed side by side, never a pass/fail."""

from __future__ import annotations

import json

import pytest

from deaddrop.cli import main

QUICK = ["--runs", "1", "--seconds", "0.05", "--expert-games", "1", "--search-games", "1"]


def test_bench_json_holds_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "bench", "--players", "2,3", *QUICK, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [f["players"] for f in data["figures"]] == [2, 3]
    for figures in data["figures"]:
        assert figures["random_games_per_s"] > 0 and figures["engine_games_per_s"] > 0
        assert set(figures["posterior_updates_per_s"]) == {"uniform", "consistent"}
        assert all(rate > 0 for rate in figures["posterior_updates_per_s"].values())
        times = figures["expert_decision_ms"]
        assert 0 < times["median"] <= times["p99"]
        assert figures["expert_decisions"] > 0
        searched = figures["search_decision_ms"]
        assert set(searched) == {"master", "ismcts"}
        assert all(0 < t["median"] <= t["p99"] and t["decisions"] > 0 for t in searched.values())
        assert all(t["p99_cpu"] > 0 for t in searched.values())  # the bot's own work


def test_bench_text_prints_the_figures_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "bench", "--players", "2,4", *QUICK]) == 0
    out = capsys.readouterr().out
    for text in ("2 players", "4 players", "random-bot games/s", "engine alone", "posterior"):
        assert text in out
    assert "expert decision, median ms" in out and "expert decision, p99 ms" in out
    assert "master decision, p99 ms" in out and "ismcts decision, median ms" in out
    assert "master decision, p99 CPU ms" in out
    assert "pass" not in out.replace("pass/fail", "")


def test_bench_refuses_a_bad_player_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "bench", "--players", "2,5"]) == 2
    assert "--players" in capsys.readouterr().err
