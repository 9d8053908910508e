"""Where a page stands in its game's journal: the newest seq and the reader's own cursor.

A page needs both (server/live/journal.py: `last_seq`, `cursor_at`), and counting the cursor
visits every journal event of the game: the database counts the public ones (from an index),
and each one that is not public comes as a row for `journal.visible_to` to decide. The
journal is append-only and its sequence numbers
become visible in order (one writer per game, a unique (stream, seq)), so the count of the
events a listener may see up to a seq never changes: this app remembers the newest
(seq, cursor) per stream and listener (live/known_positions.py), and a page reads only the
rows after it, in one query. What the database says always wins: a known position is only
ever a starting point that the rows after it complete.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import (
    JSON,
    ColumnElement,
    Integer,
    Select,
    String,
    bindparam,
    func,
    literal,
    null,
    select,
    union_all,
)
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db.driver import send_in
from deaddrop.server.live import journal
from deaddrop.server.live.known_positions import known_positions
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.tabs.seen_models import StationTabSeen

_TOTALS_PART, _PRIVATE_PART, _LOOKS_PART = 0, 1, 2
_IN_STREAM = LiveEvent.stream == bindparam("stream")
_AFTER = LiveEvent.seq > bindparam("after")
_UPTO = LiveEvent.seq <= bindparam("upto")


def _journal_parts(*span: ColumnElement[bool]) -> tuple[Select[*tuple[Any, ...]], ...]:
    """The journal's events in `span` as a page counts them: one row of totals (the newest
    seq, how many public events), then each event that is not public, with its audience. A
    public event needs no row of its own: a cold page of a long game counts thousands of them
    in the database (from an index alone: `ix_live_events_stream_public_seq`) instead of
    reading each into Python."""
    # The last entry of the (stream, seq) index: no scan of the span, unlike max().
    last = select(LiveEvent.seq).where(*span).order_by(LiveEvent.seq.desc()).limit(1)
    newest = last.scalar_subquery()
    public = select(func.count()).where(*span, LiveEvent.public.is_(True)).scalar_subquery()
    totals = select(
        literal(_TOTALS_PART, Integer).label("part"),
        newest.label("seq"),
        public.label("public"),
        null().cast(JSON).label("seats"),
        null().cast(String).label("tab"),
    )
    private = select(
        literal(_PRIVATE_PART, Integer),
        LiveEvent.seq,
        literal(0, Integer),
        LiveEvent.seats,
        null().cast(String),
    ).where(*span, LiveEvent.public.is_(False))
    return totals, private


_AFTER_ROWS = union_all(*_journal_parts(_IN_STREAM, _AFTER))
_BETWEEN_ROWS = union_all(*_journal_parts(_IN_STREAM, _AFTER, _UPTO))
_WITH_LOOKS = union_all(
    *_journal_parts(_IN_STREAM, _AFTER),
    select(
        literal(_LOOKS_PART, Integer),
        StationTabSeen.seq,
        literal(0, Integer),
        null().cast(JSON),
        StationTabSeen.tab,
    ).where(
        StationTabSeen.game_id == bindparam("game"), StationTabSeen.user_id == bindparam("user")
    ),
)
"""What a page reads of the journal (on every page), with a player's last looks (`seen_of`)
for a player's page, in one statement: built once, not per request, and sent straight through
the driver on SQLite (db/driver.py)."""


class _Row(NamedTuple):
    """A journal event as `journal.visible_to` reads it."""

    seq: int
    public: bool
    seats: list[int]


def _counted(
    rows: list[tuple[Any, ...]], listener: journal.Listener, seq: int, cursor: int
) -> tuple[int, int, dict[str, int]]:
    """(the newest seq, the listener's cursor there, the looks) from a known (seq, cursor) and
    the rows of `_journal_parts` (and the looks) after it."""
    looks: dict[str, int] = {}
    for part, found_seq, public, seats, tab in rows:
        if part == _LOOKS_PART:
            looks[tab] = found_seq
        elif part == _PRIVATE_PART:
            if journal.visible_to(_Row(found_seq, False, seats), listener):
                cursor += 1
        elif found_seq is not None:  # the totals of at least one event
            seq = found_seq
            # A public event is visible to every listener: the count stands for its rows.
            if journal.visible_to(_Row(seq, True, []), listener):
                cursor += int(public or 0)
    return seq, cursor, looks


async def position(
    db: AsyncSession, stream: str, listener: journal.Listener, upto: int | None = None
) -> tuple[int, int]:
    """(the stream's newest seq, the listener's cursor there), as `last_seq` then `cursor_at`
    would say, from the rows after the newest position this process knows; with `upto`, the
    same at that seq (`upto` itself and the cursor there)."""
    known = known_positions(db).get(stream, listener)
    seq, cursor = known or (0, 0)  # (0, 0): the start of every stream
    if upto is not None and seq > upto:
        seq, cursor = 0, 0  # known only further on: count from the start
    query, values = _AFTER_ROWS, {"stream": stream, "after": seq}
    if upto is not None:
        query, values = _BETWEEN_ROWS, {**values, "upto": upto}
    # A read by itself: on PostgreSQL it begins no transaction (a post's write then needs none).
    rows = (await send_in(db, query, values, alone=True)).rows
    seq, cursor, _looks = _counted(rows, listener, seq, cursor)
    known_positions(db).advance(stream, listener, seq, cursor)  # a slower page: not back
    return seq, cursor


async def position_and_looks(
    db: AsyncSession, stream: str, listener: journal.Listener, game_id: int, user_id: int
) -> tuple[int, int, dict[str, int]]:
    """`position` at the newest seq, and the player's `seen_of`, in one statement."""
    known = known_positions(db).get(stream, listener)
    seq, cursor = known or (0, 0)
    values = {"stream": stream, "after": seq, "game": game_id, "user": user_id}
    # A read by itself too: on PostgreSQL a made page then takes no pooled connection unless
    # it writes (db/lone_statements.py).
    rows = (await send_in(db, _WITH_LOOKS, values, alone=True)).rows
    seq, cursor, looks = _counted(rows, listener, seq, cursor)
    known_positions(db).advance(stream, listener, seq, cursor)
    return seq, cursor, looks
