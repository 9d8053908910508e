"""The home page and the How-to-play guide."""

from __future__ import annotations

from litestar import Router, get
from litestar.response import Template

from deaddrop.server.accounts.auth import Viewer
from deaddrop.server.db.dependencies import DB
from deaddrop.server.render import page
from deaddrop.server.station.lobby.my_games import my_games
from deaddrop.server.station.practice.routes import form_values


@get("/", name="home")
async def home(db: DB, viewer: Viewer) -> Template:
    """What Dead Drop is for a guest; a person's games for a logged-in one."""
    games = await my_games(db, viewer) if viewer is not None else []
    return page("pages/home.html", viewer=viewer, games=games, **form_values())


@get("/how-to-play", name="how_to_play")
async def how_to_play(viewer: Viewer) -> Template:
    """The rules of Station (and a short word on Cards) in plain language."""
    return page("pages/how_to_play.html", viewer=viewer)


router = Router(path="/", route_handlers=[home, how_to_play])
