"""Where a page stands in its game's journal: the newest seq and the reader's own cursor.

A page needs both (server/live/journal.py: `last_seq`, `cursor_at`), and counting the cursor
reads every journal row of the game. The journal is append-only and its sequence numbers
become visible in order (one writer per game, a unique (stream, seq)), so the count of the
events a listener may see up to a seq never changes: this process remembers the newest
(seq, cursor) per stream and listener, and a page reads only the rows after it, in one query.
Nothing is shared between listeners, and what the database says always wins: a cached
position is only ever a starting point that the rows after it complete.
"""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.hosting.memo import Memo
from deaddrop.server.live import journal
from deaddrop.server.live.models import LiveEvent

SIZE = 8192
"""(stream, listener) pairs remembered: a few per open game, a few bytes each."""

Key = tuple[str, journal.Listener]


_POSITIONS: Memo[Key, tuple[int, int]] = Memo(SIZE)
_COLUMNS = select(LiveEvent.seq, LiveEvent.public, LiveEvent.seats).order_by(LiveEvent.seq)
_AFTER = _COLUMNS.where(LiveEvent.stream == bindparam("stream"), LiveEvent.seq > bindparam("after"))
_BETWEEN = _AFTER.where(LiveEvent.seq <= bindparam("upto"))
"""What a page reads of the journal (on every page): built once, not per request."""


async def position(
    db: AsyncSession, stream: str, listener: journal.Listener, upto: int | None = None
) -> tuple[int, int]:
    """(the stream's newest seq, the listener's cursor there), as `last_seq` then `cursor_at`
    would say, from the rows after the newest position this process knows; with `upto`, the
    same at that seq (`upto` itself and the cursor there)."""
    key = (stream, listener)
    seq, cursor = _POSITIONS.get(key) or (0, 0)  # (0, 0): the start of every stream
    if upto is not None and seq > upto:
        seq, cursor = 0, 0  # known only further on: count from the start
    query, values = _AFTER, {"stream": stream, "after": seq}
    if upto is not None:
        query, values = _BETWEEN, {**values, "upto": upto}
    for row in await db.execute(query, values):
        seq = row.seq
        if journal.visible_to(row, listener):
            cursor += 1
    advance(stream, listener, seq, cursor)  # a slower page never moves it back
    return seq, cursor


def advance(stream: str, listener: journal.Listener, seq: int, cursor: int) -> None:
    """Remember a position a writer reached itself (`position` then its own rows, committed):
    never moves a known one back."""
    key = (stream, listener)
    known = _POSITIONS.get(key)
    if known is None or known[0] < seq:
        _POSITIONS.put(key, (seq, cursor))
