"""The Station lobby: create a game, join it by invite, leave, remove joiners, start (S1–S5)."""

from __future__ import annotations

from collections.abc import Awaitable
from datetime import datetime
from typing import Annotated
from urllib.parse import quote

from litestar import Router, get, post
from litestar.enums import RequestEncodingType
from litestar.params import Body, FromPath
from litestar.plugins.flash import flash
from litestar.response import Redirect, Template
from sqlalchemy import select

from deaddrop.engine.station.roles import MAX_PLAYERS, MIN_PLAYERS
from deaddrop.server.accounts.auth import Me, Viewer
from deaddrop.server.accounts.checks import offered_time_zones
from deaddrop.server.accounts.models import User
from deaddrop.server.db.dependencies import DB
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.numbers import BadNumber, whole_number
from deaddrop.server.render import FORM_REFUSED, page, see_other
from deaddrop.server.station.bot_seats.lobby import BOT_LEVELS, do_add_bot
from deaddrop.server.station.game.access import (
    access_game_by_invite,
    access_game_for_host,
    access_game_for_member,
)
from deaddrop.server.station.game.http import AnyRequest, ClockDep, fields_of
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.game.writes import schedule_of
from deaddrop.server.station.lobby.forms import DAY_LENGTHS, NewGameForm, validate_new_game
from deaddrop.server.station.lobby.schedule_text import duration_text, first_pouch, form_first_pouch
from deaddrop.server.station.lobby.service import (
    do_create_game,
    do_join,
    do_kick,
    do_leave,
    do_start,
)
from deaddrop.server.station.practice.routes import form_values

Form = Body(media_type=RequestEncodingType.URL_ENCODED)
LABELS = {
    "title": "Title",
    "pouch_time": "Pouch time",
    "time_zone": "Time zone",
    "day_minutes": "Day length",
}


def lobby_path(game: StationGame) -> str:
    """Where a game's lobby lives."""
    return f"/games/{game.public_id}/lobby"


def play_path(game: StationGame) -> str:
    """Where a started game is played: its first tab."""
    return f"/games/{game.public_id}/cable"


@get("/games/new", name="station_new_game")
async def new_game_page(me: Me, clock: ClockDep) -> Template:
    """The create-game form, in the host's own time zone (or the device's, see app.js)."""
    form = NewGameForm(time_zone=me.time_zone)
    # A zone never chosen (the account's UTC default) gives way to the browser's own zone.
    return _new_game_form(me, form, {}, clock.now(), zone_from_device=form.time_zone == "UTC")


@post("/games/new")
async def create_game(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, data: Annotated[NewGameForm, Form]
) -> Template | Redirect:
    """Open the lobby and show its invite link, or show what to fix."""
    values, errors = validate_new_game(data)
    if errors:
        return _new_game_form(me, data, errors, clock.now(), status_code=FORM_REFUSED)
    game = await do_create_game(db, me, values)
    flash(request, "Game created. Send the invite link to your friends.", category="success")
    return see_other(lobby_path(game))


@get("/games/{game_id:str}", name="station_game")
async def game_home(db: DB, me: Me, game_id: FromPath[str]) -> Redirect:
    """A game's own address: its lobby before the start, its first tab after."""
    context = await access_game_for_member(db, game_id, me)
    game = context.game
    return see_other(lobby_path(game) if game.status == "lobby" else play_path(game))


@get("/games/{game_id:str}/lobby", name="station_lobby")
async def lobby_page(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
) -> Template | Redirect:
    """Who joined, the invite link, and the host's start and remove buttons."""
    context = await access_game_for_member(db, game_id, me)
    game = context.game
    if game.status != "lobby":
        return see_other(play_path(game))
    joiners = (
        await db.execute(
            select(StationSeat.id, User.display_name, StationSeat.user_id, StationSeat.bot_level)
            .outerjoin(User, User.id == StationSeat.user_id)
            .where(StationSeat.game_id == game.id)
            .order_by(StationSeat.id)
        )
    ).all()
    return page(
        "station/lobby/lobby.html",
        viewer=me,
        game=game,
        is_host=context.is_host,
        joiners=[
            {
                "seat_id": seat_id,
                "name": name if bot_level is None else f"Bot ({bot_level})",  # S42: public
                "is_host": user_id == game.host_id,
                "is_me": user_id == me.id,
            }
            for seat_id, name, user_id, bot_level in joiners
        ],
        bot_levels=BOT_LEVELS,
        invite_url=str(request.base_url).rstrip("/") + f"/join/{game.invite_token}",
        day_text=duration_text(game.day_minutes),
        first_pouch=first_pouch(schedule_of(game), clock.now()),
    )


