"""The session's read of a plain post (server/quick_posts.py), as values: the session's row,
the account and the game with the person's seat in one statement, each as the driver gives it,
checked as the full path checks them (sessions.py, accounts/auth.py, game/access.py), with no
ORM object made. Anything out of the ordinary gives None: the post goes the full way."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CompoundSelect, Integer, and_, bindparam, null, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import State
from deaddrop.server.accounts.auth import USER_ID_KEY, holds_for
from deaddrop.server.accounts.models import User
from deaddrop.server.db.driver import send_in
from deaddrop.server.db.kv import KeyValue
from deaddrop.server.db.request_session import request_session
from deaddrop.server.db.store import DatabaseStore, live_value_with
from deaddrop.server.hosting.forms import AnyRequest
from deaddrop.server.sessions import SessionBackend
from deaddrop.server.station.game.access import MEMBER_READ
from deaddrop.server.station.game.models import StationAction, StationGame, StationSeat
from deaddrop.server.station.game.store import STATION, LogTail, kept_state

_GAMES, _SEATS, _USERS = StationGame.__table__, StationSeat.__table__, User.__table__
_ACTIONS = StationAction.__table__
_MEMBER = live_value_with(
    _USERS.c.auth_epoch,
    _GAMES.c.id,
    _GAMES.c.public_id,
    _GAMES.c.status,
    _GAMES.c.deadline,
    _GAMES.c.version,
    _GAMES.c.row_version,
    _GAMES.c.early_pouch,
    _GAMES.c.setup.is_not(None),
    _SEATS.c.seat,
    _SEATS.c.bot_level,
    null().cast(JSON),  # the log's columns (`_LOG_TAIL`)
    null().cast(Integer),
).select_from(
    KeyValue.__table__.join(_USERS, _USERS.c.id == bindparam("user"))
    .join(_SEATS, _SEATS.c.user_id == _USERS.c.id)
    .join(_GAMES, and_(_GAMES.c.id == _SEATS.c.game_id, _GAMES.c.public_id == bindparam("game")))
)
_LOG_TAIL = (
    select(
        *(null() for _ in range(len(_MEMBER.selected_columns) - 2)),
        _ACTIONS.c.action,
        _ACTIONS.c.seq,
    )
    .select_from(_ACTIONS.join(_GAMES, _GAMES.c.id == _ACTIONS.c.game_id))
    .where(
        _GAMES.c.public_id == bindparam("game"),
        _ACTIONS.c.seq > bindparam("kept"),
        _ACTIONS.c.seq <= _GAMES.c.version,
    )
)
_MEMBER_VALUES: CompoundSelect[Any] = union_all(_MEMBER, _LOG_TAIL)
"""The session's live value, the account's epoch, and the game (`GameValues`, whether it has
started) with the person's seat in it (`MEMBER_READ`'s binds): what a plain post checks, and
no more (the full path's read makes every column of the three rows an object's); then the
game's log entries after the version this process keeps (`kept`) up to the game's own, each a
row of its own (the session's columns NULL): another process's writes, to replay. Two
processes saving on one game find each other's entries at nearly every save, and their read
on its own was one more round trip per save."""


@dataclass(frozen=True, slots=True)
class GameValues:
    """The game row's values a plain post reads (`service.PlayedGame` among them)."""

    id: int
    public_id: str
    status: str
    deadline: datetime | None
    version: int
    row_version: int
    early_pouch: bool


@dataclass(frozen=True, slots=True)
class Reading:
    """What the session's read gave a plain post: its game, the person's seat, who they are,
    and the engine state this process keeps at the game's version read."""

    game: GameValues
    seat: int
    user_id: int
    state: State

    def current(self) -> State | None:
        """The state read, if no writer of this process went on from it since (asked under
        the game's writer lock: each caches what it reached before letting go); else None."""
        return _kept_at(self.game)


async def read_member(request: AnyRequest, backend: SessionBackend) -> Reading | None:
    """The session's row with the account and the game with the person's seat, as values,
    when all of it is as a plain post needs it; else None."""
    scope = request.scope
    session_id = request.cookies.get(backend.config.key)
    user_id = None if session_id is None else backend.names.get(session_id)
    store = backend.config.get_store_from_app(scope["app"])
    if session_id is None or user_id is None or not isinstance(store, DatabaseStore):
        return None  # a session this process has not read yet: the full path learns it
    member = MEMBER_READ.values(scope.get("path_params") or {}, user_id)
    if member is None:
        return None
    newest = STATION.states.get(member["game"])
    if newest is None:
        return None  # no state of the game kept: the full path starts from its setup
    db = request_session(scope, store.sessionmaker)
    kept = newest[0]
    values = {**store.live_values(session_id), **member, "kept": kept}
    found = (await send_in(db, _MEMBER_VALUES, values, alone=True)).rows
    members = [row for row in found if row[-1] is None]
    if len(members) != 1:
        return None  # no live session, no such account, or no seat of theirs: the full path
    raw, epoch, *row, _entry, _seq = members[0]
    data = backend.deserialize_data(raw)
    if data.get(USER_ID_KEY) != user_id or not holds_for(data, epoch):
        return None
    if not backend.stays_as_read(data, raw, scope):
        return None  # a session to renew or move: the full path writes it
    entries = sorted((seq, entry) for *_member, entry, seq in found if seq is not None)
    tail = LogTail(kept, [entry for _seq, entry in entries])
    return await _reading(db, row, user_id, tail)


def _kept_at(game: GameValues) -> State | None:
    """The engine state this process keeps of `game` at its version, if it is its newest."""
    newest = STATION.states.get(game.public_id)
    return newest[1] if newest is not None and newest[0] == game.version else None


async def _reading(db: AsyncSession, row: list[Any], user_id: int, tail: LogTail) -> Reading | None:
    """The game and seat of the member's read, when the game has started, the seat is the
    person's own to play (no bot standing in for them) and this process keeps a state of the
    game to bring to the version read (`kept_state`, with the log's entries read beside);
    else None."""
    *columns, started, seat, bot_level = row
    if not started or seat is None or bot_level is not None:
        return None
    game = GameValues(*columns)
    state = await kept_state(db, game.id, game.public_id, game.version, tail)
    if state is None:
        return None  # none kept: the full path starts from the game's setup
    return Reading(game, seat, user_id, state)
