"""The Pouch runner: resolve every game whose deadline has passed, exactly once per day.

Claim → resolve → store → commit → publish, one transaction per (game, day) or per batch:

- **Claim.** On PostgreSQL the due game's row is taken with `SELECT … FOR UPDATE SKIP LOCKED`,
  so concurrent runners spread over games instead of queueing on one. Everywhere (SQLite has
  no row locks) the write itself is conditional: the game row's `row_version` must still be
  the one read, the log entry's key (game, seq) must be free, and the `station_pouches` row
  is unique per (game, day). A runner that loses any of these races rolls back and moves on.
- **Crash-safe.** Nothing is visible before the commit; a runner that dies between claim and
  commit leaves the game as it was, still due, for the next pass of any runner.
- **Catch-up.** The next deadline is computed from the deadline that passed, not from now,
  so after downtime each missed day resolves in order, once, until the game is current.
- **Waves.** Many games due at once go a batch per transaction (play/pouch_batch.py), all
  or nothing per batch; a batch that fails goes back to one game per transaction.
- **Early Pouch (S41).** A save that makes every living player done moves the deadline to
  now (play/service.do_act) and, once committed, wakes the runners of its process
  (`Wakeups.due(POUCH_RUNNER)`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.background import DatabaseWorker, Loop
from deaddrop.server.clock import Clock
from deaddrop.server.hosting.transaction import Conflict
from deaddrop.server.live.wakeup import wakeups_in
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.game.store import load_state, write_to
from deaddrop.server.station.game.writes import (
    announce,
)
from deaddrop.server.station.host import table_limits
from deaddrop.server.station.host.service import resume
from deaddrop.server.station.play.pouch_batch import BatchResolver, BeforeCommit
from deaddrop.server.station.play.pouch_day import stage_pouch
from deaddrop.server.station.play.pouch_due import POUCH_RUNNER

logger = logging.getLogger("deaddrop.station.runner")

BATCH = 50
"""Due games looked at per pass."""
MAX_PASSES = 1000
"""Bound on passes per `run_once` (each resolves at least one Pouch, or the loop stops)."""
POLL_SECONDS = 30.0
"""Longest sleep: other processes may move deadlines without waking this one."""
RETRY_SECONDS = 1.0
"""Sleep when a due game was held by someone else (a player's save, another runner)."""


class PouchRunner(DatabaseWorker):
    """Resolves due Pouches and ends expired pauses; safe to run in many processes at once."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Clock,
        *,
        name: str | None = None,
        before_commit: BeforeCommit | None = None,
    ) -> None:
        super().__init__(sessionmaker, clock, name, Loop(logger, "Pouch runner", POLL_SECONDS))
        # The wake-ups of the app whose sessionmaker this is: its saves tell it of due Pouches.
        self.wakeups = wakeups_in(sessionmaker)
        self.before_commit = before_commit
        self.batches = BatchResolver(sessionmaker, clock, self.name, before_commit)

    async def run_once(self) -> int:
        """Resolve everything due now, catching up missed days; returns the Pouches resolved."""
        # A wave of due games goes a batch per transaction; what is left (pauses run out,
        # games a batch could not take) goes one game at a time.
        resolved = await self.batches.run(self.step_each)
        for _ in range(MAX_PASSES):
            done, progressed = await self.step_each(await self.due_games())
            resolved += done
            if not progressed:
                break
        return resolved

    async def step_each(self, due: Sequence[int]) -> tuple[int, bool]:
        """`step` each game in turn: (Pouches resolved, whether any game moved on)."""
        resolved = 0
        progressed = False
        for game_id in due:
            try:
                outcome = await self.step(game_id)
            except Exception:
                # One broken game must not stop the others; it stays due and is retried.
                logger.exception("resolving game %s failed; it stays due", game_id)
                continue
            if outcome is not None:
                progressed = True
                resolved += outcome == "pouch"
        return resolved, progressed

    async def run_forever(self) -> None:
        """Run passes until cancelled, sleeping until the next deadline or a wake-up."""
        with self.wakeups.listening(POUCH_RUNNER, self.wake):
            await self._loop.run(self.one_pass)

    async def one_pass(self) -> float:
        """Resolve what is due; sleep until the next deadline."""
        await self.run_once()
        return await self.seconds_to_next()

    async def due_games(self) -> list[int]:
        """Games whose Pouch is due or whose pause has run out, most overdue first."""
        now = self.clock.now()
        async with self.sessionmaker() as db:
            rows = await db.scalars(
                select(StationGame.id)
                .where(_due(now))
                .order_by(func.coalesce(StationGame.deadline, StationGame.pause_ends_at))
                .limit(BATCH)
            )
            return list(rows)

    async def seconds_to_next(self) -> float:
        """How long until the next deadline or pause end (capped by the poll interval)."""
        async with self.sessionmaker() as db:
            deadline = await db.scalar(
                select(func.min(StationGame.deadline)).where(StationGame.status == "running")
            )
            pause_end = await db.scalar(
                select(func.min(StationGame.pause_ends_at)).where(StationGame.status == "paused")
            )
        moments = [m for m in (deadline, pause_end) if m is not None]
        if not moments:
            return POLL_SECONDS
        wait = (min(moments) - self.clock.now()).total_seconds()
        if wait <= 0:
            return RETRY_SECONDS  # due but held by another writer: look again shortly
        return min(POLL_SECONDS, wait)

    async def step(self, game_id: int) -> str | None:
        """Claim one due game and move it on: "pouch", "resumed", or None if not ours."""
        async with self.sessionmaker() as db:
            now = self.clock.now()
            game = await db.scalar(
                select(StationGame)
                .where(StationGame.id == game_id, _due(now))
                .with_for_update(skip_locked=True)  # PostgreSQL; SQLite relies on row_version
                .execution_options(populate_existing=True)
            )
            if game is None:
                return None  # resolved, moved or locked by someone else meanwhile
            if game.status == "paused":
                return await self._end_pause(db, game)
            return await self._resolve(db, game)

    async def _end_pause(self, db: AsyncSession, game: StationGame) -> str | None:
        """A pause that ran out ends by itself at its limit (table_limits.MAX_PAUSE)."""
        assert game.pause_ends_at is not None
        resume(game, game.pause_ends_at)
        hours = int(table_limits.MAX_PAUSE.total_seconds() // 3600)
        text = f"The pause ran out after {hours} hours; the clock runs."
        write = write_to(db, game)
        write.journal([announce(db, game, "pause_expired", text)])
        try:
            await write.commit()
        except Conflict:
            return None
        return "resumed"

    async def _resolve(self, db: AsyncSession, game: StationGame) -> str | None:
        """Resolve today's Pouch (S20) and schedule the next day, in this transaction."""
        state = await load_state(db, game)
        staged = stage_pouch(db, game, state, self.clock.now(), self.name)
        if self.before_commit is not None:
            await self.before_commit(game, staged.day)
        public_id = game.public_id
        try:
            await staged.write.commit()
        except Conflict:
            logger.info("game %s day %d: another writer got there first", public_id, staged.day)
            return None
        logger.info("game %s: Pouch of day %d resolved by %s", public_id, staged.day, self.name)
        return "pouch"


def _due(now: datetime) -> ColumnElement[bool]:
    """A running game past its deadline, or a paused one past its pause's end."""
    return or_(
        and_(StationGame.status == "running", StationGame.deadline <= now),
        and_(StationGame.status == "paused", StationGame.pause_ends_at <= now),
    )
