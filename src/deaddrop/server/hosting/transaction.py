"""One writer's transaction on one game, for every game alike.

A write applies decisions through the engine (a refusal comes back in the game's own words),
journals what they told whom with the engine's audiences in the same transaction, and commits;
a lost race for the game row (its version) or for a log or journal key becomes `Conflict` and
nothing is stored. Only after the commit are the states it reached cached, the game's open
pages woken and the background jobs it made due told.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Table
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Event
from deaddrop.engine.core.protocol import Engine
from deaddrop.server.db.base import Base
from deaddrop.server.db.driver import holds_connection, inserting, send_in
from deaddrop.server.db.pending import has_changes, has_changes_besides
from deaddrop.server.db.versioned import changes_to_write, mark_written, write_versioned_row
from deaddrop.server.hosting import together, writers
from deaddrop.server.hosting.refusals import Refused, Stale
from deaddrop.server.hosting.states import StateCache
from deaddrop.server.live import journal
from deaddrop.server.live.journal import JournalRow
from deaddrop.server.live.known_positions import known_positions
from deaddrop.server.live.wakeup import wakeups_of

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


Insert = tuple[Table, dict[str, Any]]
"""A row to insert: its table and its values."""


async def insert_all(db: AsyncSession, inserts: Sequence[Insert]) -> None:
    """Insert rows with Core, in order, the ORM's pending changes left for later."""
    for table, values in inserts:
        await send_in(db, inserting(table, tuple(values)), values)


class Conflict(Exception):
    """Another writer changed the game in the meantime; nothing was stored."""


@dataclass(frozen=True)
class Hosted(Generic[StateT, ActionT]):
    """A game as its host sees it: its engine, its cached states and its wording of refusals."""

    engine: Engine[Any, StateT, ActionT]
    states: StateCache[StateT]
    explain: Callable[[IllegalAction], Refused]
    """The engine's refusal in the game's own words, with the rule cited."""

    def stream(self, public_id: str) -> str:
        """The journal stream of one game."""
        return journal.stream_name(self.engine.name, public_id)

    def writer_lock(self, public_id: str) -> asyncio.Lock:
        """This process's lock for writing one game (server/hosting/writers.py)."""
        return writers.writer_lock(self.engine.name, public_id)


def check_version(expected: int | None, current: int, message: str) -> None:
    """Refuse as stale a request from a page built at another version than the game's now."""
    if expected is not None and expected != current:
        raise Stale(message)


