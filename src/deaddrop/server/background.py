"""The loop every background worker runs (the Pouch runner, the mailer, the Cards runner): a
pass, then a sleep that a wake-up or a stop cuts short."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

    from deaddrop.server.clock import Clock

Pass = Callable[[], Awaitable[float]]
"""One pass of work; returns how many seconds to sleep before the next one."""


class Loop:
    """Runs passes until stopped; `wake` cuts the current (or the next) sleep short."""

    def __init__(self, logger: logging.Logger, what: str, retry_seconds: float) -> None:
        self.logger = logger
        self.what = what
        self.retry_seconds = retry_seconds
        self._wake = asyncio.Event()
        self._stopping = False

    @property
    def stopping(self) -> bool:
        """Whether `stop` was asked for."""
        return self._stopping

    def wake(self) -> None:
        """Run the next pass now; a wake-up during a pass is kept for right after it."""
        self._wake.set()

    def stop(self) -> None:
        """End the loop after its current pass (no query cut in half)."""
        self._stopping = True
        self._wake.set()

    async def run(self, one_pass: Pass) -> None:
        """Passes until stopped; a failing pass is logged and tried again after a pause."""
        while not self._stopping:
            # Cleared before the pass, not after: whatever wakes us during it still counts.
            self._wake.clear()
            try:
                delay = await one_pass()
            except Exception:
                self.logger.exception("%s pass failed; retrying", self.what)
                delay = self.retry_seconds
            if self._stopping:
                break  # asked to stop during the pass: no last sleep
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=max(0.0, delay))


class LoopWorker:
    """A background job on a `Loop`: `run_forever` runs its `one_pass` until `stop`, and `wake`
    runs the next pass now. A job sets `self._loop` and defines `one_pass`."""

    _loop: Loop

    async def one_pass(self) -> float:
        """One pass of the job's work; the seconds to sleep before the next one."""
        raise NotImplementedError

    async def run_forever(self) -> None:
        """Run passes until stopped; a failing pass is logged and tried again."""
        await self._loop.run(self.one_pass)

    def wake(self) -> None:
        """Run the next pass now (a wake-up during a pass is kept for right after it)."""
        self._loop.wake()

    def stop(self) -> None:
        """End after the current pass (nothing cut in half)."""
        self._loop.stop()


class DatabaseWorker(LoopWorker):
    """A job that claims work in the database by the clock: the Pouch runner, the bot runner,
    the mailer. Its `name` (default `worker_name()`) marks what it claims."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Clock,
        name: str | None,
        loop: Loop,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.clock = clock
        self.name = name or worker_name()
        self._loop = loop


def worker_name() -> str:
    """A background worker's name in the records it claims (Pouches, mails, bot decisions):
    host and process, so a claim says who took it and a stale one who let it go."""
    return f"{socket.gethostname()}:{os.getpid()}"[:64]
