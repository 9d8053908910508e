"""Starting stand-ins: a bot takes over the seat of anyone who has done nothing public today
by `hours` before the Pouch (`quiet.py`), in games whose host turned the auto-pilot on; and
the list of every seat a bot plays (bot seats and stood-in seats), for the bot runner."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import State
from deaddrop.server.hosting.transaction import Conflict
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.game.store import load_state, write_to
from deaddrop.server.station.game.writes import announce, touch
from deaddrop.server.station.standins.ledger import STARTED, started_on
from deaddrop.server.station.standins.models import StationStandIn, StationStandInOption
from deaddrop.server.station.standins.quiet import quiet_today

logger = logging.getLogger("deaddrop.station.standins")


async def seats_to_play(db: AsyncSession, now: datetime) -> list[tuple[int, int]]:
    """Start the stand-ins now due, then list (game id, seat row id) of every seat a bot
    plays in a running game: bot seats and seats a bot stands in for."""
    await start_due(db, now)
    found = await db.execute(
        select(StationGame.id, StationSeat.id)
        .join(StationSeat, StationSeat.game_id == StationGame.id)
        .where(
            StationGame.status == "running",
            StationSeat.bot_level.is_not(None),
            StationSeat.seat.is_not(None),
        )
        .order_by(StationGame.id, StationSeat.seat)
    )
    return [(game_id, seat_id) for game_id, seat_id in found.all()]


async def start_due(db: AsyncSession, now: datetime) -> int:
    """Start every stand-in due now, each once however many runners look; how many began."""
    games = (
        await db.execute(
            select(StationGame, StationStandInOption)
            .join(StationStandInOption, StationStandInOption.game_id == StationGame.id)
            .where(StationGame.status == "running", StationGame.deadline.is_not(None))
        )
    ).all()
    due = [
        (game.id, option.hours, option.level)
        for game, option in games
        if game.deadline is not None
        and game.deadline - timedelta(hours=option.hours) <= now < game.deadline
    ]
    begun = 0
    for game_id, hours, level in due:
        # A lost race rolled back and expired every row: read the game afresh each time.
        game = await db.get(StationGame, game_id, populate_existing=True)
        if game is None or game.status != "running":
            continue
        try:
            begun += await _start_in_game(db, game, (hours, level), now)
        except Conflict:
            # Another runner (or a person's save) wrote to the game first: look again next pass.
            logger.info("a stand-in of game %s lost a race; looked at again later", game_id)
    return begun


async def _start_in_game(
    db: AsyncSession, game: StationGame, option: tuple[int, str], now: datetime
) -> int:
    """Stand in for each person of this game who did nothing public today; how many began."""
    state = await load_state(db, game)
    if state.over:
        return 0
    people = await db.scalars(
        select(StationSeat).where(
            StationSeat.game_id == game.id,
            StationSeat.user_id.is_not(None),
            StationSeat.bot_level.is_(None),
            StationSeat.seat.is_not(None),
        )
    )
    begun = 0
    for row in list(people):
        if await _due(db, game, row, state):
            await _start(db, game, row, option, state, now)
            begun += 1
    return begun


async def _due(db: AsyncSession, game: StationGame, row: StationSeat, state: State) -> bool:
    """A living person with nothing public done today, not already stood in for today."""
    seat = row.seat
    if seat is None or not state.alive[seat]:
        return False
    if await started_on(db, game.id, seat, game.day):
        return False  # they took it back today: their choice stands until tomorrow
    return await quiet_today(db, game.id, state, seat)


async def _start(
    db: AsyncSession,
    game: StationGame,
    row: StationSeat,
    option: tuple[int, str],
    state: State,
    now: datetime,
) -> None:
    """One stand-in begins, with its public notice; a lost race raises `Conflict`."""
    seat, (hours, level) = row.seat or 0, option
    db.add(
        StationStandIn(game_id=game.id, seat=seat, level=level, from_day=game.day, started_at=now)
    )
    row.bot_level = level  # the bot runner plays it from now on, from this seat's view (S42)
    touch(game, now)  # a save of the person's racing with this start: one of the two loses
    codename = state.seats[seat].codename
    text = (
        f"{codename} had not voted, whispered, posted or marked done {hours} h before the "
        f"Pouch: a stand-in bot ({level}) plays the seat until its officer takes it back."
    )
    write = write_to(db, game)
    write.journal([announce(db, game, STARTED, text)])
    await write.commit()
