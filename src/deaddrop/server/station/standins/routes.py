"""The stand-ins' pages and forms: the host's page (the auto-pilot option, hand a seat to a
bot), and a person's button to take their seat back. Forms and JSON alike."""

from __future__ import annotations

from litestar import Router, get
from litestar.exceptions import PermissionDeniedException
from litestar.params import FromPath
from litestar.response import Template
from sqlalchemy import select

from deaddrop.server.accounts.auth import Me
from deaddrop.server.clock import Clock
from deaddrop.server.db.dependencies import DB
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.render import page
from deaddrop.server.station.bot_seats.lobby import BOT_LEVELS
from deaddrop.server.station.game.access import access_game_for_member, access_game_for_player
from deaddrop.server.station.game.http import (
    AnyRequest,
    Reply,
    flag,
    game_post,
    handle_form,
)
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.standins.back import do_take_back
from deaddrop.server.station.standins.handover import do_hand_to_bot
from deaddrop.server.station.standins.option import (
    DEFAULT_HOURS,
    MAX_HOURS,
    auto_pilot_of,
    check_auto_pilot,
    do_set_auto_pilot,
)

Fields = dict[str, str]


@get("/games/{game_id:str}/standins", name="station_standins")
async def standins_page(db: DB, me: Me, game_id: FromPath[str]) -> Template:
    """The host's page of stand-ins: the auto-pilot option and, in play, hand a seat to a bot."""
    context = await access_game_for_member(db, game_id, me)
    if not context.is_host:
        raise PermissionDeniedException("Only the host may set the stand-ins (rule S40).")
    game = context.game
    people = await _people_in_play(db, game)
    return page(
        "station/standins/page.html",
        viewer=me,
        game=game,
        auto_pilot=await auto_pilot_of(db, game),
        default_hours=DEFAULT_HOURS,
        max_hours=MAX_HOURS,
        levels=BOT_LEVELS,
        living=people,
    )


async def _people_in_play(db: DB, game: StationGame) -> list[str]:
    """The codenames the host may hand to a bot: living seats held by people, in seat order."""
    if game.setup is None or game.status not in ("running", "paused"):
        return []
    state = await load_state(db, game)
    held = await db.scalars(
        select(StationSeat.seat)
        .where(StationSeat.game_id == game.id, StationSeat.user_id.is_not(None))
        .where(StationSeat.user_id != game.host_id)  # S40: the host keeps their own seat
        .order_by(StationSeat.seat)
    )
    return [state.seats[s].codename for s in held if s is not None and state.alive[s]]


async def _set_option(request: AnyRequest, db: DB, me: Me, clock: Clock, game_id: str) -> Reply:
    context = await access_game_for_member(db, game_id, me)

    async def work(fields: Fields) -> str:
        chosen = check_auto_pilot(
            flag(fields, "enabled"),
            fields.get("hours", ""),
            fields.get("level", ""),
            context.game.day_minutes,
        )
        await do_set_auto_pilot(db, context, chosen, clock)
        if chosen.hours is None:
            return "Stand-ins are off."
        return (
            f"A bot ({chosen.level}) stands in for anyone with nothing saved "
            f"{chosen.hours} h before the Pouch."
        )

    return await handle_form(request, f"/games/{game_id}/standins", work)


async def _hand_to_bot(request: AnyRequest, db: DB, me: Me, clock: Clock, game_id: str) -> Reply:
    context = await access_game_for_player(db, game_id, me)

    async def work(fields: Fields) -> str:
        state = await load_state(db, context.game)
        seat = state.seat_by_codename(fields.get("codename", "").strip().upper())
        if seat is None:
            raise Refused("Choose a player by their codename.")
        await do_hand_to_bot(db, context, seat, fields.get("level", ""), clock)
        return "Seat handed to a bot. Everyone has been told."

    return await handle_form(request, f"/games/{game_id}/standins", work)


async def _take_back(request: AnyRequest, db: DB, me: Me, clock: Clock, game_id: str) -> Reply:
    context = await access_game_for_player(db, game_id, me)

    async def work(fields: Fields) -> str:
        await do_take_back(db, context, clock)
        return "Your seat is yours again: the stand-in has left. Everyone has been told."

    return await handle_form(request, f"/games/{game_id}/operations", work)


set_option = game_post(
    "standins",
    "station_standins_set",
    _set_option,
    "Set the auto-pilot: fields `enabled`, `hours` (1 to 23) and `level` (the host only).",
)
hand_to_bot = game_post(
    "host/hand-to-bot",
    "station_host_hand_to_bot",
    _hand_to_bot,
    "Hand a seat to a bot for good (S40): fields `codename` and `level` (the host only).",
)
take_back = game_post(
    "standin/take-back",
    "station_standin_take_back",
    _take_back,
    "Take one's seat back from the bot standing in for one.",
)

router = Router(path="/", route_handlers=[standins_page, set_option, hand_to_bot, take_back])
