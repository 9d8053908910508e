"""Jump to the end: once the person is burned, the bots play the rest of a practice game out
at once, each decision through the bot runner's own claim (so a runner in the background never
decides the same thing twice) and each Pouch through the Pouch runner's own step."""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta

from sqlalchemy import Select, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.engine.station import State
from deaddrop.server.clock import Clock
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.station.bot_seats.runner import BotRunner, BotTiming
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.play.pouch_runner import PouchRunner

logger = logging.getLogger("deaddrop.station.practice")

JUMP_SECONDS = 120.0
"""The longest a jump plays before it gives up (the background runners go on regardless)."""
WAIT_SECONDS = 0.1
"""The pause when another runner holds a decision or the Pouch for a moment."""
AT_ONCE = BotTiming(min_interval=timedelta(0))
"""The bots decide on whatever they have not decided yet, without waiting."""


def check_jump(context: GameContext, state: State) -> None:
    """A practice game whose person is burned and which is not over yet."""
    if not context.game.practice:
        raise Refused("Only a practice game can be played out by its bots.")
    if state.over:
        raise Refused("The game is already over.")
    if context.seat is None or state.alive[context.seat]:
        raise Refused("You are still in the game: the bots play on only once you are burned.")


async def do_jump_to_end(
    sessionmaker: async_sessionmaker[AsyncSession], game_id: int, clock: Clock
) -> None:
    """Play the bots and the Pouches until the game is over (Day 10's Pouch at the latest, S24)."""
    bots = BotRunner(sessionmaker, clock, AT_ONCE)
    pouches = PouchRunner(sessionmaker, clock, name=bots.name)
    give_up = time.monotonic() + JUMP_SECONDS
    while True:
        async with sessionmaker() as db:
            game = await db.get(StationGame, game_id)
            if game is None or game.status == "over":
                return
            seats = list(await db.scalars(_bot_seats(game_id)))
        for seat_id in seats:
            try:
                async with sessionmaker() as db:
                    await bots.play_seat(db, game_id, seat_id)
            except OperationalError:
                # A moment's trouble (a locked database): the runner gave the decision back,
                # and the next round decides it again.
                logger.warning("a jump's bot seat %s failed; trying again", seat_id, exc_info=True)
        # The last bot's done mark made the Pouch due (S41); another runner may have sent it.
        if await pouches.step(game_id) is not None:
            continue
        if time.monotonic() > give_up:
            raise Refused("The bots are still playing; look again in a moment.")
        await asyncio.sleep(WAIT_SECONDS)


def _bot_seats(game_id: int) -> Select[int]:
    """The game's bot seats in seat order."""
    return (
        select(StationSeat.id)
        .where(
            StationSeat.game_id == game_id,
            StationSeat.bot_level.is_not(None),
            StationSeat.seat.is_not(None),
        )
        .order_by(StationSeat.seat)
    )
