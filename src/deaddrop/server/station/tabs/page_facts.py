"""Every stored fact a player's warm tab page is made of, read in one statement.

A tab page for its player is a pure function of the session's row, the account's row, the
game's row, the player's seat row, the game's newest journal seq (its rows up to there never
change: the journal is append-only and numbered in order) and the player's last looks at the
tabs; everything else a warm page shows comes from memos keyed by these (tabs/memos.py,
tabs/positions.py). `known_pages.py` serves a page again while these facts, read afresh on every
request, are the same as when it was made.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Select, Text, bindparam, cast, func, or_, select, type_coerce
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.types import NullType

from deaddrop.server.accounts.models import User
from deaddrop.server.db.driver import read_inline, send, send_lone
from deaddrop.server.db.inline_reads import InlineReader
from deaddrop.server.db.kv import KeyValue
from deaddrop.server.db.lone_statements import LoneStatements
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.tabs.context import TABS
from deaddrop.server.station.tabs.seen_models import StationTabSeen

TAB_NAMES = tuple(name for name, _ in TABS)
SESSIONS_NAMESPACE = "sessions"
"""The store the session cookie names a row of (app.py: `stores`)."""

Facts = tuple[Any, ...]
"""The stored facts of one page, in `_STATEMENT`'s column order (game id at `GAME_ID`)."""


def _whole_row(table: Any) -> list[Any]:
    """Every column of a table as the driver gives it (compared, never converted: no dates
    parsed, no JSON read); JSON as its stored text."""
    return [
        type_coerce(cast(column, Text) if isinstance(column.type, JSON) else column, NullType())
        for column in table.c
    ]


def _statement() -> Select[Any]:
    kv, users = KeyValue.__table__, User.__table__
    games, seats = StationGame.__table__, StationSeat.__table__
    events, seen = LiveEvent.__table__, StationTabSeen.__table__
    newest = select(func.max(events.c.seq)).where(events.c.stream == bindparam("stream"))
    looks = [
        select(seen.c.seq)
        .where(seen.c.game_id == games.c.id, seen.c.user_id == users.c.id, seen.c.tab == tab)
        .scalar_subquery()
        for tab in TAB_NAMES
    ]
    joined = (
        kv.join(users, users.c.id == bindparam("user"))
        .join(games, games.c.public_id == bindparam("game"))
        .join(seats, (seats.c.game_id == games.c.id) & (seats.c.user_id == users.c.id))
    )
    return (
        select(
            games.c.id,
            kv.c.value,
            *_whole_row(users),
            *_whole_row(games),
            *_whole_row(seats),
            newest.scalar_subquery(),
            *looks,
        )
        .select_from(joined)
        .where(
            kv.c.namespace == SESSIONS_NAMESPACE,
            kv.c.key == bindparam("session"),
            or_(kv.c.expires_at.is_(None), kv.c.expires_at > bindparam("now")),
        )
    )


_STATEMENT = _statement()
"""Built once: it runs on every warm page."""
GAME_ID = 0
"""Where the game's internal id stands in `Facts`."""
LOOKS_FROM = -len(TAB_NAMES)
"""Where the player's stored looks start in `Facts` (one column per tab, in `TAB_NAMES` order)."""
FactsSource = AsyncConnection | InlineReader | LoneStatements
"""Where a page's facts are read: a connection, SQLite's inline reader or PostgreSQL's lone
connections."""
NEWEST = LOOKS_FROM - 1
"""Where the game's newest journal seq stands in `Facts` (None while the journal is empty)."""


async def read_facts(
    connection: FactsSource,
    session_id: str,
    user_id: int,
    game: str,
    stream: str,
    now: datetime,
) -> Facts | None:
    """The facts of `user_id`'s page of game `game` (public id) under session `session_id`;
    None when the session is gone or expired, or the person holds no seat in that game."""
    values = {"session": session_id, "user": user_id, "game": game, "stream": stream, "now": now}
    # Straight through the driver (db/driver.py): every warm page asks it, and the columns come
    # as the driver gives them anyway (`_whole_row`). Alone: one read, whole by itself, so on
    # PostgreSQL a known page is one round trip, without BEGIN and ROLLBACK.
    if isinstance(connection, InlineReader):  # a SQLite file: no pool, no session at all
        sent = read_inline(connection, _STATEMENT, values)
        assert sent is not None  # a query bound straight to the driver
    elif isinstance(connection, LoneStatements):  # PostgreSQL, off the pool
        sent = await send_lone(connection, _STATEMENT, values)
        assert sent is not None  # a query bound straight to the driver
    else:
        sent = await send(connection, _STATEMENT, values, alone=True)
    rows = sent.rows
    return rows[0] if rows else None
