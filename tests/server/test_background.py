"""The background workers' loop: a wake-up during a pass is kept, a stop ends it, a failing
pass is retried."""

from __future__ import annotations

import asyncio
import logging

import pytest

from deaddrop.server.background import Loop

LOGGER = logging.getLogger("tests.background")


async def test_a_wake_up_during_a_pass_runs_the_next_pass_at_once() -> None:
    loop = Loop(LOGGER, "test", retry_seconds=60)
    passes = 0

    async def one_pass() -> float:
        nonlocal passes
        passes += 1
        if passes == 1:
            loop.wake()  # e.g. an early Pouch became due while this pass ran
        if passes == 2:
            loop.stop()
        return 60.0  # without the kept wake-up, the second pass would come a minute later

    await asyncio.wait_for(loop.run(one_pass), 5)
    assert passes == 2


async def test_a_stop_ends_the_loop_without_a_last_sleep() -> None:
    loop = Loop(LOGGER, "test", retry_seconds=60)

    async def one_pass() -> float:
        loop.stop()
        return 3600.0

    await asyncio.wait_for(loop.run(one_pass), 5)
    assert loop.stopping


async def test_a_stop_cuts_a_sleep_short() -> None:
    loop = Loop(LOGGER, "test", retry_seconds=60)
    task = asyncio.create_task(loop.run(lambda: asyncio.sleep(0, 3600.0)))
    await asyncio.sleep(0.05)
    loop.stop()
    await asyncio.wait_for(task, 5)


async def test_a_failing_pass_is_logged_and_retried(caplog: pytest.LogCaptureFixture) -> None:
    loop = Loop(LOGGER, "test", retry_seconds=0.01)
    passes = 0

    async def one_pass() -> float:
        nonlocal passes
        passes += 1
        if passes == 1:
            raise RuntimeError("the database went away")
        loop.stop()
        return 0.0

    with caplog.at_level(logging.ERROR, logger="tests.background"):
        await asyncio.wait_for(loop.run(one_pass), 5)
    assert passes == 2
    assert "test pass failed; retrying" in caplog.text
