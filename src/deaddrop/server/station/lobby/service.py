"""`do_*` of the lobby: create a game, join, leave, remove a joiner, start (S1–S5)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station import (
    Setup,
    State,
    setup_to_json,
    start,
)
from deaddrop.engine.station.roles import MAX_PLAYERS
from deaddrop.server.accounts.models import User
from deaddrop.server.clock import Clock
from deaddrop.server.db.base import utcnow
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.hosting.transaction import Conflict
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import (
    StationGame,
    StationSeat,
)
from deaddrop.server.station.game.refusals import explain
from deaddrop.server.station.game.schedule import next_deadline
from deaddrop.server.station.game.store import write_to
from deaddrop.server.station.game.writes import (
    new_token,
    reload_context,
    schedule_of,
    touch,
)
from deaddrop.server.station.host import table_limits


@dataclass(frozen=True)
class NewGame:
    """Checked values of the create-game form."""

    title: str
    pouch_minute: int
    time_zone: str
    day_minutes: int = table_limits.MAX_DAY_MINUTES
    early_pouch: bool = False


async def do_create_game(db: AsyncSession, host: User, values: NewGame) -> StationGame:
    """Open a lobby with the host as its first joiner."""
    game = StationGame(
        public_id=new_token(9),
        invite_token=new_token(),
        host_id=host.id,
        title=values.title,
        status="lobby",
        pouch_minute=values.pouch_minute,
        time_zone=values.time_zone,
        day_minutes=values.day_minutes,
        early_pouch=values.early_pouch,
        lobby_size=1,
    )
    db.add(game)
    await db.flush()
    db.add(StationSeat(game_id=game.id, user_id=host.id))
    await db.commit()
    return game


async def do_join(db: AsyncSession, game: StationGame, user: User) -> None:
    """Join a lobby through its invite (joining twice changes nothing)."""
    if await _seated(db, game, user):
        return
    if game.status != "lobby":
        raise Refused("This game has already started; it takes no new joiners.")
    if game.lobby_size >= MAX_PLAYERS:
        raise Refused("The table is full: Station seats at most 10 players (rule S1).", "S1")
    db.add(StationSeat(game_id=game.id, user_id=user.id))
    game.lobby_size += 1
    touch(game, utcnow())
    try:
        await write_to(db, game).commit()
    except Conflict:
        # The rollback expired both rows; read them again before asking who sits there.
        await db.refresh(game)
        await db.refresh(user)
        if await _seated(db, game, user):
            return  # a double click: the first one joined
        raise Refused("The lobby changed at that moment; try joining again.") from None


async def _seated(db: AsyncSession, game: StationGame, user: User) -> bool:
    seat = await db.scalar(
        select(StationSeat.id).where(StationSeat.game_id == game.id, StationSeat.user_id == user.id)
    )
    return seat is not None


async def do_leave(db: AsyncSession, context: GameContext) -> None:
    """Leave a lobby before the start (the host stays: the game is theirs)."""
    game, seat = context.game, context.seat_row
    if game.status != "lobby":
        raise Refused("The game has started; players cannot leave it now.")
    if context.is_host or seat is None:
        raise Refused("The host cannot leave their own game.")
    await _drop_joiner(db, context, seat)


async def do_kick(db: AsyncSession, context: GameContext, seat_id: int) -> None:
    """The host removes a joiner from the lobby."""
    game = context.game
    if game.status != "lobby":
        raise Refused("The game has started: use Remove or Replace instead.")
    seat = await db.scalar(
        select(StationSeat).where(StationSeat.id == seat_id, StationSeat.game_id == game.id)
    )
    if seat is None:
        raise Refused("That joiner is no longer in the lobby.")
    if seat.user_id == game.host_id:
        raise Refused("The host cannot remove themselves from the lobby.")
    await _drop_joiner(db, context, seat)


async def _drop_joiner(db: AsyncSession, context: GameContext, seat: StationSeat) -> None:
    await db.delete(seat)
    await commit_lobby_size(db, context, -1)


async def commit_lobby_size(db: AsyncSession, context: GameContext, change: int) -> None:
    """Count a seat into (+1) or out of (-1) the lobby and commit; a lobby that changed at the
    same moment refuses, and the game is read again."""
    game = context.game
    game.lobby_size += change
    touch(game, utcnow())
    try:
        await write_to(db, game).commit()
    except Conflict:
        await reload_context(db, context)
        raise Refused("The lobby changed at that moment; try again.") from None


async def do_start(db: AsyncSession, context: GameContext, clock: Clock) -> State:
    """Deal the game (S1–S5) for the joiners in join order and start Day 1's clock."""
    game = context.game
    if game.status != "lobby":
        raise Refused("This game has already started.")
    seats = list(
        await db.scalars(
            select(StationSeat).where(StationSeat.game_id == game.id).order_by(StationSeat.id)
        )
    )
    # S4: the seed is stored with the game; S2: the engine's seat order is the join order.
    names = tuple(f"user-{s.user_id}" if s.user_id is not None else f"bot-{s.id}" for s in seats)
    setup = Setup(names, secrets.randbits(63))
    try:
        state = start(setup)
    except IllegalAction as error:
        raise explain(error) from None
    now = clock.now()
    for index, seat in enumerate(seats):
        seat.seat = index
    game.setup = setup_to_json(setup)
    game.status = "running"
    game.day = 1
    game.started_at = now
    touch(game, now)
    game.deadline = next_deadline(schedule_of(game), now)
    write = write_to(db, game)
    write.reached(0, state)
    try:
        await write.commit()
    except Conflict:
        await reload_context(db, context)
        raise Refused(
            "Someone joined or left at that moment; check the list and start again."
        ) from None
    return state
