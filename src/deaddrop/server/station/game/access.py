"""`access_*`: the only way a request gets hold of a Station game (DESIGN.md).

Each check is on its own line; a game someone may not see answers 404, exactly as a game that
does not exist, so that an outsider learns nothing, not even that it exists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from litestar.exceptions import NotFoundException, PermissionDeniedException
from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from deaddrop.server.accounts.models import User
from deaddrop.server.db.driver import send_in
from deaddrop.server.db.prefetch import Companion
from deaddrop.server.db.raw_rows import columns_of, loaded, renew, renewable
from deaddrop.server.station.game.models import StationGame, StationSeat

NOT_FOUND = "There is no such game, or you are not at its table."


@dataclass
class GameContext:
    """A game as one person (or a spectator) may reach it."""

    game: StationGame
    """The game row."""
    user: User | None
    """The person asking; None for a spectator link without an account."""
    seat_row: StationSeat | None
    """The seat this person holds; None for a spectator."""

    @property
    def seat(self) -> int | None:
        """The engine seat index (None in the lobby and for spectators)."""
        return None if self.seat_row is None else self.seat_row.seat

    @property
    def is_host(self) -> bool:
        """Whether this person created the game (S40)."""
        return self.user is not None and self.user.id == self.game.host_id


async def _game_by(
    db: AsyncSession,
    column: InstrumentedAttribute[str] | InstrumentedAttribute[str | None],
    value: str,
) -> StationGame | None:
    if not value or len(value) > 64:
        return None
    return await db.scalar(select(StationGame).where(column == value))


_GAME_COLUMNS = columns_of(StationGame)
_GAMES, _SEATS = StationGame.__table__, StationSeat.__table__
_GAME_WITH_SEAT = select(*_GAME_COLUMNS, *columns_of(StationSeat)).select_from(
    _GAMES.join(_SEATS, _SEATS.c.game_id == _GAMES.c.id)
)
_MEMBER = _GAME_WITH_SEAT.where(
    _GAMES.c.public_id == bindparam("game"), _SEATS.c.user_id == bindparam("user")
)
"""A game by public id with one person's seat in it, their columns; built once, not per
request."""


def _member_values(path: Mapping[str, Any], user_id: Any) -> dict[str, Any] | None:
    """`_MEMBER`'s values for a request to a game's address (`game_id`) by the person signed in."""
    game_id = path.get("game_id")
    if not isinstance(game_id, str) or not game_id or len(game_id) > 64:
        return None  # answered 404 without a read
    return {"game": game_id, "user": user_id}


MEMBER_READ = Companion(_MEMBER, _member_values)
"""The game with the person's seat, read with the session's own row (db/prefetch.py): the
routes that start with `access_game_for_member` name it in their `opt`."""


async def access_game_for_member(db: AsyncSession, game_id: str, user: User) -> GameContext:
    """The game for someone holding a seat in it (the host always does); else 404."""
    if not game_id or len(game_id) > 64:
        raise NotFoundException(NOT_FOUND)
    # The game and this person's seat in one round trip: every page of a game starts here.
    # Straight through the driver on SQLite (db/driver.py): every page and save asks it; a
    # route naming `MEMBER_READ` has it read with the session's row already (db/prefetch.py).
    found = (await send_in(db, _MEMBER, {"game": game_id, "user": user.id}, alone=True)).rows
    # Outsiders, joiners who left or were removed, and holders who were replaced see nothing;
    # a game that does not exist answers the same.
    if not found:
        raise NotFoundException(NOT_FOUND)
    row, split = found[0], len(_GAME_COLUMNS)
    game = loaded(db, StationGame, row[:split])
    return GameContext(game, user, loaded(db, StationSeat, row[split:]))


_AGAIN = _GAME_WITH_SEAT.where(_GAMES.c.id == bindparam("game"), _SEATS.c.id == bindparam("seat"))
_GAME_AGAIN = select(*_GAME_COLUMNS).where(_GAMES.c.id == bindparam("game"))


async def read_again(db: AsyncSession, context: GameContext) -> bool:
    """Read the context's game and seat rows again, as another writer of this process left them
    while this request waited for the game's writer lock: one query straight through the driver,
    not an ORM refresh of each row (three of them cost a save queued behind others more than the
    save itself). False, nothing changed, when a row holds changes or expired attributes of its
    own or is gone: the caller refreshes them through the ORM (`reload_context`)."""
    game, seat = context.game, context.seat_row
    rows = (game,) if seat is None else (game, seat)
    if not all(renewable(row) for row in rows):
        return False
    if seat is None:
        found = (await send_in(db, _GAME_AGAIN, {"game": game.id})).rows
    else:
        found = (await send_in(db, _AGAIN, {"game": game.id, "seat": seat.id})).rows
    if not found:
        return False
    row, split = found[0], len(_GAME_COLUMNS)
    renew(game, row[:split])
    if seat is not None:
        renew(seat, row[split:])
    return True


async def access_game_for_host(db: AsyncSession, game_id: str, user: User) -> GameContext:
    """The game for its host (S40 tools); 404 for outsiders, 403 for the other players."""
    context = await access_game_for_member(db, game_id, user)
    if not context.is_host:
        raise PermissionDeniedException("Only the host of this game may do that.")
    return context


async def access_game_for_player(db: AsyncSession, game_id: str, user: User) -> GameContext:
    """The game for a seat holder once it has started (play, views); 404 before and outside."""
    return check_player(await access_game_for_member(db, game_id, user))


def check_player(context: GameContext) -> GameContext:
    """A member's context once the game has started and they hold an engine seat; else 404."""
    if context.game.setup is None:
        raise NotFoundException("This game has not started yet.")
    if context.seat is None:
        raise NotFoundException(NOT_FOUND)
    return context


async def access_game_for_spectator(
    db: AsyncSession, token: str, user: User | None = None
) -> GameContext:
    """The game behind a spectator link, when the host has it on and play has begun; else 404."""
    game = await _game_by(db, StationGame.spectator_token, token)
    if game is None:
        raise NotFoundException(NOT_FOUND)
    if game.setup is None:
        raise NotFoundException(NOT_FOUND)
    # A spectator sees what a burned seat sees of public things, never a seat of their own.
    return GameContext(game, user, None)


async def access_game_by_invite(db: AsyncSession, token: str) -> StationGame:
    """The game an invite link names (to show its lobby and join it); else 404."""
    game = await _game_by(db, StationGame.invite_token, token)
    if game is None:
        raise NotFoundException("This invitation is not valid. Ask the host for a new link.")
    return game
