"""Write events to a game's journal inside the caller's transaction; read them back per seat."""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Sequence
from typing import Any, Protocol

from sqlalchemy import JSON, Boolean, String, bindparam, func, insert, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.events import Event
from deaddrop.server.db.base import UTCDateTime, utcnow
from deaddrop.server.db.driver import inserting, send_in
from deaddrop.server.live.models import LiveEvent

JOURNAL = LiveEvent.metadata.tables[LiveEvent.__tablename__]
"""The journal's table, for Core inserts (no ORM bookkeeping, no RETURNING of ids)."""
EVERYONE = "everyone"
"""A listener that may read everything of a game: its players after the game (S26)."""

Listener = int | None | str
"""A seat, None for the public (spectators), or EVERYONE."""


def stream_name(game_kind: str, public_id: str) -> str:
    """The journal stream of one game."""
    return f"{game_kind}:{public_id}"


async def last_seq(db: AsyncSession, stream: str) -> int:
    """The newest sequence number of a stream (0 when empty)."""
    found = await db.scalar(select(func.max(LiveEvent.seq)).where(LiveEvent.stream == stream))
    return int(found or 0)


async def append(db: AsyncSession, stream: str, events: Sequence[Event]) -> int:
    """Journal events after the stream's last one, now; returns the new last sequence number.

    The caller holds the game's single-writer lock (DESIGN.md), so numbering from the current
    maximum is safe; the unique (stream, seq) constraint turns a mistake (or another process
    numbering at the same moment) into an error, not a silently merged stream. Nothing is
    committed here. A few events are numbered by the insert itself, in one round trip.
    """
    if not events:
        return await last_seq(db, stream)
    if len(events) > NUMBERED_AT_ONCE:
        seq = await last_seq(db, stream)
        await insert_rows(db, rows_after(stream, seq, events))
        return seq + len(events)
    numbered = await send_in(db, numbered_statement(len(events)), numbered_values(stream, events))
    return int(max(seq for (seq,) in numbered.rows))


def numbered_values(stream: str, events: Sequence[Event]) -> dict[str, Any]:
    """The bound values of `numbered_insert(len(events), …)` for `events` of `stream`."""
    values: dict[str, Any] = {"stream": stream, "created_at": utcnow()}
    for number, event in enumerate(events, start=1):
        values[f"kind_{number}"] = event.kind
        values[f"public_{number}"] = event.audience.public
        values[f"seats_{number}"] = sorted(event.audience.seats)
        values[f"payload_{number}"] = dict(event.payload)
    return values


NUMBERED_AT_ONCE = 8
"""Events numbered by their own insert (one SELECT per event in it); more read the maximum
first, then go in one insert."""


@functools.cache
def numbered_statement(count: int) -> Any:
    """`INSERT … SELECT` of `count` events numbered after the stream's maximum, their seqs
    returned (values: `numbered_values`): built once per count."""
    return numbered_insert(count, None)


NUMBERED_COLUMNS = ("stream", "seq", "kind", "public", "seats", "payload", "created_at")
"""The journal's columns a numbered insert fills (its id is the database's)."""


def numbered_insert(count: int, each_of: Any) -> Any:
    """`INSERT … SELECT` of `count` events numbered after the stream's maximum (values:
    `numbered_values`), their seqs returned; once for each row of `each_of` (a statement's
    CTE of one row or none: hosting/one_statement.py) when given, else once."""
    stream = bindparam("stream", type_=String)
    newest = select(func.coalesce(func.max(LiveEvent.seq), 0)).where(LiveEvent.stream == stream)
    last = newest.scalar_subquery()
    rows = []
    for number in range(1, count + 1):
        row = select(
            stream,
            last + number,
            bindparam(f"kind_{number}", type_=String),
            bindparam(f"public_{number}", type_=Boolean),
            bindparam(f"seats_{number}", type_=JSON),
            bindparam(f"payload_{number}", type_=JSON),
            bindparam("created_at", type_=UTCDateTime()),
        )
        rows.append(row if each_of is None else row.select_from(each_of))
    source = rows[0] if count == 1 else union_all(*rows)
    return insert(JOURNAL).from_select(NUMBERED_COLUMNS, source).returning(LiveEvent.seq)


async def last_seqs(db: AsyncSession, streams: Iterable[str]) -> dict[str, int]:
    """The newest sequence number of each stream, in one query (0 for an empty one)."""
    wanted = list(streams)
    found = await db.execute(
        select(LiveEvent.stream, func.max(LiveEvent.seq))
        .where(LiveEvent.stream.in_(wanted))
        .group_by(LiveEvent.stream)
    )
    newest = {stream: int(seq or 0) for stream, seq in found}
    return {stream: newest.get(stream, 0) for stream in wanted}


JournalRow = dict[str, Any]
"""A journal row's column values, to insert."""


