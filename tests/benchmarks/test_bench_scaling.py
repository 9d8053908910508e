"""The scale phase: its runs in turn, its table, the command's refusals of it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console

from deaddrop.benchmarks.http.plan import Plan, Results
from deaddrop.benchmarks.http.report import print_tables
from deaddrop.benchmarks.http.requests import RequestMaker
from deaddrop.benchmarks.http.saturate import Saturation
from deaddrop.benchmarks.http.scaling import SCALE_KINDS, ScaleRun, measure_scaling
from deaddrop.benchmarks.http.servers import Server
from deaddrop.benchmarks.http.wire import Address
from deaddrop.benchmarks.http.world import Player, World
from deaddrop.cli import main
from deaddrop.commands.bench import stop_on_term


def _server(port: int) -> Server:
    return Server(subprocess.Popen(["true"]), Address("127.0.0.1", port))


def test_each_kind_is_warmed_on_all_then_measured_alone_and_together_in_turn() -> None:
    servers = [_server(8001), _server(8002)]
    seats = [Player("g", seat, f"C{seat}", "s", "t") for seat in range(10)]
    world = World("sqlite", "key", {"g": seats})
    calls: list[tuple[str, tuple[int, ...], int, int]] = []

    def measure(on: list[Server], maker: RequestMaker, kind: str, connections: int) -> Saturation:
        ports = tuple(address.port for address in maker.addresses)
        calls.append((kind, ports, len(on), connections))
        done = 100 * len(on)
        return Saturation(kind, 1.0, done, {"200": done}, server_cpu_percent=30.0 * len(on))

    def warm(on: Sequence[Server], _world: World, kind: str, connections: int) -> None:
        calls.append((kind, tuple(server.address.port for server in on), -1, connections))

    found = measure_scaling(servers, world, 10, 2, measure, lambda _line: None, warm)
    for server in servers:
        server.process.wait()
    assert list(found) == list(SCALE_KINDS)
    # Each server keeps its ten connections; each is warmed on them, then a run on all settles
    # them, unmeasured.
    alone, together = ("vote", (8001,), 1, 10), ("vote", (8001, 8002), 2, 20)
    votes = [call for call in calls if call[0] == "vote"]
    warmed = ("vote", (8001, 8002), -1, 10)
    assert votes == [warmed, together, alone, together, alone, together]
    assert [run.ratio for run in found["vote"]] == [2.0, 2.0]


def test_the_scaling_table_shows_each_kinds_ratio_and_cost() -> None:
    one = Saturation("vote", 10.0, 3000, {"200": 3000}, server_cpu_percent=30.0)
    two = Saturation("vote", 10.0, 5400, {"200": 5400}, server_cpu_percent=60.0)
    results = Results(cpus=2)
    results.scaling = {"vote": [ScaleRun(one, two)]}
    console = Console(record=True, width=200)
    print_tables(Plan(processes=2, server_share=0.3), results, console)
    text = console.export_text()
    # 30% of a core over 300 req/s: 1,000 µs a vote; 60% over 540: 1,111.
    for expected in ("vote POST", "300.0", "540.0", "1.80x", "1,000 / 1,111", "capped at 30%"):
        assert expected in text, expected


def test_an_uncapped_scaling_table_says_what_it_measures() -> None:
    run = Saturation("floor", 1.0, 10, {"200": 10})
    results = Results(cpus=2)
    results.scaling = {"floor": [ScaleRun(run, run)]}
    console = Console(record=True, width=200)
    print_tables(Plan(processes=2), results, console)
    assert "the ratio measures the machine" in console.export_text()


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--phases", "scale"], "--processes 2 or more"),
        (["--server-share", "0"], "share of one core"),
        (["--server-share", "1.5"], "share of one core"),
    ],
)
def test_the_command_refuses_a_scale_it_cannot_run(
    arguments: list[str], said: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["bench", "http", *arguments, "--var-dir", str(tmp_path)]) == 2
    assert said in capsys.readouterr().out


def test_a_sigterm_stops_a_run_as_ctrl_c_does() -> None:
    """So that the run's `finally` blocks stop its servers and remove their cgroups."""
    before = signal.getsignal(signal.SIGTERM)
    try:
        stop_on_term()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler runs between two instructions, long before this ends
    finally:
        signal.signal(signal.SIGTERM, before)
