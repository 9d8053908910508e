"""The host hands a seat to a bot for good (S40 replacement, the newcomer a bot of a chosen
level): the person loses the seat's access like any replaced player."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.clock import Clock
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.station.bot_seats.lobby import BOT_LEVELS
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.host.service import announce_handover, retire_holder, seat_to_hand_over


def check_level(level: str) -> str:
    """A bot level the registry knows."""
    if level not in BOT_LEVELS:
        raise Refused(f"Choose a bot level: {', '.join(BOT_LEVELS)}.")
    return level


async def do_hand_to_bot(
    db: AsyncSession, context: GameContext, seat: int, level: str, clock: Clock
) -> None:
    """Hand a person's seat to a bot of `level`, which takes over its codename, role and
    history (S40); the seat is a bot seat from now on (S42: public)."""
    if not context.is_host:
        raise Refused("Only the host may hand a seat to a bot (rule S40).", "S40", 403)
    check_level(level)
    row, codename = await seat_to_hand_over(db, context, seat)
    await retire_holder(db, context.game, row, clock.now())
    row.user_id = None
    row.bot_level = level
    await announce_handover(db, context, codename, f"a bot ({level})", clock.now())
