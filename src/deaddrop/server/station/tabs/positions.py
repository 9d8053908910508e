"""Where a page stands in its game's journal: the newest seq and the reader's own cursor.

A page needs both (server/live/journal.py: `last_seq`, `cursor_at`), and counting the cursor
reads every journal row of the game. The journal is append-only and its sequence numbers
become visible in order (one writer per game, a unique (stream, seq)), so the count of the
events a listener may see up to a seq never changes: this app remembers the newest
(seq, cursor) per stream and listener, and a page reads only the rows after it, in one query.
Nothing is shared between listeners, and what the database says always wins: a cached
position is only ever a starting point that the rows after it complete.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import JSON, Boolean, Integer, String, bindparam, literal, null, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db.driver import send_in
from deaddrop.server.live import journal
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.tabs.memos import page_memos
from deaddrop.server.station.tabs.seen_models import StationTabSeen

_COLUMNS = select(LiveEvent.seq, LiveEvent.public, LiveEvent.seats).order_by(LiveEvent.seq)
_AFTER = _COLUMNS.where(LiveEvent.stream == bindparam("stream"), LiveEvent.seq > bindparam("after"))
_BETWEEN = _AFTER.where(LiveEvent.seq <= bindparam("upto"))
"""What a page reads of the journal (on every page): built once, not per request, and sent
straight through the driver on SQLite (db/driver.py)."""
_JOURNAL_PART, _LOOKS_PART = 0, 1
_WITH_LOOKS = union_all(
    select(
        literal(_JOURNAL_PART, Integer).label("part"),
        LiveEvent.seq,
        LiveEvent.public,
        LiveEvent.seats,
        null().cast(String).label("tab"),
    ).where(LiveEvent.stream == bindparam("stream"), LiveEvent.seq > bindparam("after")),
    select(
        literal(_LOOKS_PART, Integer),
        StationTabSeen.seq,
        null().cast(Boolean),
        null().cast(JSON),
        StationTabSeen.tab,
    ).where(
        StationTabSeen.game_id == bindparam("game"), StationTabSeen.user_id == bindparam("user")
    ),
).order_by("part", "seq")
"""The journal after a position and a player's last looks (`seen_of`), in one statement: a
player's page needs both, and each statement is a round trip and its own Python work."""


class _Row(NamedTuple):
    """A journal row as a page counts it (`_COLUMNS`)."""

    seq: int
    public: bool
    seats: list[int]


async def position(
    db: AsyncSession, stream: str, listener: journal.Listener, upto: int | None = None
) -> tuple[int, int]:
    """(the stream's newest seq, the listener's cursor there), as `last_seq` then `cursor_at`
    would say, from the rows after the newest position this process knows; with `upto`, the
    same at that seq (`upto` itself and the cursor there)."""
    known = page_memos(db).positions.get((stream, listener))
    seq, cursor = known or (0, 0)  # (0, 0): the start of every stream
    if upto is not None and seq > upto:
        seq, cursor = 0, 0  # known only further on: count from the start
    query, values = _AFTER, {"stream": stream, "after": seq}
    if upto is not None:
        query, values = _BETWEEN, {**values, "upto": upto}
    for found in (await send_in(db, query, values)).rows:
        row = _Row._make(found)
        seq = row.seq
        if journal.visible_to(row, listener):
            cursor += 1
    advance(db, stream, listener, seq, cursor)  # a slower page never moves it back
    return seq, cursor


async def position_and_looks(
    db: AsyncSession, stream: str, listener: journal.Listener, game_id: int, user_id: int
) -> tuple[int, int, dict[str, int]]:
    """`position` at the newest seq, and the player's `seen_of`, in one statement."""
    known = page_memos(db).positions.get((stream, listener))
    seq, cursor = known or (0, 0)
    looks: dict[str, int] = {}
    values = {"stream": stream, "after": seq, "game": game_id, "user": user_id}
    for part, found_seq, public, seats, tab in (await send_in(db, _WITH_LOOKS, values)).rows:
        if part == _LOOKS_PART:
            looks[tab] = found_seq
            continue
        seq = found_seq
        if journal.visible_to(_Row(seq, public, seats), listener):
            cursor += 1
    advance(db, stream, listener, seq, cursor)
    return seq, cursor, looks


def advance(
    db: AsyncSession, stream: str, listener: journal.Listener, seq: int, cursor: int
) -> None:
    """Remember a position a writer reached itself (`position` then its own rows, committed):
    never moves a known one back."""
    key = (stream, listener)
    positions = page_memos(db).positions
    known = positions.get(key)
    if known is None or known[0] < seq:
        positions.put(key, (seq, cursor))
