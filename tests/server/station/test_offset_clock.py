"""The test-only offset clock: system time plus seconds read from a file, and its wake-ups."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from deaddrop.server.clock import Clock
from deaddrop.server.testing.clocks import CLOCK_FILE_VARIABLE, OffsetClock, write_offset


def test_is_a_clock_and_runs_with_the_system_without_a_file(tmp_path: Path) -> None:
    clock = OffsetClock(tmp_path / "offset")
    assert isinstance(clock, Clock)
    before = datetime.now(UTC)
    now = clock.now()
    assert now.tzinfo is not None
    assert before <= now <= datetime.now(UTC)
    assert clock.offset() == 0.0


def test_reads_the_offset_and_follows_each_change(tmp_path: Path) -> None:
    path = tmp_path / "offset"
    clock = OffsetClock(path)
    write_offset(path, 3600)
    assert clock.offset() == 3600.0
    assert clock.now() - datetime.now(UTC) > timedelta(minutes=59)
    clock.set_offset(7200.5)
    assert clock.offset() == 7200.5
    path.unlink()
    assert clock.offset() == 0.0


def test_garbage_keeps_the_last_good_offset(tmp_path: Path) -> None:
    path = tmp_path / "offset"
    clock = OffsetClock(path)
    write_offset(path, 60)
    assert clock.offset() == 60.0
    path.write_text("sixty\n", encoding="utf-8")
    assert clock.offset() == 60.0
    path.write_text("", encoding="utf-8")
    assert clock.offset() == 0.0


def test_only_the_environment_variable_turns_it_on(tmp_path: Path) -> None:
    assert OffsetClock.from_env({}) is None
    assert OffsetClock.from_env({CLOCK_FILE_VARIABLE: ""}) is None
    clock = OffsetClock.from_env({CLOCK_FILE_VARIABLE: str(tmp_path / "offset")})
    assert clock is not None
    assert clock.path == tmp_path / "offset"


async def test_watch_calls_back_on_a_jump_only(tmp_path: Path) -> None:
    path = tmp_path / "offset"
    clock = OffsetClock(path)
    jumps: list[float] = []
    jumped = asyncio.Event()

    def on_jump() -> None:
        jumps.append(clock.offset())
        jumped.set()

    watcher = asyncio.create_task(clock.watch(on_jump))
    try:
        await asyncio.sleep(0.3)
        assert jumps == []  # nothing changed, nobody woken
        clock.set_offset(300)
        await asyncio.wait_for(jumped.wait(), timeout=2)
        assert jumps == [300.0]
    finally:
        watcher.cancel()
