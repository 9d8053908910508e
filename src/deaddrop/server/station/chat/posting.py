"""Posting to a channel, shared by the chat box and the claim form: the endpoint reads a text
from the posted fields, and the text goes through `do_post` whatever made it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from litestar import Response, post
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath
from litestar.response import Template
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.auth import Me
from deaddrop.server.clock import Clock
from deaddrop.server.db.dependencies import DB
from deaddrop.server.db.prefetch import PREFETCH_KEY
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.quick_posts import PLAIN_KEY, QUICK_KEY
from deaddrop.server.sessions import SessionBackend
from deaddrop.server.station.chat.channels import channel_of, do_post
from deaddrop.server.station.chat.plain_posts import plain_post
from deaddrop.server.station.game.access import MEMBER_READ, GameContext, access_game_for_player
from deaddrop.server.station.game.http import (
    AnyRequest,
    ClockDep,
    Done,
    Reply,
    back_to,
    game_paths,
    handle_form,
    refuse,
)

TextOf = Callable[[dict[str, str], str], str]
"""The text to post from the posted fields and the channel's name; Refused when there is none."""
OnRefusal = Callable[
    [AnyRequest, AsyncSession, GameContext, dict[str, str], Refused, str | None],
    Awaitable[Reply | Template],
]
"""How an endpoint answers a refusal: (request, db, game, fields, refusal, channel)."""


def tab_of(game_id: str, channel: str) -> str:
    """The page a channel's form sits on: the Floor's, else the Dossier."""
    return f"/games/{game_id}/floor" if channel == "floor" else f"/games/{game_id}/dossier"


async def flash_refusal(
    request: AnyRequest,
    db: AsyncSession,
    context: GameContext,
    fields: dict[str, str],
    refusal: Refused,
    channel: str | None,
) -> Reply:
    """A refusal as JSON, or as a flash back on the channel's page."""
    back = back_to(request, fields, tab_of(context.game.public_id, channel or "dossier"))
    return refuse(request, back, refusal)


def channel_post(
    tail: str, name: str, text_of: TextOf, message: str, on_refusal: OnRefusal
) -> HTTPRouteHandler:
    """The POST endpoint `/games/{id}/<tail>{channel}` that posts `text_of(fields, channel)`
    through `do_post` (the engine's checks, the rate limit, the journal, the wake-up)."""

    async def handler(
        request: AnyRequest,
        db: DB,
        me: Me,
        clock: ClockDep,
        game_id: FromPath[str],
        channel: FromPath[str],
    ) -> Reply | Template:
        context = await access_game_for_player(db, game_id, me)

        async def work(fields: dict[str, str]) -> Done:
            text = text_of(fields, channel)
            sent = await do_post(db, context, channel_of(channel), text, clock.now())
            # The poster's own cursor (what its pages' streams number this message), not `seq`.
            return Done(message, {"seq": sent.cursor})

        async def refused(fields: dict[str, str], refusal: Refused) -> Reply | Template:
            return await on_refusal(request, db, context, fields, refusal, channel)

        return await handle_form(request, tab_of(game_id, channel), work, refused)

    async def plain(
        request: AnyRequest, backend: SessionBackend, clock: Clock
    ) -> Response[Any] | None:
        return await plain_post(request, backend, clock, text_of, message)

    handler.__doc__ = text_of.__doc__
    handler.__name__ = handler.__qualname__ = name
    # Its JSON posts go quick: its parameters are those a quick post gives (quick_posts.py);
    # tried first its plain way (plain_posts.py). Its game and seat are read with the session
    # (db/prefetch.py).
    opt = {QUICK_KEY: True, PREFETCH_KEY: MEMBER_READ, PLAIN_KEY: plain}
    return post(game_paths("", tail + "{channel:str}"), name=name, opt=opt)(handler)
