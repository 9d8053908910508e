"""Chat and whispers: post to a channel (S14, S28–S30), whisper (S31), page back through history.

Thin: access the game, hand the text to `chat.do_post` or the engine's `SendWhisper`, answer
with a redirect and a flash (forms) or JSON (`/api/…`, and the page's script).
"""

from __future__ import annotations

from dataclasses import replace

from litestar import Router, get
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, FromQuery
from litestar.response import Template

from deaddrop.engine.station import Action, SendWhisper
from deaddrop.server.accounts.auth import Me, Viewer
from deaddrop.server.db.dependencies import DB
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.numbers import optional_number
from deaddrop.server.render import page
from deaddrop.server.station.chat import claim_routes
from deaddrop.server.station.chat.channels import channel_of
from deaddrop.server.station.chat.posting import channel_post, flash_refusal
from deaddrop.server.station.chat.view import panel
from deaddrop.server.station.game.access import (
    GameContext,
    access_game_for_player,
    access_game_for_spectator,
)
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.play.routes import Posted, save_route
from deaddrop.server.station.tabs.info_builder import build_game_info
from deaddrop.server.station.tabs.routes import NO_STORE


def _text(fields: dict[str, str], channel: str) -> str:
    """Post field `text` to a channel, if the engine allows this player to (S28–S30, S14)."""
    return fields.get("text", "")


post_message = channel_post("chat/", "station_chat_post", _text, "Message sent.", flash_refusal)


@save_route("whisper", "station_whisper", "dossier", "Whisper sent.")
def whisper(posted: Posted) -> Action:
    """Whisper: fields `recipient` (a codename) and `text`; two a day (S31)."""
    text = posted.fields.get("text", "").replace("\r\n", "\n")
    return SendWhisper(posted.seat, posted.seat_of("recipient"), text)


async def _history_page(
    db: DB, context: GameContext, channel: str, before: int | None, base: str, viewer: Me | None
) -> Template:
    """Older messages of one channel, as this viewer may read them now."""
    state = await load_state(db, context.game)
    info = await build_game_info(db, context, state)
    try:
        named = channel_of(channel)
    except Refused:
        raise NotFoundException("There is no such channel here.") from None
    zone = info.viewer_time_zone
    found = await panel(db, context.game.id, state, context.seat, named, zone, before)
    if found is None:  # not readable now: as if it did not exist (DESIGN.md)
        raise NotFoundException("There is no such channel here.")
    return page(
        "station/chat/history.html",
        viewer=viewer,
        headers=NO_STORE,
        game=info,
        panel=replace(found, can_post=False),  # posting happens on the game page
        base=base,
    )


@get("/games/{game_id:str}/chat/{channel:str}", name="station_chat_history")
async def chat_history(
    db: DB,
    me: Me,
    game_id: FromPath[str],
    channel: FromPath[str],
    before: FromQuery[str | None] = None,
) -> Template:
    """A channel's history, paging back from message id `before`."""
    older_than = optional_number(before, "before")
    context = await access_game_for_player(db, game_id, me)
    return await _history_page(db, context, channel, older_than, f"/games/{game_id}", me)


@get("/watch/{token:str}/chat/floor", name="station_watch_chat_history")
async def watch_chat_history(
    db: DB, viewer: Viewer, token: FromPath[str], before: FromQuery[str | None] = None
) -> Template:
    """The Floor's history behind a spectator link (S28: spectators read the Floor)."""
    older_than = optional_number(before, "before")
    context = await access_game_for_spectator(db, token, viewer)
    return await _history_page(db, context, "floor", older_than, f"/watch/{token}", viewer)


router = Router(
    path="/",
    route_handlers=[
        post_message,
        whisper,
        chat_history,
        watch_chat_history,
        *claim_routes.HANDLERS,
    ],
)
