"""`deaddrop station bench-bots`: each registered level's decision time per seat-day, measured
around the bot call alone, and games/s; any level of the registry, none other."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from deaddrop.bots.station import random_bot, registry
from deaddrop.bots.station.base import DayPlan
from deaddrop.cli import main
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.claims import Post
from deaddrop.station_sim import bench_bots
from tests.commands.cli_output import one_json_object, refused_in_one_line


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    data = one_json_object(capsys, ["station", "bench-bots", *args, "--json"])
    assert list(data) == ["levels"]
    levels: list[dict[str, Any]] = data["levels"]
    return levels


def test_every_registered_level_is_timed_random_first(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def counted(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
        calls.append(1)
        return random_bot.plan_day(seen, posts, rng)

    monkeypatch.setitem(registry.LEVELS, "counted", counted)  # a level added to the registry
    levels = _json(capsys, "--players", "7", "--games", "2", "--rounds", "2")
    assert [entry["level"] for entry in levels] == bench_bots.default_levels()
    assert levels[0]["level"] == "random" and "counted" in bench_bots.default_levels()
    counted_entry = next(entry for entry in levels if entry["level"] == "counted")
    # Every seat-day's bot call is one sample, each round replaying the same games.
    assert counted_entry["seat_days"] * 2 == len(calls)
    for entry in levels:
        assert list(entry) == [
            "level",
            "players",
            "games",
            "rounds",
            "seat_days",
            "decision_ms",
            "games_per_s",
            "games_per_s_rounds",
        ]
        assert (entry["players"], entry["games"], entry["rounds"]) == (7, 2, 2)
        assert 0 < entry["decision_ms"]["median"] <= entry["decision_ms"]["p99"]
        assert len(entry["games_per_s_rounds"]) == 2 and entry["games_per_s"] > 0


def test_the_time_is_of_the_bot_call_alone() -> None:
    ticks = iter(range(0, 300, 3))  # every clock reading 3 s after the one before
    seconds: list[float] = []
    decide = bench_bots.timed(random_bot.plan_day, seconds, clock=lambda: next(ticks))
    decide(_one_seat_view(), [], Rng.from_seed(1))
    # One reading just before the call and one just after it: nothing else is timed.
    assert seconds == [3]


def _one_seat_view() -> Mapping[str, Any]:
    """A real seat's view, as the simulator gives it to a bot."""
    from deaddrop.engine.station.setup import Setup, start
    from deaddrop.station_sim.simulate import seen_by

    return seen_by(start(Setup(tuple(f"p{i}" for i in range(6)), 1)), 0)


def test_the_table_has_a_row_per_level_beside_the_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["station", "bench-bots", "--players", "6", "--games", "2", "--rounds", "1"]
    assert main([*args, "--levels", "random,heuristic"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    lines = captured.out.splitlines()
    assert lines[0].startswith("6 players, 2 games a round, 1 rounds")
    assert lines[1].split()[:4] == ["level", "seat-days", "median", "ms"]
    assert [line.split()[0] for line in lines[2:]] == ["random", "heuristic"]
    assert "1.0x the time, 1.00x the games/s" in lines[2]


def test_an_unknown_level_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["station", "bench-bots", "--games", "1", "--levels", "random,nope"]
    refused_in_one_line(capsys, argv, "unknown bot level 'nope'")
