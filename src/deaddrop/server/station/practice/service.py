"""`do_practice`: a game of one person and bots, dealt and started at once (issue 14)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.models import User
from deaddrop.server.clock import Clock
from deaddrop.server.live.wakeup import wakeups_of
from deaddrop.server.station.bot_seats.bot_due import BOT_RUNNER
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.game.schedule import DAILY_MINUTES
from deaddrop.server.station.game.writes import new_token
from deaddrop.server.station.lobby.service import do_start
from deaddrop.server.station.practice.forms import Practice


def practice_title(practice: Practice) -> str:
    """What the game is called in lists: who the person plays against."""
    return f"Practice against {practice.players - 1} {practice.level} bots"


async def do_practice(
    db: AsyncSession, person: User, practice: Practice, clock: Clock
) -> StationGame:
    """Seat the person first and the bots after (S2), deal as any game (S1-S5) and start."""
    now = clock.now()
    game = StationGame(
        public_id=new_token(9),
        invite_token=new_token(),
        host_id=person.id,
        title=practice_title(practice),
        status="lobby",
        # Without a day length the day is a whole one: in practice only the person's done
        # mark (S41) ends it, the deadline is a backstop a day away.
        pouch_minute=now.hour * 60 + now.minute,
        time_zone="UTC",
        day_minutes=practice.day_minutes or DAILY_MINUTES,
        early_pouch=True,  # S41: the quick clock; bots are done once they have decided
        practice=True,
        lobby_size=practice.players,
    )
    db.add(game)
    await db.flush()
    mine = StationSeat(game_id=game.id, user_id=person.id)
    db.add(mine)
    await db.flush()  # the person's seat id first: the join order is the seat ids' (S2)
    for _ in range(practice.players - 1):
        db.add(StationSeat(game_id=game.id, user_id=None, bot_level=practice.level))
    await db.commit()
    await do_start(db, GameContext(game, person, mine), clock)
    wakeups_of(db).due(BOT_RUNNER)  # Day 1 is open: the bots decide now, not at the next poll
    return game