@get("/join/{token:str}", name="station_invite")
async def invite_page(db: DB, viewer: Viewer, token: FromPath[str]) -> Template | Redirect:
    """The invitation, to anyone with the link: the game, its host and how many have joined;
    a button to join it, or (without an account) Sign up and Log in that come back here."""
    game = await access_game_by_invite(db, token)
    if viewer is not None:
        seated = await db.scalar(
            select(StationSeat.id).where(
                StationSeat.game_id == game.id, StationSeat.user_id == viewer.id
            )
        )
        if seated is not None:
            return see_other(lobby_path(game))
    host = await db.get(User, game.host_id)
    return page(
        "station/lobby/join.html",
        viewer=viewer,
        game=game,
        host_name=host.display_name if host else "",
        token=token,
        here=f"/join/{quote(token, safe='')}",
        day_lengths=dict(DAY_LENGTHS),
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
    )


@post("/join/{token:str}")
async def join(request: AnyRequest, db: DB, me: Me, token: FromPath[str]) -> Redirect:
    """Join the lobby."""
    game = await access_game_by_invite(db, token)
    joined = f"You joined {game.title}."
    return await _flashed(
        request, do_join(db, game, me), joined, lobby_path(game), f"/join/{token}"
    )


@post("/games/{game_id:str}/leave", name="station_leave")
async def leave(request: AnyRequest, db: DB, me: Me, game_id: FromPath[str]) -> Redirect:
    """Leave a lobby before the start."""
    context = await access_game_for_member(db, game_id, me)
    left = f"You left {context.game.title}."
    return await _flashed(request, do_leave(db, context), left, "/", lobby_path(context.game))


@post("/games/{game_id:str}/kick", name="station_kick")
async def kick(request: AnyRequest, db: DB, me: Me, game_id: FromPath[str]) -> Redirect:
    """The host removes a joiner from the lobby: field `seat_id`."""
    context = await access_game_for_host(db, game_id, me)
    fields = await fields_of(request)

    async def kick_the_joiner() -> None:
        try:
            seat_id = whole_number(fields.get("seat_id", ""), "seat_id")
        except BadNumber:
            raise Refused("Choose a joiner to remove.") from None
        await do_kick(db, context, seat_id)

    lobby = lobby_path(context.game)
    removed = "Joiner removed from the lobby."
    return await _flashed(request, kick_the_joiner(), removed, lobby, lobby)


@post("/games/{game_id:str}/bots", name="station_add_bot")
async def add_bot(request: AnyRequest, db: DB, me: Me, game_id: FromPath[str]) -> Redirect:
    """The host seats a bot in the lobby: field `level` (issue 14)."""
    context = await access_game_for_host(db, game_id, me)
    fields = await fields_of(request)
    seated = do_add_bot(db, context, fields.get("level", ""))
    lobby = lobby_path(context.game)
    return await _flashed(request, seated, "A bot took a seat.", lobby, lobby)


@post("/games/{game_id:str}/start", name="station_start")
async def start_game(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
) -> Redirect:
    """The host deals the roles and starts Day 1 (6–10 players, S1)."""
    context = await access_game_for_host(db, game_id, me)
    begun = "The game has begun. Day 1: read your Dossier."
    started = do_start(db, context, clock)
    return await _flashed(
        request, started, begun, play_path(context.game), lobby_path(context.game)
    )


async def _flashed(
    request: AnyRequest, work: Awaitable[object], done: str, there: str, refused_to: str
) -> Redirect:
    """Do `work`, then flash `done` and go `there`; a refusal is flashed in plain words on the
    way to `refused_to`."""
    try:
        await work
    except Refused as refusal:
        flash(request, refusal.message, category="error")
        return see_other(refused_to)
    flash(request, done, category="success")
    return see_other(there)


def _new_game_form(
    me: User,
    form: NewGameForm,
    errors: dict[str, str],
    now: datetime,
    status_code: int = 200,
    *,
    zone_from_device: bool = False,
) -> Template:
    return page(
        "station/lobby/new.html",
        viewer=me,
        form=form,
        errors=errors,
        labels=LABELS,
        zones=offered_time_zones(),
        day_lengths=DAY_LENGTHS,
        first_pouch=form_first_pouch(form, now),
        zone_from_device=zone_from_device,
        status_code=status_code,
        **form_values(),
    )


router = Router(
    path="/",
    route_handlers=[
        new_game_page,
        game_home,
        create_game,
        lobby_page,
        invite_page,
        join,
        leave,
        kick,
        add_bot,
        start_game,
    ],
)
