"""The Cards runner: plays bot seats after their delay, and a seat whose turn timer ran out.

Each table keeps `due_at`, the time its pending decision should be played automatically; the
runner polls for due tables (and is poked when one changes) and plays one move each through
`do_auto_move`, which takes the table's writer lock, so it is safe beside the players' own moves
and beside runners in other processes (the row version settles any race).
"""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.background import Loop, LoopWorker
from deaddrop.server.cards.models import CardsTable
from deaddrop.server.cards.runtime import CARDS_RUNNER, Runtime
from deaddrop.server.cards.service import do_auto_move
from deaddrop.server.db.base import utcnow
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.live.wakeup import wakeups_in

POLL_SECONDS = 0.25
BATCH = 50
logger = logging.getLogger("deaddrop.server.cards")


class CardsRunner(LoopWorker):
    """Plays every due automatic move, now and whenever poked."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], runtime: Runtime) -> None:
        self.sessionmaker = sessionmaker
        self.runtime = runtime
        self._loop = Loop(logger, "the Cards runner", POLL_SECONDS)

    async def run_due(self, now: datetime | None = None) -> int:
        """Play one move on every table due at `now`; returns how many were played."""
        now = now or utcnow()
        async with self.sessionmaker() as db:
            ids = list(
                await db.scalars(
                    select(CardsTable.id)
                    .where(CardsTable.status == "playing", CardsTable.due_at <= now)
                    .order_by(CardsTable.due_at)
                    .limit(BATCH)
                )
            )
        played = 0
        for table_id in ids:
            # Refused: a person's move or another runner got there first.
            async with self.sessionmaker() as db:
                with contextlib.suppress(Refused):
                    played += await do_auto_move(db, self.runtime, table_id, now)
        return played

    async def run_forever(self) -> None:
        """Poll until stopped (woken when a write sets a due time); a failure is logged and the
        loop goes on."""
        wakeups = wakeups_in(self.sessionmaker)
        wakeups.on_due(CARDS_RUNNER, self.wake)
        try:
            await self._loop.run(self.one_pass)
        finally:
            wakeups.off_due(CARDS_RUNNER, self.wake)

    async def one_pass(self) -> float:
        """Play what is due; look again soon."""
        await self.run_due()
        return POLL_SECONDS
