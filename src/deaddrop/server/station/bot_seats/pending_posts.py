"""Bot posts the chat's rate limit refused: kept, and posted at a later pass of the bot runner
instead of being dropped (issue 14). A runner takes each one by deleting its row before
posting it, so that two runners never post the same one twice."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.channels import Channel
from deaddrop.server.clock import Clock
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.station.bot_seats.pending_models import StationBotPendingPost
from deaddrop.server.station.chat.channels import RateLimited, do_post
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import StationGame, StationSeat

logger = logging.getLogger("deaddrop.station.bots")


async def keep_for_later(
    db: AsyncSession, context: GameContext, channel: Channel, text: str, now: datetime
) -> None:
    """Keep a bot's post the rate limit refused, to post it at a later pass."""
    db.add(
        StationBotPendingPost(
            game_id=context.game.id,
            seat=context.seat,
            channel=channel.value,
            text=text,
            created_at=now,
        )
    )
    await db.commit()


async def post_pending(db: AsyncSession, clock: Clock) -> int:
    """Post every kept post the rate limit now lets through; how many went out. A post whose
    seat no bot plays any more, or that the rules now refuse, is dropped."""
    ids = list(
        await db.scalars(select(StationBotPendingPost.id).order_by(StationBotPendingPost.id))
    )
    await db.commit()  # end the read's transaction before the takes
    posted = 0
    for pending_id in ids:
        taken = await db.execute(
            delete(StationBotPendingPost)
            .where(StationBotPendingPost.id == pending_id)
            .returning(
                StationBotPendingPost.game_id,
                StationBotPendingPost.seat,
                StationBotPendingPost.channel,
                StationBotPendingPost.text,
                StationBotPendingPost.created_at,
            )
        )
        row = taken.first()
        await db.commit()
        if row is None:
            continue  # another runner took it
        context = await _bot_context(db, row.game_id, row.seat)
        if context is None:
            continue  # the game ended or its person took the seat back: theirs to speak now
        try:
            await do_post(db, context, Channel(row.channel), row.text, clock.now())
            posted += 1
        except RateLimited:
            await keep_for_later(db, context, Channel(row.channel), row.text, row.created_at)
        except Refused as refusal:
            logger.info("a kept bot post was refused: %s", refusal.message)
    return posted


async def _bot_context(db: AsyncSession, game_id: int, seat: int) -> GameContext | None:
    """The bot's context at this seat of a running game, or None when no bot plays it now."""
    game = await db.get(StationGame, game_id, populate_existing=True)
    if game is None or game.status != "running":
        return None
    row = await db.scalar(
        select(StationSeat).where(StationSeat.game_id == game_id, StationSeat.seat == seat)
    )
    if row is None or row.bot_level is None:
        return None
    return GameContext(game, None, row)
