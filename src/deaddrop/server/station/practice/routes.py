"""Practice games on the web: the form (`/practice`), its one click, and Jump to the end."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Router, get, post
from litestar.enums import RequestEncodingType
from litestar.params import Body
from litestar.response import Redirect, Template

from deaddrop.server.accounts.auth import Viewer, log_in
from deaddrop.server.accounts.models import User
from deaddrop.server.accounts.throttle import Throttle
from deaddrop.server.clock import Clock
from deaddrop.server.db.dependencies import DB
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.render import FORM_REFUSED, client_ip, page, see_other
from deaddrop.server.station.game.access import access_game_for_player
from deaddrop.server.station.game.http import (
    AnyRequest,
    ClockDep,
    Reply,
    answer,
    game_post,
    refuse,
)
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.practice.forms import (
    DAY_CHOICES,
    LABELS,
    LEVEL_CHOICES,
    PLAYER_CHOICES,
    PracticeForm,
    validate_practice,
)
from deaddrop.server.station.practice.guests import do_open_guest
from deaddrop.server.station.practice.jump import check_jump, do_jump_to_end
from deaddrop.server.station.practice.service import do_practice

Form = Body(media_type=RequestEncodingType.URL_ENCODED)
PRACTICE_PER_HOUR = 20
"""Practice games one client address may start in an hour."""
PER_HOUR_WINDOW = 3600


def form_values(form: PracticeForm | None = None) -> dict[str, Any]:
    """What the practice form's template needs (it is on the home page and the new-game page
    too)."""
    return {
        "practice_form": form or PracticeForm(),
        "practice_players": PLAYER_CHOICES,
        "practice_levels": LEVEL_CHOICES,
        "practice_days": DAY_CHOICES,
    }


@get("/practice", name="station_practice")
async def practice_page(viewer: Viewer) -> Template:
    """The practice form: the table's size, the bots' level, an optional day length."""
    return _form(viewer, PracticeForm(), {})


@post("/practice")
async def practice(
    request: AnyRequest,
    db: DB,
    viewer: Viewer,
    clock: ClockDep,
    throttle: Throttle,
    data: Annotated[PracticeForm, Form],
) -> Template | Redirect:
    """One click: a game of this person (a guest gets a guest account) and bots, started."""
    values, errors = validate_practice(data)
    if errors:
        return _form(viewer, data, errors, status_code=FORM_REFUSED)
    # Every practice game keeps the bot runner busy for minutes, and a guest's costs an
    # account too: a few an hour from one address is all a person learning needs.
    made = await throttle.counters.add(f"practice:{client_ip(request)}", 1, PER_HOUR_WINDOW)
    if made > PRACTICE_PER_HOUR:
        errors = {"form": "That is a lot of practice for one hour; try again a little later."}
        return _form(viewer, data, errors, status_code=429)
    person = viewer
    if person is None:
        person = await do_open_guest(db)
        log_in(request, person)
    game = await do_practice(db, person, values, clock)
    return see_other(f"/games/{game.public_id}/cable")


def _form(
    viewer: User | None, form: PracticeForm, errors: dict[str, str], status_code: int = 200
) -> Template:
    return page(
        "station/practice/new.html",
        viewer=viewer,
        status_code=status_code,
        errors=errors,
        labels=LABELS,
        **form_values(form),
    )


async def _jump(request: AnyRequest, db: DB, me: User, clock: Clock, game_id: str) -> Reply:
    """Play the rest of a practice game out with the bots, once the person is burned."""
    context = await access_game_for_player(db, game_id, me)
    here = f"/games/{game_id}/cable"
    try:
        check_jump(context, await load_state(db, context.game))
        await do_jump_to_end(request.app.state.sessionmaker, context.game.id, clock)
    except Refused as refusal:
        return refuse(request, here, refusal)
    return answer(request, here, "The bots played the game to its end.")


router = Router(
    path="/",
    route_handlers=[
        practice_page,
        practice,
        game_post("practice/jump", "station_practice_jump", _jump, _jump.__doc__),
    ],
)
