"""GET routes of a Station game's tabs: `/games/{id}/{tab}` for players, `/watch/{token}/{tab}`
for spectators. Thin: access the game, replay its state, render the engine's view.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Router, get
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath
from litestar.response import Redirect, Response, Template

from deaddrop.engine.station.views import view
from deaddrop.server.accounts.auth import Me, Viewer
from deaddrop.server.accounts.models import User
from deaddrop.server.db.dependencies import DB
from deaddrop.server.db.prefetch import PREFETCH_KEY
from deaddrop.server.render import see_other
from deaddrop.server.render_memo import memoised_page
from deaddrop.server.station.chat.view import chat_values
from deaddrop.server.station.game.access import (
    MEMBER_READ,
    GameContext,
    access_game_for_member,
    access_game_for_spectator,
    check_player,
)
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.live.looks import LOOKS_KEY, Looks
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.standins.page import standin_values
from deaddrop.server.station.tabs.context import SPECTATOR_TABS, TABS, tab_context
from deaddrop.server.station.tabs.info_builder import build_game_info
from deaddrop.server.station.tabs.memos import page_memos
from deaddrop.server.station.tabs.positions import position, position_and_looks
from deaddrop.server.station.tabs.seen import listener_of, mark_seen, tab_badges

# Pages change with every save of anyone at the table: never serve one from a cache.
NO_STORE = {"Cache-Control": "no-store"}


async def render_tab(
    request: Request[Any, Any, Any],
    db: DB,
    context: GameContext,
    tab: str,
    viewer: User | None,
    base_path: str,
) -> Response[bytes] | Template:
    """One tab of a started game, as the context's viewer may see it; the same page again
    (nothing it shows has changed) is taken from the app's memo (server/render_memo.py)."""
    looks = request.app.state[LOOKS_KEY].here()
    values = await tab_values(db, context, tab, base_path, looks=looks)
    template = f"station/tabs/{tab}.html"
    memo = page_memos(db).pages
    return memoised_page(request, memo, template, viewer=viewer, headers=NO_STORE, **values)


async def tab_values(
    db: DB,
    context: GameContext,
    tab: str,
    base_path: str,
    *,
    looked: bool = True,
    looks: Looks | None = None,
) -> dict[str, Any]:
    """Everything a tab's template needs: the engine's view, the chat panels, the live stream.

    `looked`: this rendering counts as the player's look at the tab (its badge clears).
    `looks`: the process's looks writer, which records the look with others a moment later
    (live/looks.py) instead of a write and a commit in this request; without it, the look is
    written here.
    """
    # Read the journal position first: an event after it is pushed again, never missed.
    # The page names the viewer's own cursor, never `after`: that counts others' private acts.
    stream, listener = stream_of(context.game.public_id), listener_of(context)
    player = context.user if context.seat is not None else None  # a spectator has no looks
    if player is not None:  # the player's looks in the same statement
        after, cursor, seen = await position_and_looks(
            db, stream, listener, context.game.id, player.id
        )
    else:
        (after, cursor), seen = await position(db, stream, listener), {}
    if player is not None and looks is not None:
        # This player's looks still on their way to the database count already.
        for seen_tab, seq in looks.seen_by(context.game.id, player.id).items():
            seen[seen_tab] = max(seq, seen.get(seen_tab, 0))
    state = await load_state(db, context.game)
    info = await build_game_info(db, context, state, after)
    values = tab_context(tab, view(state, context.seat), info, base_path=base_path)
    zone = info.viewer_time_zone
    where = (context.game.public_id, after)
    values.update(await chat_values(db, context.game.id, state, context.seat, tab, zone, where))
    values.update(live_url=f"{base_path}/events?tab={tab}", live_after=cursor)
    values.update(standin_values(context, info, state.day))  # public, but for the button
    if player is not None:
        # Rendering a tab to its player is their look at it (issue 5); a look that moves
        # nothing on (the tab already seen up to `after`) writes nothing.
        if looked and (tab not in seen or seen[tab] < after):
            if looks is not None:
                looks.add(context.game.id, player.id, tab, after)
            else:
                await mark_seen(db, context.game.id, player.id, tab, after)
        names = [item["name"] for item in values["tabs"] if item["name"] != tab]
        values["badges"] = await tab_badges(db, context, values["codename"], names, seen, after)
    return values


def _player_tab(tab: str) -> HTTPRouteHandler:
    """The handler of one tab for the game's players."""

    async def handler(
        request: Request[Any, Any, Any], game_id: FromPath[str], db: DB, me: Me
    ) -> Response[bytes] | Template | Redirect:
        member = await access_game_for_member(db, game_id, me)
        if member.game.setup is None:  # not started: the tabs have nothing yet, the lobby does
            return see_other(f"/games/{game_id}/lobby")
        context = check_player(member)
        return await render_tab(request, db, context, tab, me, f"/games/{game_id}")

    handler.__doc__ = f"The {tab} tab of a game, for one of its players."
    # A page made afresh reads its game and seat with the session (db/prefetch.py).
    opt = {PREFETCH_KEY: MEMBER_READ}
    return get(f"/games/{{game_id:str}}/{tab}", name=f"station_{tab}", opt=opt)(handler)


def _spectator_tab(tab: str) -> HTTPRouteHandler:
    """The handler of one public tab behind a spectator link."""

    async def handler(
        request: Request[Any, Any, Any], token: FromPath[str], db: DB, viewer: Viewer
    ) -> Response[bytes] | Template:
        context = await access_game_for_spectator(db, token, viewer)
        return await render_tab(request, db, context, tab, viewer, f"/watch/{token}")

    handler.__doc__ = f"The {tab} tab behind a spectator link: public things only (S28)."
    return get(f"/watch/{{token:str}}/{tab}", name=f"station_watch_{tab}")(handler)


@get("/watch/{token:str}", name="station_watch")
async def watch(token: FromPath[str], db: DB, viewer: Viewer) -> Redirect:
    """The spectator link itself opens on the Cable (404 while the host has it off)."""
    await access_game_for_spectator(db, token, viewer)
    return Redirect(path=f"/watch/{token}/cable", status_code=303)


router = Router(
    path="/",
    route_handlers=[
        *(_player_tab(name) for name, _ in TABS),
        *(_spectator_tab(name) for name, _ in TABS if name in SPECTATOR_TABS),
        watch,
    ],
)
