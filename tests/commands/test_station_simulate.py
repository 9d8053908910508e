"""`deaddrop station simulate`: the JSON shape, exact counts, determinism, and refusals."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from deaddrop.bots.station import random_bot, registry
from deaddrop.bots.station.base import DayPlan
from deaddrop.cli import main
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.claims import Post
from deaddrop.station_sim.simulate import simulate
from deaddrop.stats import wilson

KEYS = [
    "players",
    "games",
    "bots",
    "wins",
    "defector_wins",
    "win_rate",
    "ci95",
    "mean_days",
    "day10_share",
    "games_per_s",
]


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["station", "simulate", *args, "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1  # exactly one object
    data: dict[str, Any] = json.loads(lines[0])
    return data


def test_json_shape_is_exactly_the_issues_object(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--players", "8", "--station", "random", "--ring", "random", "--games", "30")
    data = _json(capsys, *args, "--seed", "5")
    assert list(data) == KEYS
    assert (data["players"], data["games"]) == (8, 30)
    assert data["bots"] == {"station": "random", "ring": "random", "defector": "random"}
    assert list(data["wins"]) == list(data["win_rate"]) == list(data["ci95"]) == ["station", "ring"]
    assert isinstance(data["games_per_s"], float) and data["games_per_s"] > 0


@pytest.mark.parametrize("players", [6, 8, 10])
def test_counts_are_exact_and_every_figure_follows_from_them(
    capsys: pytest.CaptureFixture[str], players: int
) -> None:
    data = _json(capsys, "--players", str(players), "--games", "25", "--seed", str(players))
    games, wins = data["games"], data["wins"]
    assert wins["station"] + wins["ring"] == games == 25
    for side in ("station", "ring"):
        assert isinstance(wins[side], int)
        assert data["win_rate"][side] == wins[side] / games
        assert data["ci95"][side] == list(wilson(wins[side], games))
    assert 0 <= data["defector_wins"] <= games
    if players == 6:
        assert data["defector_wins"] == 0 and data["bots"]["defector"] is None
    assert 1 <= data["mean_days"] <= 10
    assert (data["mean_days"] * games) == pytest.approx(round(data["mean_days"] * games))
    assert data["day10_share"] * games == pytest.approx(round(data["day10_share"] * games))


def test_a_seed_gives_the_same_run_and_another_seed_another(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def run(seed: str) -> dict[str, Any]:
        data = _json(capsys, "--players", "7", "--games", "12", "--seed", seed)
        del data["games_per_s"]  # the only figure that depends on the machine
        return data

    assert run("7") == run("7")
    assert simulate(7, 12, 7, "random", "random").to_json()["wins"] == run("7")["wins"]
    assert any(run(str(seed)) != run("7") for seed in (1, 2))


def test_games_in_two_processes_count_exactly_as_in_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def run(*jobs: str) -> dict[str, Any]:
        data = _json(capsys, "--players", "8", "--station", "heuristic", "--games", "16", *jobs)
        del data["games_per_s"]
        return data

    assert run("--jobs", "2") == run()


def test_s25_defector_wins_are_counted_at_a_defector_table() -> None:
    report = simulate(8, 60, 2, "random", "random")
    assert report.defector_wins > 0  # random votes recall the Defector now and then


def test_s42_bots_see_only_a_json_copy_of_their_view_and_seats_vary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen_roles: dict[int, set[str]] = {}

    def spy(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
        assert json.loads(json.dumps(seen)) == seen  # plain JSON, nothing else
        assert set(seen) <= {"day", "over", "winner", "defector_won", "roster", "cables"} | {
            "threshold", "votes", "done", "whispers_announced", "me", "ring"
        }  # fmt: skip
        me = seen["me"]
        position = [entry["codename"] for entry in seen["roster"]].index(me["codename"])
        seen_roles.setdefault(position, set()).add(me["role"])
        return random_bot.plan_day(seen, posts, rng)

    monkeypatch.setitem(registry.LEVELS, "spy", spy)
    simulate(7, 12, 3, "spy", "spy")
    assert len(seen_roles) == 7
    assert all(len(roles) > 1 for roles in seen_roles.values())  # the deal changes per game
    assert any("ringleader" in roles for roles in seen_roles.values())


def test_the_random_bot_acts_and_marks_done_in_simulated_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kinds: set[type] = set()

    def counting(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
        plan, rng = random_bot.plan_day(seen, posts, rng)
        kinds.update(type(action) for action in plan.actions)
        return plan, rng

    monkeypatch.setitem(registry.LEVELS, "counting", counting)
    simulate(9, 10, 1, "counting", "counting")
    assert {A.SaveOperation, A.SaveOrder, A.CastVote, A.SendWhisper, A.MarkDone} <= kinds


@pytest.mark.parametrize(
    "args,message",
    [
        (["--ring", "master"], "unknown bot level 'master' (known: expert, heuristic, random)"),
        (["--station", "Random"], "unknown bot level 'Random' (known: expert, heuristic, random)"),
        (["--defector", "nope", "--players", "8"], "unknown bot level 'nope'"),
        (["--defector", "random", "--players", "6"], "a table of 6 has no Defector"),
    ],
)
def test_an_unknown_level_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["station", "simulate", "--games", "1", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and len(captured.err.strip().splitlines()) == 1


def test_bad_numbers_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--games", "0"], ["--players", "5"], ["--players", "11"]):
        with pytest.raises(SystemExit) as exit_:
            main(["station", "simulate", *args])
        assert exit_.value.code == 2
    capsys.readouterr()


def test_the_report_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["station", "simulate", "--players", "10", "--games", "5", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("10 players, 5 games (Station random, Ring random, Defector random)")
    for words in ("95% interval", "Station", "Ring", "Defector's own wins (S25)"):
        assert words in out
    for words in ("mean game length", "Day 10 Pouch", "games/s"):
        assert words in out


@pytest.mark.parametrize("name,magic", [("rates.png", b"\x89PNG\r\n"), ("rates.SVG", b"<?xml")])
def test_plot_writes_png_or_svg_by_the_files_ending(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, magic: bytes
) -> None:
    path = tmp_path / name
    data = _json(capsys, "--players", "6", "--games", "4", "--plot", str(path))
    assert data["games"] == 4  # --json still prints the one object
    assert path.read_bytes().startswith(magic)
    if name.endswith("SVG"):
        assert b"<svg" in path.read_bytes()


@pytest.mark.parametrize("name,message", [("rates.jpg", "must end in .png or .svg")])
def test_plot_refuses_another_ending_or_folder_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, message: str
) -> None:
    for path, words in ((tmp_path / name, message), (tmp_path / "no" / "r.png", "no folder")):
        assert main(["station", "simulate", "--games", "1", "--plot", str(path)]) == 2
        captured = capsys.readouterr()
        assert words in captured.err and len(captured.err.strip().splitlines()) == 1
        assert captured.out == "" and not path.exists()


@pytest.mark.parametrize("station,ring", [("heuristic", "random"), ("random", "heuristic")])
def test_the_heuristic_level_plays_either_side(
    capsys: pytest.CaptureFixture[str], station: str, ring: str
) -> None:
    args = ("--players", "8", "--station", station, "--ring", ring, "--games", "6")
    data = _json(capsys, *args, "--seed", "4")
    assert data["bots"] == {"station": station, "ring": ring, "defector": station}
    assert data["wins"]["station"] + data["wins"]["ring"] == 6
    again = _json(capsys, *args, "--seed", "4")
    assert again["wins"] == data["wins"] and again["mean_days"] == data["mean_days"]
