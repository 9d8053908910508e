"""The load sets its own heap aside during a measured run, so that its collector's full
collections cannot pause it (and count as the server's latency), and frees it after."""

from __future__ import annotations

import gc

import pytest

from deaddrop.benchmarks.http.load_collector import run_measured


def test_a_measured_run_sets_the_loads_heap_aside_and_frees_it_after() -> None:
    held = [{"seat": n} for n in range(1000)]  # what the load holds before the run
    assert gc.get_freeze_count() == 0

    async def run() -> int:
        # Everything held before the run is out of the collector's way, the run's own is not.
        made_in_the_run = [[n] for n in range(10)]
        assert gc.get_freeze_count() >= len(held)
        assert gc.is_tracked(made_in_the_run[0])
        return len(made_in_the_run)

    assert run_measured(run()) == 10
    assert gc.get_freeze_count() == 0


def test_a_failing_run_frees_the_heap_too() -> None:
    async def run() -> None:
        raise RuntimeError("the server went away")

    with pytest.raises(RuntimeError):
        run_measured(run())
    assert gc.get_freeze_count() == 0