async def insert_rows(db: AsyncSession, rows: Sequence[JournalRow]) -> None:
    """Insert journal rows in one statement (many at once: cheaper than one object each; one,
    a post's, straight through the driver: db/driver.py)."""
    if len(rows) == 1:
        await send_in(db, inserting(JOURNAL, tuple(rows[0])), rows[0])
    elif rows:
        await db.execute(insert(JOURNAL), list(rows))


def rows_after(stream: str, seq: int, events: Iterable[Event]) -> list[JournalRow]:
    """The journal rows of `events`, numbered after `seq`, as column values (to insert)."""
    now = utcnow()
    return [
        {
            "stream": stream,
            "seq": seq + number,
            "kind": event.kind,
            "public": event.audience.public,
            "seats": sorted(event.audience.seats),
            "payload": dict(event.payload),
            "created_at": now,
        }
        for number, event in enumerate(events, start=1)
    ]


class Addressed(Protocol):
    """A journal row, or the columns of one that say who may see it."""

    @property
    def public(self) -> bool: ...

    @property
    def seats(self) -> Collection[int]: ...


def visible_to(row: Addressed, listener: Listener) -> bool:
    """Whether a listener may see a journaled event (deny by default)."""
    if row.public or listener == EVERYONE:
        return True
    return isinstance(listener, int) and listener in row.seats


PAGE = 500
"""Journal rows read at a time."""


async def read_after(
    db: AsyncSession, stream: str, after: int, limit: int = PAGE
) -> list[LiveEvent]:
    """Every journaled event after `after`, oldest first, whoever may see it (filter next)."""
    rows = await db.scalars(
        select(LiveEvent)
        .where(LiveEvent.stream == stream, LiveEvent.seq > after)
        .order_by(LiveEvent.seq)
        .limit(limit)
    )
    return list(rows)


async def events_since(
    db: AsyncSession, stream: str, after: int, listener: Listener, limit: int = PAGE
) -> list[LiveEvent]:
    """The events after `after` that this listener may see, oldest first."""
    return [row for row in await read_after(db, stream, after, limit) if visible_to(row, listener)]


# --- Cursors: what a listener is told of its position ----------------------------------------
#
# `seq` numbers every event of a game, whoever may see it: published, it would let anyone count
# the private acts of others (S26-S31). What a listener is told instead (its page's
# `data-live-after`, each SSE id, the Last-Event-ID it sends back) is its cursor: how many
# events it may see up to that point. It moves only on those events, grows with `seq`, and a
# listener whose audience only grows (a seat once the game is over, S26) keeps a cursor at least
# as large as before, so that a resume from an old cursor starts no later than it should.


async def visible_seqs(db: AsyncSession, stream: str, listener: Listener, upto: int) -> list[int]:
    """The sequence numbers of the events up to `upto` that this listener may see, in order."""
    where = [LiveEvent.stream == stream, LiveEvent.seq <= upto]
    if listener == EVERYONE:
        return list(await db.scalars(select(LiveEvent.seq).where(*where).order_by(LiveEvent.seq)))
    if not isinstance(listener, int):
        query = select(LiveEvent.seq).where(*where, LiveEvent.public).order_by(LiveEvent.seq)
        return list(await db.scalars(query))
    # A seat: its private events are those listing it; JSON membership is not portable SQL,
    # and these three narrow columns are cheap to filter here.
    rows = await db.execute(
        select(LiveEvent.seq, LiveEvent.public, LiveEvent.seats)
        .where(*where)
        .order_by(LiveEvent.seq)
    )
    return [row.seq for row in rows if visible_to(row, listener)]


async def cursor_at(db: AsyncSession, stream: str, listener: Listener, upto: int) -> int:
    """The listener's cursor at journal position `upto`: the events up to it that it may see."""
    if listener == EVERYONE or not isinstance(listener, int):
        where = [LiveEvent.stream == stream, LiveEvent.seq <= upto]
        if listener != EVERYONE:
            where.append(LiveEvent.public.is_(True))
        return int(await db.scalar(select(func.count()).select_from(LiveEvent).where(*where)) or 0)
    return len(await visible_seqs(db, stream, listener, upto))


async def position_of(
    db: AsyncSession, stream: str, listener: Listener, cursor: int
) -> tuple[int, int]:
    """Where to resume a listener that names `cursor`: (the seq to read after, its cursor).

    Cursor k resumes after the k-th event the listener may see. A cursor past everything it
    may see (a forged one, or one from before its audience grew) resumes from now, and the
    cursor it is then given is its true one: nothing is learnt by sending a large number.
    """
    newest = await last_seq(db, stream)  # first: an event landing meanwhile is read later
    if cursor <= 0:
        return 0, 0
    seqs = await visible_seqs(db, stream, listener, newest)
    if cursor >= len(seqs):
        return newest, len(seqs)
    return seqs[cursor - 1], cursor
