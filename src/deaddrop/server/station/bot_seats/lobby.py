"""`do_add_bot`: the host fills a lobby seat with a bot of a level (issue 14); a bot is removed
like any joiner (`lobby.service.do_kick`)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.bots.station.registry import LEVELS
from deaddrop.engine.station.roles import MAX_PLAYERS
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import StationSeat
from deaddrop.server.station.lobby.service import commit_lobby_size

BOT_LEVELS = tuple(sorted(LEVELS))
"""The levels a host may choose, as the bots' registry names them."""


async def do_add_bot(db: AsyncSession, context: GameContext, level: str) -> None:
    """Seat a bot of `level` in the lobby, like a joiner (S1: at most 10 seats)."""
    game = context.game
    if game.status != "lobby":
        raise Refused("This game has already started; it takes no new joiners.")
    if level not in LEVELS:
        raise Refused(f"Choose a bot level: {', '.join(BOT_LEVELS)}.")
    if game.lobby_size >= MAX_PLAYERS:
        raise Refused("The table is full: Station seats at most 10 players (rule S1).", "S1")
    db.add(StationSeat(game_id=game.id, user_id=None, bot_level=level))
    await commit_lobby_size(db, context, +1)
