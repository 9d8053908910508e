"""The host's tools during play (S40): a page, and endpoints for forms and JSON alike.

Every tool is announced publicly in the game (game/writes.announce), and bounded by table_limits.py.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from litestar import Router, get
from litestar.exceptions import NotFoundException
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath
from litestar.response import Template

from deaddrop.server.accounts.auth import Me
from deaddrop.server.accounts.checks import InvalidField, check_username
from deaddrop.server.accounts.service import find_user
from deaddrop.server.clock import Clock
from deaddrop.server.db.dependencies import DB
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.render import page
from deaddrop.server.station.game.access import GameContext, access_game_for_host
from deaddrop.server.station.game.http import (
    AnyRequest,
    Reply,
    flag,
    game_post,
    handle_form,
)
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.host import table_limits
from deaddrop.server.station.host.service import (
    do_extend,
    do_pause,
    do_remove,
    do_replace,
    do_resume,
    do_set_spectators,
)
from deaddrop.server.station.lobby.forms import EXTENSIONS, check_minutes
from deaddrop.server.station.tabs.info_builder import build_game_info, spectator_path

Fields = dict[str, str]
Tool = Callable[[DB, GameContext, Fields, Clock], Awaitable[str]]
"""A host tool: does its work and returns the message to show."""
Run = Callable[[GameContext, Fields], Awaitable[str]]


async def _started(db: DB, game_id: FromPath[str], me: Me) -> GameContext:
    context = await access_game_for_host(db, game_id, me)
    if context.game.setup is None:
        raise NotFoundException("The host's tools open once the game has started.")
    return context


@get("/games/{game_id:str}/host", name="station_host")
async def host_page(request: AnyRequest, db: DB, me: Me, game_id: FromPath[str]) -> Template:
    """The host's desk: pause, extend, replace, remove, the spectator link, the notices."""
    context = await _started(db, game_id, me)
    game = context.game
    state = await load_state(db, game)
    info = await build_game_info(db, context, state)
    link = spectator_path(game)
    return page(
        "station/lobby/host.html",
        viewer=me,
        game=game,
        info=info,
        living=[state.seats[s].codename for s in state.living()],
        over=state.over,
        extensions=EXTENSIONS,
        extension_left_minutes=int(
            (table_limits.MAX_EXTENSION_PER_DAY.total_seconds() - game.day_extended_seconds) // 60
        ),
        spectator_link=str(request.base_url).rstrip("/") + link if link else None,
    )


async def _use(request: AnyRequest, db: DB, me: Me, game_id: str, tool: Run) -> Reply:
    """Run one tool for the game's host and answer the form or the script."""
    context = await _started(db, game_id, me)
    return await handle_form(request, f"/games/{game_id}/host", lambda f: tool(context, f))


def _tool(tail: str, tool: Tool) -> HTTPRouteHandler:
    """The endpoint of one host tool (`tool`'s docstring is the endpoint's)."""

    async def endpoint(request: AnyRequest, db: DB, me: Me, clock: Clock, game_id: str) -> Reply:
        return await _use(request, db, me, game_id, lambda c, f: tool(db, c, f, clock))

    name = "station_host_" + tail
    return game_post("host/" + tail, name, endpoint, tool.__doc__)


async def _pause(db: DB, context: GameContext, fields: Fields, clock: Clock) -> str:
    """Pause the game's clock (ends by itself after 72 hours)."""
    await do_pause(db, context, clock)
    return "Game paused. Everyone has been told."


async def _resume(db: DB, context: GameContext, fields: Fields, clock: Clock) -> str:
    """Restart the clock with the time that was left."""
    await do_resume(db, context, clock)
    return "Game resumed. Everyone has been told."


async def _extend(db: DB, context: GameContext, fields: Fields, clock: Clock) -> str:
    """Extend today's deadline: field `minutes` (at most 24 hours a day in all)."""
    try:
        minutes = check_minutes(fields.get("minutes", ""), EXTENSIONS)
    except InvalidField as error:
        raise Refused(str(error)) from None
    await do_extend(db, context, minutes, clock)
    return "Deadline extended. Everyone has been told."


async def _replace(db: DB, context: GameContext, fields: Fields, clock: Clock) -> str:
    """Hand a seat to a newcomer: fields `codename` and `username` (S40)."""
    seat = await _seat(db, context, fields)
    try:
        username = check_username(fields.get("username", ""))
    except InvalidField as error:
        raise Refused(str(error)) from None
    newcomer = await find_user(db, username)
    if newcomer is None:
        raise Refused(f"No account is called {username}; they must sign up first.")
    await do_replace(db, context, seat, newcomer, clock)
    return "Seat handed over. Everyone has been told."


async def _remove(db: DB, context: GameContext, fields: Fields, clock: Clock) -> str:
    """Remove a player at once (burned, cause removed): fields `codename`, `confirm=yes`."""
    seat = await _seat(db, context, fields)
    if not flag(fields, "confirm"):
        raise Refused("Tick the box to confirm the removal: it cannot be undone.")
    await do_remove(db, context, seat, clock)
    return "Player removed. Everyone has been told."


async def _spectators(db: DB, context: GameContext, fields: Fields, clock: Clock) -> str:
    """Turn the public spectator link on (`enabled=yes`, a fresh link) or off."""
    enabled = flag(fields, "enabled")
    await do_set_spectators(db, context, enabled, clock)
    return "Spectator link opened." if enabled else "Spectator link closed."


pause = _tool("pause", _pause)
resume = _tool("resume", _resume)
extend = _tool("extend", _extend)
replace = _tool("replace", _replace)
remove = _tool("remove", _remove)
spectators = _tool("spectators", _spectators)


async def _seat(db: DB, context: GameContext, fields: dict[str, Any]) -> int:
    """The seat named by the `codename` field."""
    state = await load_state(db, context.game)
    codename = str(fields.get("codename", "")).strip().upper()
    seat = state.seat_by_codename(codename)
    if seat is None:
        raise Refused("Choose a player by their codename.")
    return seat


router = Router(
    path="/",
    route_handlers=[host_page, pause, resume, extend, replace, remove, spectators],
)
