"""Posting a text to a channel and answering, shared by the chat box and the claim form."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.clock import Clock
from deaddrop.server.live.journal import cursor_at
from deaddrop.server.station.chat.channels import channel_of, do_post
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.http import AnyRequest, Reply, answer, back_to
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.tabs.seen import listener_of


def tab_of(game_id: str, channel: str) -> str:
    """The page a channel's form sits on: the Floor's, else the Dossier."""
    return f"/games/{game_id}/floor" if channel == "floor" else f"/games/{game_id}/dossier"


async def posted(
    request: AnyRequest,
    db: AsyncSession,
    context: GameContext,
    clock: Clock,
    channel: str,
    fields: dict[str, str],
    text: str,
    message: str = "Message sent.",
) -> Reply:
    """Post `text` through `do_post` (the engine's checks, the rate limit, the journal, the
    wake-up) and answer; Refused as the engine or the limit refuses it."""
    seq = await do_post(db, context, channel_of(channel), text, clock.now())
    # The poster's own cursor (what its pages' streams will number this message), not `seq`.
    game_id = context.game.public_id
    cursor = await cursor_at(db, stream_of(game_id), listener_of(context), seq)
    default = tab_of(game_id, channel)
    return answer(request, back_to(request, fields, default), message, seq=cursor)
