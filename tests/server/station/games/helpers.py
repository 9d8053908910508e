"""People at a Station table and the table itself, as the tests drive them."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

import httpx
from litestar import Litestar
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import CastVote, State
from deaddrop.server.accounts.models import User
from deaddrop.server.station.game.access import access_game_for_player
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.play.pouch_runner import PouchRunner
from deaddrop.server.station.play.service import do_act
from deaddrop.server.testing.clocks import ManualClock
from tests.server.visitor import Visitor, csrf_token_in

T = TypeVar("T")
RunDB = Callable[[Callable[[AsyncSession], Awaitable[Any]]], Any]
_INVITE = re.compile(r'value="http://[^"]*/join/([^"]+)"')


@dataclass
class Person:
    """A logged-in browser that posts forms and JSON the way the pages and scripts do."""

    visitor: Visitor
    _token: str | None = field(default=None, repr=False)

    @property
    def username(self) -> str:
        """The account's username."""
        return self.visitor.username

    def token(self) -> str:
        """The CSRF token of this browser (from any page with a form)."""
        if self._token is None:
            self._token = csrf_token_in(self.visitor.get("/").text)
        return self._token

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        """GET, following redirects."""
        return self.visitor.http.get(path, **kwargs)

    def form(self, path: str, fields: dict[str, str] | None = None) -> httpx.Response:
        """POST a form as a page would; redirects are not followed."""
        data = {**(fields or {}), "_csrf_token": self.token()}
        return self.visitor.http.post(path, data=data, follow_redirects=False)

    def json(self, path: str, data: dict[str, Any] | None = None) -> httpx.Response:
        """POST JSON as a script would (the CSRF token in its header)."""
        return self.visitor.http.post(
            path, json=data or {}, headers={"x-csrftoken": self.token()}, follow_redirects=False
        )

    def flashes(self) -> str:
        """The next page's text, which shows the messages a redirect left behind."""
        return self.visitor.get("/").text


async def user_named(db: AsyncSession, username: str) -> User:
    """The account with this username."""
    user = await db.scalar(select(User).where(User.username == username))
    assert user is not None
    return user


async def game_row(db: AsyncSession, game_id: str) -> StationGame:
    """The game with this public id."""
    game = await db.scalar(select(StationGame).where(StationGame.public_id == game_id))
    assert game is not None
    return game


@dataclass
class Table:
    """A started game, its people by seat, and handles on its database and clock."""

    game_id: str
    host: Person
    people: list[Person]
    """people[seat] holds that seat (join order, S2; the host joined first)."""
    run_db: RunDB
    app: Litestar
    codenames: list[str] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)

    @property
    def clock(self) -> ManualClock:
        """The app's clock."""
        clock = self.app.state.clock
        assert isinstance(clock, ManualClock)
        return clock

    def path(self, tail: str = "") -> str:
        """A path of this game."""
        return f"/games/{self.game_id}{tail}"

    def api(self, tail: str = "") -> str:
        """A JSON path of this game."""
        return f"/api/games/{self.game_id}{tail}"

    def state(self) -> State:
        """The engine state as stored now."""

        async def read(db: AsyncSession) -> State:
            return await load_state(db, await game_row(db, self.game_id))

        state: State = self.run_db(read)
        return state

    def game(self) -> StationGame:
        """The game row as stored now."""

        async def read(db: AsyncSession) -> StationGame:
            return await game_row(db, self.game_id)

        game: StationGame = self.run_db(read)
        return game

    def seat_with(self, role: str) -> int:
        """The first seat holding this role."""
        return self.roles.index(role)

    def runner(self, **kwargs: Any) -> PouchRunner:
        """A Pouch runner on the app's database and clock."""
        return PouchRunner(self.app.state.sessionmaker, self.clock, **kwargs)

    def run(self, runner: PouchRunner | None = None) -> int:
        """One pass of a runner (a new one by default), in the app's event loop."""
        chosen = runner or self.runner()

        async def once(db: AsyncSession) -> int:
            return await chosen.run_once()

        resolved: int = self.run_db(once)
        return resolved

    def deadline(self) -> datetime:
        """Today's Pouch."""
        deadline = self.game().deadline
        assert deadline is not None
        return deadline

    def pouch(self) -> int:
        """Move the clock just past today's deadline and let a runner resolve it."""
        self.clock.set(self.deadline() + timedelta(seconds=1))
        return self.run()


def open_lobby(host: Person, title: str = "Operation Gold", **fields: str) -> str:
    """Create a game through the form; returns its public id."""
    values = {
        "title": title,
        "pouch_time": "21:00",
        "time_zone": "Europe/Berlin",
        "day_minutes": "1440",
        **fields,
    }
    response = host.form("/games/new", values)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    match = re.fullmatch(r"/games/([^/]+)/lobby", location)
    assert match, location
    return match.group(1)


def invite_token(host: Person, game_id: str) -> str:
    """The invite link's token, read from the lobby page."""
    page = host.get(f"/games/{game_id}/lobby")
    found = _INVITE.search(page.text)
    assert found, page.text
    return found.group(1)


def join(person: Person, token: str) -> httpx.Response:
    """Open the invite link and press Join."""
    assert person.get(f"/join/{token}").status_code == 200
    return person.form(f"/join/{token}")


def open_table(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar, **fields: str
) -> Table:
    """A game created by `host`, joined by `players` in order, and started."""
    game_id = open_lobby(host, **fields)
    token = invite_token(host, game_id)
    for person in players:
        assert join(person, token).status_code == 303
    started = host.form(f"/games/{game_id}/start")
    assert started.headers["location"] == f"/games/{game_id}/cable", host.flashes()
    table = Table(game_id, host, [host, *players], run_db, app)
    state = table.state()
    table.codenames = [seat.codename for seat in state.seats]
    table.roles = [seat.role for seat in state.seats]
    return table


async def vote_in_own_session(table: Table, seat: int, choice: int) -> int:
    """`seat`'s vote for `choice` through the service, in a database session of its own (as a
    request of its own would be): the game's version it reached."""
    async with table.app.state.sessionmaker() as session:
        user = await user_named(session, table.people[seat].username)
        context = await access_game_for_player(session, table.game_id, user)
        acted = await do_act(session, context, CastVote(seat, choice), clock=table.clock)
        return acted.version
