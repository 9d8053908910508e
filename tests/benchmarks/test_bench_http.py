"""`deaddrop bench http` end to end at a tiny size: every phase runs and its figures have the
right shape (never how fast: these are checks of the harness, not of the server's speed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deaddrop.benchmarks.http.cpu_caps import CannotCap, this_machines_controller
from tests.server.conftest import postgres_url_or_skip, redis_url_or_skip

TINY = [
    "--quick",
    "--games", "2",
    "--seconds", "2",
    "--warmup", "1",
    "--rates", "5",
    "--open-seconds", "1",
    "--streams", "20",
    "--interval", "1",
    "--rounds", "1",
    "--live-grace", "60",
    "--waves", "3",
]  # fmt: skip
# A warm-up of a second lets the first, cold requests (a PostgreSQL pool opening) finish
# before the window, so that each kind completes some requests in it even on a busy machine.
HANG_GUARD_SECONDS = 1800
"""Only a hung run is stopped; a slow machine may take minutes."""


def bench(var_dir: Path, *extra: str) -> dict[str, Any]:
    """Run the command in its own process (it pins itself to a core) and read its JSON."""
    command = [sys.executable, "-m", "deaddrop.cli", "bench", "http", *TINY, *extra]
    command += ["--var-dir", str(var_dir), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr[-4000:]
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def check_figures(data: dict[str, Any]) -> None:
    """Every phase gave figures of the expected shape."""
    results = data["results"]
    saturation = results["saturation"]
    kinds = {"floor", "cable", "vote", "post", "icon", "hello", "page", "save", "shared"}
    assert set(saturation) == kinds
    for kind, runs in saturation.items():
        assert len(runs) == 1 and runs[0]["done"] > 0, kind
        # Every post is stored: the servers' flood limit is lifted for the bench.
        assert set(runs[0]["outcomes"]) == {"200"}, (kind, runs[0]["outcomes"])
        assert 0 <= runs[0]["p50_ms"] <= runs[0]["p99_ms"]
    # Every run but the bare hello's own is paired with a bare hello run right after it.
    paired = results["paired_hello"]
    assert set(paired) == kinds - {"hello"}
    assert all(len(rates) == 1 and rates[0] > 0 for rates in paired.values())
    for target in ("deaddrop", "bare"):
        (run,) = results["open_loop"][target]
        assert run["rate"] == 5 and run["sent"] == 5
        assert sum(run["outcomes"].values()) + run["unanswered"] == run["sent"]
        (step,) = results["live"][target]
        assert step["streams"] == 20 and step["connected"] == 20
        assert step["posts"] == 2 and step["failed_posts"] == {}
        assert step["deliveries"] == 2 * 10  # each game's post, to its ten readers
        assert step["rss_bytes"] > 0 and step["push_bytes_median"] > 0
    (wave,) = results["waves"]
    assert wave["games"] == 3 and wave["resolved"] == 3 and wave["exactly_once"]


def test_bench_http_on_sqlite(tmp_path: Path) -> None:
    """The whole harness on a SQLite file."""
    data = bench(tmp_path)
    assert data["plan"]["database"] == "sqlite"
    check_figures(data)
    assert (tmp_path / "world.json").is_file()


@pytest.mark.services
def test_bench_http_on_postgresql(tmp_path: Path) -> None:
    """The whole harness on PostgreSQL, with one and two workers for the wave."""
    url = postgres_url_or_skip()
    data = bench(tmp_path, "--database", url, "--wave-workers", "2")
    assert data["plan"]["wave_workers"] == [2]
    check_figures(data)


@pytest.mark.services
def test_bench_http_two_processes_on_postgresql_and_redis(tmp_path: Path) -> None:
    """Two server processes: the load is spread over both, each post reaches the readers of
    both (through Redis), and the scale phase compares one process with both (each held to
    half a core where this machine's cgroups allow it)."""
    url, redis_url = postgres_url_or_skip(), redis_url_or_skip()
    extra = ["--database", url, "--processes", "2", "--redis", redis_url]
    share = ["--server-share", "0.5"] if cgroups_writable() else []
    data = bench(tmp_path, *extra, *share, "--phases", "saturate,live,scale")
    assert data["plan"]["processes"] == 2
    results = data["results"]
    assert set(results["scaling"]) == {"floor", "cable", "vote", "post"}
    for kind, (run,) in results["scaling"].items():
        # Twenty writers on two games from two processes: a save that keeps losing the race
        # to the other process is refused as such (409, "try again"), never a 500.
        allowed = {"200", "409"} if kind in ("vote", "post") else {"200"}
        for measured in (run["one"], run["several"]):
            assert measured["outcomes"].get("200", 0) > 0, kind
            assert set(measured["outcomes"]) <= allowed, (kind, measured["outcomes"])
    assert set(results["saturation"]["floor"][0]["outcomes"]) == {"200"}
    (step,) = results["live"]["deaddrop"]
    assert step["connected"] == 20 and step["failed_posts"] == {}
    assert step["deliveries"] == 2 * 10
    assert (tmp_path / "deaddrop-1.log").is_file()


def cgroups_writable() -> bool:
    """Whether this machine lets the run cap its servers' CPU (root, a cgroup CPU controller)."""
    try:
        controller = this_machines_controller()
    except CannotCap:
        return False
    return os.access(controller.directory, os.W_OK)
