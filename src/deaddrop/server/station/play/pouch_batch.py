"""The Pouch wave: many games due at once, resolved a batch per transaction.

A batch claims the most overdue running games in one query (`FOR UPDATE SKIP LOCKED` on
PostgreSQL, so that runners running at once take different batches instead of queueing on the
same rows), reads their logs in one query, stages each day (play/pouch_day.py), writes the
game rows with a few executemany UPDATEs (db/versioned.py) and the journal with one insert,
and commits once: a few statements and one commit per batch instead of a handful and a commit
per game.

Exactly once still holds: a batch is one transaction, so a crash before its commit stores none
of its days and leaves every game due for the next runner, and the commit checks each game
row's `row_version` and each Pouch record's (game, day) key as a single write does. A batch
that fails for any reason (a lost race, a broken game, a test's crash) is rolled back whole and
its games go one by one through the runner's single-game path, which isolates the culprit.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.server.clock import Clock
from deaddrop.server.db.versioned import update_versioned
from deaddrop.server.hosting.transaction import Conflict, commit_writes
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.game.store import load_states
from deaddrop.server.station.play.pouch_day import StagedPouch, stage_pouch

logger = logging.getLogger("deaddrop.station.runner")

BATCH = 200
"""Games per transaction: enough to spread a commit's cost, few enough that a SQLite write
lock (and a retried batch) stays short."""

BeforeCommit = Callable[[StationGame, int], Awaitable[None]]
"""A test hook run inside the transaction just before it commits: (game, day)."""
OneByOne = Callable[[Sequence[int]], Awaitable[tuple[int, bool]]]
"""The runner's single-game path: (Pouches resolved, whether anything moved)."""


class BatchResolver:
    """Resolves due running games a batch per transaction for one runner."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Clock,
        name: str,
        before_commit: BeforeCommit | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.clock = clock
        self.name = name
        self.before_commit = before_commit

    async def run(self, one_by_one: OneByOne) -> int:
        """Resolve batches until no due running game is left to claim; the Pouches resolved.

        A failed batch goes through `one_by_one` and is claimed by no later batch of this run
        (a broken game would fail every batch it joined): the runner's passes retry it.
        """
        resolved = 0
        failed: set[int] = set()
        while True:
            claimed, done = await self._batch(failed)
            if not claimed:
                return resolved
            if done is None:
                failed.update(claimed)
                done, _progressed = await one_by_one(claimed)
            resolved += done

    async def _batch(self, failed: set[int]) -> tuple[list[int], int | None]:
        """Claim and resolve one batch: (the game ids claimed, the Pouches stored, or None
        when the batch was rolled back)."""
        async with self.sessionmaker() as db:
            games = await _claim(db, self.clock.now(), failed)
            claimed = [game.id for game in games]
            if not games:
                return claimed, None
            try:
                staged = await self._stage(db, games)
                await update_versioned(db, games, locked=True)  # claimed FOR UPDATE
                await commit_writes(db, [pouch.write for pouch in staged])
            except (Conflict, StaleDataError):
                await db.rollback()  # another writer moved a game: nothing of the batch stored
                logger.info("a batch of %d Pouches lost a race; one game at a time", len(games))
                return claimed, None
            except Exception:
                # Nothing of the batch is stored; the single-game path tells the culprit.
                logger.exception("a batch of %d Pouches failed; one game at a time", len(games))
                await db.rollback()
                return claimed, None
        for game, pouch in zip(games, staged, strict=True):
            logger.info(
                "game %s: Pouch of day %d resolved by %s", game.public_id, pouch.day, self.name
            )
        return claimed, len(staged)

    async def _stage(self, db: AsyncSession, games: list[StationGame]) -> list[StagedPouch]:
        """Every claimed game's day resolved in this transaction, not committed."""
        states = await load_states(db, games)
        staged = []
        for game in games:
            pouch = stage_pouch(db, game, states[game.id], self.clock.now(), self.name)
            if self.before_commit is not None:
                await self.before_commit(game, pouch.day)
            staged.append(pouch)
        return staged


async def _claim(db: AsyncSession, now: datetime, failed: set[int]) -> list[StationGame]:
    """The most overdue running games (by the status-deadline index), locked on PostgreSQL
    and skipped there when another runner holds them."""
    query = (
        select(StationGame)
        .where(StationGame.status == "running", StationGame.deadline <= now)
        .order_by(StationGame.deadline)
        .limit(BATCH)
        .with_for_update(skip_locked=True)  # PostgreSQL; SQLite relies on row_version
    )
    if failed:
        query = query.where(StationGame.id.not_in(failed))
    return list(await db.scalars(query))
