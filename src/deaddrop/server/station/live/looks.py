"""Looks recorded many at once: a Floor message pushed to every open Floor page counts as each
reader's look at that tab (its badge stays clear), and so does a tab page loaded by its player
(tabs/routes.py); written in one statement per moment for the whole process, not a write and a
commit per reader or per page. Until written, this process's pages read them from here
(`seen_by`), so a player's next page never shows a badge for what they just looked at."""

from __future__ import annotations

import asyncio
import logging
import time

from sqlalchemy import case
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.db.upsert import insert_for
from deaddrop.server.live.turns import Turns
from deaddrop.server.station.tabs.seen_models import StationTabSeen

Sessions = async_sessionmaker[AsyncSession]
Look = tuple[int, int, str]
"""(game id, user id, tab)."""
GATHER_SECONDS = 0.05
"""How long the looks of one push are gathered before they are written together."""
KEEP_WRITTEN_SECONDS = 10.0
"""How long written looks still count here: a page that read the database just before a write
committed, and asks here just after, must still find them (see `Looks.seen_by`)."""
_log = logging.getLogger("deaddrop.server.live")


class Looks:
    """The looks waiting to be written for one app, furthest journal position per look."""

    def __init__(self, sessions: Sessions, turns: Turns) -> None:
        self.sessions, self.turns = sessions, turns
        self.waiting: dict[Look, int] = {}
        self.in_flight: dict[Look, int] = {}
        """The looks being written now: no longer waiting, not yet committed."""
        self.writing: asyncio.Task[None] | None = None
        # Written looks, per player, in two generations of at least KEEP_WRITTEN_SECONDS each.
        self.written: dict[tuple[int, int], dict[str, int]] = {}
        self.written_before: dict[tuple[int, int], dict[str, int]] = {}
        self.clock = time.monotonic
        self.generation_began = self.clock()

    def add(self, game_id: int, user_id: int, tab: str, seq: int) -> None:
        """Record (soon) that the player has seen `tab` up to `seq` (never moves back)."""
        key = (game_id, user_id, tab)
        self.waiting[key] = max(seq, self.waiting.get(key, 0))
        if self.writing is None or self.writing.done():
            self.writing = asyncio.create_task(self._write())

    def seen_by(self, game_id: int, user_id: int) -> dict[str, int]:
        """One player's looks not yet written, or written in the last KEEP_WRITTEN_SECONDS or
        more: {tab: furthest seq}. A reader reads the database, then asks here: a look
        committed in between is in neither unless written ones still count here a while.
        Since looks only move forward, a written one counted again changes no furthest seq."""
        player = (game_id, user_id)
        found = dict(self.written_before.get(player, {}))
        for tab, seq in self.written.get(player, {}).items():
            found[tab] = max(seq, found.get(tab, 0))
        for looks in (self.in_flight, self.waiting):
            for (game, user, tab), seq in looks.items():
                if game == game_id and user == user_id:
                    found[tab] = max(seq, found.get(tab, 0))
        return found

    async def all_written(self) -> None:
        """Wait until every look recorded so far is written (the writer is never cancelled
        by a waiter that is)."""
        while self.writing is not None and not self.writing.done():
            await asyncio.shield(self.writing)

    def _keep_written(self, looks: dict[Look, int]) -> None:
        """Count `looks`, just committed, here for KEEP_WRITTEN_SECONDS more at least."""
        now = self.clock()
        if now - self.generation_began >= KEEP_WRITTEN_SECONDS:
            self.written_before, self.written = self.written, {}
            self.generation_began = now
        for (game, user, tab), seq in looks.items():
            player = self.written.setdefault((game, user), {})
            player[tab] = max(seq, player.get(tab, 0))

    async def _write(self) -> None:
        await asyncio.sleep(GATHER_SECONDS)
        while self.waiting:
            looks, self.waiting = self.waiting, {}
            self.in_flight = looks
            try:
                async with self.turns.reading(shared=True), self.sessions() as db:
                    await _upsert(db, looks)
                self._keep_written(looks)
            except Exception:  # a look lost shows a badge too many, nothing more
                _log.exception("recording %d looks failed", len(looks))
            finally:
                self.in_flight = {}


ROWS_A_STATEMENT = 1000
"""Looks written by one statement: 4 parameters each stays under SQLite's 32,766 a statement."""


async def _upsert(db: AsyncSession, looks: dict[Look, int]) -> None:
    """Insert or move forward every look, a thousand a statement, and commit."""
    table = StationTabSeen.__table__
    rows = [
        {"game_id": game_id, "user_id": user_id, "tab": tab, "seq": seq}
        for (game_id, user_id, tab), seq in sorted(looks.items())
    ]
    for start in range(0, len(rows), ROWS_A_STATEMENT):
        insert = insert_for(db, table).values(rows[start : start + ROWS_A_STATEMENT])
        # Another page of the same player may have looked further meanwhile: keep the furthest.
        furthest = case((insert.excluded.seq > table.c.seq, insert.excluded.seq), else_=table.c.seq)
        await db.execute(
            insert.on_conflict_do_update(
                index_elements=["game_id", "user_id", "tab"], set_={"seq": furthest}
            )
        )
    await db.commit()


class LookWriters:
    """An app's looks writers (on `app.state`), one per event loop (a writer's task belongs
    to its loop; a test may drive one app from several)."""

    def __init__(self, sessions: Sessions, turns: Turns) -> None:
        self.sessions, self.turns = sessions, turns
        self.writers: dict[asyncio.AbstractEventLoop, Looks] = {}

    def here(self) -> Looks:
        """The looks writer of the running event loop."""
        loop = asyncio.get_running_loop()
        found = self.writers.get(loop)
        if found is None:
            for closed in [other for other in self.writers if other.is_closed()]:
                del self.writers[closed]
            found = self.writers[loop] = Looks(self.sessions, self.turns)
        return found

    async def all_written(self) -> None:
        """Wait until the running loop's writer has written every look recorded so far: at
        shutdown, before the database pool closes, so that no look is lost and no write is
        left on a connection's thread when the loop ends."""
        found = self.writers.get(asyncio.get_running_loop())
        if found is not None:
            await found.all_written()


LOOKS_KEY = "live_looks"
"""Where an app keeps its `LookWriters` in `app.state`."""