class GameWrite(Generic[StateT, ActionT]):
    """One write to one game, inside the caller's transaction (it holds the writer lock)."""

    def __init__(
        self,
        db: AsyncSession,
        game: Hosted[StateT, ActionT],
        public_id: str,
        row: Base | None = None,
    ) -> None:
        self.db = db
        self.game = game
        self.public_id = public_id
        self.row = row
        """The game's own versioned row: written by `commit` first, without the ORM's flush."""
        self._inserts: list[Insert] = []
        self._events: list[Event] = []
        self._reached: tuple[int, StateT] | None = None
        self._due: list[str] = []

    def apply(self, state: StateT, action: ActionT) -> tuple[StateT, tuple[Event, ...]]:
        """One decision through the engine, its events journaled with this write."""
        try:
            new_state, events = self.game.engine.apply(state, action)
        except IllegalAction as error:
            raise self.game.explain(error) from None
        self.journal(events)
        return new_state, events

    def action_json(self, action: ActionT) -> dict[str, Any]:
        """An action as the game's log stores it."""
        return self.game.engine.action_to_json(action)

    def journal(self, events: Iterable[Event]) -> None:
        """Journal events with this write, in order, each to its own audience."""
        self._events.extend(events)

    def reached(self, version: int, state: StateT) -> None:
        """The state the game is in at `version` once this write commits (cached then)."""
        self._reached = (version, state)

    def insert(self, table: Table, values: dict[str, Any]) -> None:
        """Insert a row (a log entry) at the commit, after the game's row, as a Core insert:
        a lost race for its key is a `Conflict` like the row's."""
        self._inserts.append((table, values))

    def due(self, job: str) -> None:
        """Once committed, tell the background job `job` that work is due now."""
        self._due.append(job)

    async def commit(self) -> int:
        """Journal, commit (a lost race: `Conflict`), then cache and wake; the journal's seq
        (0 when nothing was journaled), its rows numbered after the stream's last by their own
        insert.

        The journal's insert and the pending writes' flush happen inside the commit's guard, so
        that a lost race for the game row or a sequence number surfaces here, where the caller
        may retry, not halfway through.
        """
        try:
            seq = await self._write_at_once()
            if seq is None:
                await self._write_rows()
                seq = await self._journal_now()
            await _commit(self.db)
        except (StaleDataError, IntegrityError) as error:
            await self.db.rollback()
            raise Conflict() from error
        await self.settle(seq)
        return seq

    async def commit_inserting(
        self,
        statement: Any,
        values: dict[str, Any],
        events: Sequence[Event],
        keyed: str,
        missing: Callable[[], Exception],
    ) -> tuple[int, Any] | None:
        """The row `statement` inserts (`INSERT … RETURNING` its key; none inserted: `missing()`
        raised) and the journal rows of `events`, each payload with `keyed` set to that key,
        numbered after the stream's last seq as they are stored (a seq another process took
        meanwhile: a `Conflict`), stored together: on PostgreSQL in one statement, on SQLite as
        one unit of a shared commit; then settled as `commit` does; (the journal's seq, the
        key). None when this write has more to store, or on another database: the caller
        stores them itself."""
        db = self.db
        if self._events or self._inserts or has_changes(db):
            return None
        if self.row is not None and changes_to_write(self.row) is not None:
            return None
        try:
            found = await together.insert_with_journal(
                db, statement, values, self.stream, events, keyed, missing
            )
            if found is None:
                return None
            key, seq = found
            if key is None:
                raise missing()
            await _commit(db)
        except IntegrityError as error:
            await db.rollback()
            raise Conflict() from error
        await self.settle(seq, events)
        return seq, key

    async def _write_at_once(self) -> int | None:
        """The game row, the inserts and the journal rows written together, when the session
        has nothing else to flush: on PostgreSQL in one statement, on SQLite as one unit of a
        shared commit; the journal's new last seq, or None: written one by one."""
        db, row = self.db, self.row
        if row is None:
            return None
        if has_changes_besides(db, row):
            return None  # the ORM's flush at the commit would write them apart from it
        params = changes_to_write(row)
        if params is None:
            return None  # nothing changed on the row: left to the ORM
        seq = await together.write_row(
            db, type(row), params, self._inserts, self.stream, self._events
        )
        if seq is None:
            return None
        self._inserts = []
        mark_written(db, row, params["_new"])
        return seq

    async def _write_rows(self) -> None:
        """The game's row (its version checked), then this write's inserts; with Core, for the
        ORM's unit of work cost more than the statements (db/versioned.py)."""
        if self.row is not None:
            await write_versioned_row(self.db, self.row)
        await insert_all(self.db, self.take_inserts())

    def take_inserts(self) -> list[Insert]:
        """The rows to insert with this write, handed to a caller that stores them itself."""
        inserts, self._inserts = self._inserts, []
        return inserts

    async def _journal_now(self) -> int:
        """Insert this write's journal rows; the stream's new last seq (0: nothing journaled)."""
        if not self._events:
            return 0
        return await journal.append(self.db, self.stream, self._events)

    @property
    def stream(self) -> str:
        """The journal stream of the written game."""
        return self.game.stream(self.public_id)

    def take_events(self) -> list[Event]:
        """The events journaled so far, handed to a caller that stores them itself."""
        events, self._events = self._events, []
        return events

    async def settle(self, seq: int, journaled: Sequence[Event] | None = None) -> None:
        """After the commit: cache the state reached, move the readers known right before the
        journal rows `journaled` (this write's own by default) on to `seq` (the last of them),
        wake the stream's listeners up to `seq` and the jobs this write made due."""
        rows = self._events if journaled is None else journaled
        self._events = []
        if rows:
            known_positions(self.db).follow(self.stream, seq, [row.audience for row in rows])
        if self._reached is not None:
            self.game.states.remember(self.public_id, *self._reached)
        wakeups = wakeups_of(self.db)
        await wakeups.stream(self.stream, seq)
        for job in self._due:
            wakeups.due(job)


async def _commit(db: AsyncSession) -> None:
    """Commit `db`'s transaction, unless it holds no connection and has nothing to flush: its
    writes went to a shared commit, already durable (hosting/together.py), and committing an
    ORM transaction of no connection only costs (2% of a vote's Python calls)."""
    if holds_connection(db) or has_changes(db):
        await db.commit()


async def commit_or_conflict(
    db: AsyncSession, journal_rows: Sequence[JournalRow] = (), inserts: Sequence[Insert] = ()
) -> None:
    """Insert `inserts` and the journal rows, commit; a lost race for a game row or a key
    rolls back and becomes `Conflict`."""
    try:
        await insert_all(db, inserts)
        await journal.insert_rows(db, journal_rows)
        await db.commit()
    except (StaleDataError, IntegrityError) as error:
        await db.rollback()
        raise Conflict() from error


async def commit_writes(db: AsyncSession, writes: Sequence[GameWrite[Any, Any]]) -> None:
    """Commit several games' writes in `db`'s one transaction (a lost race of any:
    `Conflict`, nothing stored), their journals in one insert; then settle each. Their game
    rows are the caller's to write (a batch writes them together: db/versioned.py)."""
    with db.no_autoflush:  # a lost race surfaces in the commit, as in `GameWrite.commit`
        last = await journal.last_seqs(db, [write.stream for write in writes])
    rows: list[JournalRow] = []
    seqs = []
    journaled = []
    for write in writes:
        events = write.take_events()
        rows += journal.rows_after(write.stream, last[write.stream], events)
        seqs.append(last[write.stream] + len(events) if events else 0)
        journaled.append(events)
    inserts = [row for write in writes for row in write.take_inserts()]
    await commit_or_conflict(db, rows, inserts)
    for write, seq, events in zip(writes, seqs, journaled, strict=True):
        await write.settle(seq, events)
