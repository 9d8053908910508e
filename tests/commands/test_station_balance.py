"""`deaddrop station balance`: one level on every side at every table size, as a table, one
JSON object and a plot; a progress bar only for a terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deaddrop.cli import main
from deaddrop.station_sim import balance
from deaddrop.station_sim.simulate import simulate
from tests.commands.cli_output import one_json_object, refused_in_one_line
from tests.commands.test_station_simulate import KEYS


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    return one_json_object(capsys, ["station", "balance", *args, "--json"])


def test_json_holds_the_simulators_object_for_every_size(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "--bots", "heuristic", "--games", "3", "--seed", "4")
    assert list(data) == ["bots", "seed", "sizes"]
    assert (data["bots"], data["seed"]) == ("heuristic", 4)
    sizes = data["sizes"]
    assert [size["players"] for size in sizes] == [6, 7, 8, 9, 10]
    for size in sizes:
        assert list(size) == KEYS
        assert size["games"] == 3 == size["wins"]["station"] + size["wins"]["ring"]
        defector = "heuristic" if size["players"] in (8, 10) else None  # S1
        assert size["bots"] == {"station": "heuristic", "ring": "heuristic", "defector": defector}
    # Each size is exactly the simulator's run with that level on every side.
    expected = simulate(8, 3, 4, "heuristic", "heuristic", "heuristic").to_json()
    assert {k: v for k, v in sizes[2].items() if k != "games_per_s"} == {
        k: v for k, v in expected.items() if k != "games_per_s"
    }


def test_two_processes_give_every_size_the_same_counts(capsys: pytest.CaptureFixture[str]) -> None:
    def sizes(*jobs: str) -> list[dict[str, Any]]:
        data = _json(capsys, "--bots", "random", "--games", "4", "--seed", "9", *jobs)
        return [{k: v for k, v in size.items() if k != "games_per_s"} for size in data["sizes"]]

    assert sizes("--jobs", "2") == sizes()


def test_the_table_has_a_row_per_size_and_no_progress_bar_in_a_pipe(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["station", "balance", "--bots", "random", "--games", "2"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # stdout is no terminal here: no bar, nothing on stderr
    assert "\x1b[" not in captured.out  # nor any terminal control in the table
    lines = captured.out.splitlines()
    assert lines[0].startswith("random on every side, 2 games a size, seed 1")
    for words in ("players", "Station", "Ring", "95% interval", "Defector's", "Day 10", "games/s"):
        assert words in captured.out
    rows = [line.split("│")[1:-1] for line in lines if line.startswith("│")]
    assert [row[0].strip() for row in rows] == ["6", "7", "8", "9", "10"]
    defector = {row[0].strip(): row[6].strip() for row in rows}
    assert defector["6"] == defector["7"] == defector["9"] == "—"
    assert "%" in defector["8"] and "%" in defector["10"]


def test_a_terminal_gets_a_progress_bar_and_the_same_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[int, int]] = []
    quiet = balance.balance("heuristic", 2, 9, progress=lambda *step: seen.append(step))
    assert seen == [(players, done) for players in range(6, 11) for done in (1, 2)]
    shown = balance.balance_with_progress("heuristic", 2, 9, show=True)
    strip = [{k: v for k, v in r.items() if k != "games_per_s"} for r in (*quiet, *shown)]
    assert strip[:5] == strip[5:]


@pytest.mark.parametrize("name,magic", [("balance.png", b"\x89PNG\r\n"), ("balance.svg", b"<?xml")])
def test_plot_writes_png_or_svg_by_the_files_ending(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, magic: bytes
) -> None:
    path = tmp_path / name
    data = _json(capsys, "--bots", "heuristic", "--games", "2", "--plot", str(path))
    assert len(data["sizes"]) == 5
    content = path.read_bytes()
    assert content.startswith(magic)
    if name.endswith(".svg"):
        assert b"<svg" in content and b"heuristic" in content


@pytest.mark.parametrize(
    "args,message",
    [
        (["--bots", "nope"], "unknown bot level 'nope'"),
        (["--bots", "random", "--plot", "rates.jpg"], "must end in .png or .svg"),
    ],
)
def test_refusals_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    refused_in_one_line(capsys, ["station", "balance", "--games", "1", *args], message)
