"""Background work, wired one way: named jobs (the Pouch runner, the Station bot runner, the
Cards runner, the mailer, the purge) run side by side until stopped, in `deaddrop serve` and in
`deaddrop worker` alike.

Each job is a worker built on `background.Loop`: it runs passes until stopped, and a wake-up
cuts its sleep short. Stopping lets a pass in progress finish (a Pouch or a mail is committed,
not cut off); what has not finished within `STOP_SECONDS` is cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.background import Loop, LoopWorker
from deaddrop.server.cards.runner import CardsRunner
from deaddrop.server.cards.runtime import Runtime
from deaddrop.server.clock import Clock
from deaddrop.server.db.store import DatabaseStore
from deaddrop.server.mail.mailer import Mailer
from deaddrop.server.mail.settings import MailSettings
from deaddrop.server.settings import Settings
from deaddrop.server.station.bot_seats.runner import BOT_RUNNER, BotRunner, BotTiming
from deaddrop.server.station.play.pouch_runner import PouchRunner

STOP_SECONDS = 5
"""How long a stop waits for the passes in progress before it cancels them."""
PURGE_EVERY_SECONDS = 3600
logger = logging.getLogger("deaddrop.server")


class Worker(Protocol):
    """What a job runs: passes until stopped, woken early on demand."""

    async def run_forever(self) -> None:
        """Run passes until `stop`."""
        ...

    def wake(self) -> None:
        """Run the next pass now."""
        ...

    def stop(self) -> None:
        """End after the current pass."""
        ...


@dataclass(frozen=True)
class Job:
    """A worker and its name (an identifier: the app keeps each worker in `app.state.<name>`)."""

    name: str
    worker: Worker


class Jobs:
    """The background jobs of one process."""

    def __init__(self, jobs: Sequence[Job]) -> None:
        self.jobs = tuple(jobs)

    def names(self) -> list[str]:
        """The jobs by name, in the order they start."""
        return [job.name for job in self.jobs]

    def wake(self) -> None:
        """Wake every job (the clock jumped: whatever is due now, do it now)."""
        for job in self.jobs:
            job.worker.wake()

    def stop(self) -> None:
        """Ask every job to stop after its current pass."""
        for job in self.jobs:
            job.worker.stop()

    async def run(self) -> None:
        """Run every job until all have stopped."""
        await asyncio.gather(*(job.worker.run_forever() for job in self.jobs))

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Run the jobs in the background for the duration of the block, then stop them."""
        tasks = [asyncio.create_task(job.worker.run_forever(), name=job.name) for job in self.jobs]
        try:
            yield
        finally:
            self.stop()
            if tasks:
                await asyncio.wait(tasks, timeout=STOP_SECONDS)
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task


class Purge(LoopWorker):
    """Deletes expired sessions and throttle counters (already ignored on read): reclaims space."""

    def __init__(self, store: DatabaseStore) -> None:
        self.store = store
        self._loop = Loop(logger, "purging expired entries", PURGE_EVERY_SECONDS)

    async def one_pass(self) -> float:
        """Purge what has expired; again in an hour."""
        removed = await self.store.delete_expired()
        if removed:
            logger.info("purged %d expired session and throttle entries", removed)
        return PURGE_EVERY_SECONDS


@dataclass(frozen=True)
class Wanted:
    """Which jobs a process runs (tests that drive a job themselves leave it out)."""

    pouch_runner: bool = True
    cards_runner: bool = True
    mailer: bool = True
    purge: bool = True
    bot_runner: bool = True


def standard_jobs(
    sessionmaker: async_sessionmaker[AsyncSession],
    clock: Clock,
    mail: MailSettings,
    cards: Runtime,
    wanted: Wanted = Wanted(),
    bot_timing: BotTiming | None = None,
) -> list[Job]:
    """The jobs of a server or a worker: the mailer only when SMTP is configured."""
    jobs: list[Job] = []
    if wanted.purge:
        jobs.append(Job("purge", Purge(DatabaseStore(sessionmaker, "sessions"))))
    if wanted.pouch_runner:
        jobs.append(Job("pouch_runner", PouchRunner(sessionmaker, clock)))
    if wanted.bot_runner:
        jobs.append(Job(BOT_RUNNER, BotRunner(sessionmaker, clock, bot_timing or BotTiming())))
    if wanted.cards_runner:
        jobs.append(Job("cards_runner", CardsRunner(sessionmaker, cards)))
    if wanted.mailer and mail.enabled:  # digests and reminders, only with SMTP_HOST
        jobs.append(Job("mailer", Mailer(sessionmaker, clock, mail)))
    return jobs


def bot_timing(settings: Settings) -> BotTiming:
    """The bot runner's timing with the configured decision interval (BOT_DECISION_SECONDS)."""
    return BotTiming(min_interval=timedelta(seconds=settings.bot_decision_seconds))
