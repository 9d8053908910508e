"""Games at telling moments, the GameInfo a page gets with them, and a renderer without a DB.

Every secret a game holds is a unique marker here (whisper texts, Final Cables), so that a
test can look for it in a page as a plain string.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.bots.station.random_bot import choose_day
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station import apply, setup_from_deal, start
from deaddrop.engine.station.setup import Setup
from deaddrop.engine.station.state import State
from deaddrop.engine.station.views import view
from deaddrop.server.accounts.models import User
from deaddrop.server.clock import SystemClock
from deaddrop.server.render import jinja_environment
from deaddrop.server.station.game.access import access_game_for_member
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.host.service import do_set_spectators
from deaddrop.server.station.lobby.service import NewGame, do_create_game, do_join, do_start
from deaddrop.server.station.tabs.context import tab_context
from deaddrop.server.station.tabs.info import GameInfo, SeatInfo
from tests.server.visitor import Visitor

DEADLINE = datetime(2025, 3, 30, 18, 0, tzinfo=UTC)
"""A Pouch on the day Berlin moves to summer time."""
CSRF = "csrf-token-for-tests"


@dataclass(frozen=True)
class Moment:
    """A game state worth rendering, and what to call it in a failing test."""

    name: str
    state: State


def final_cable_marker(codename: str) -> str:
    """The Final Cable a seat writes in these games: unique, and no substring of another."""
    return f"FINALCABLE{codename}END"


def whisper_marker(number: int) -> str:
    """The text of the n-th whisper of a game."""
    return f"WHISPERTEXT{number:04d}END"


def game_info(state: State, seat: int | None, **overrides: Any) -> GameInfo:
    """What the service would say of this game to this viewer."""
    fields: dict[str, Any] = {
        "game_id": "g-test",
        "title": "Operation Gold",
        "status": "over" if state.over else "running",
        "seat": seat,
        "is_host": seat == 0,
        "deadline": None if state.over else DEADLINE,
        "game_time_zone": "Europe/Berlin",
        "viewer_time_zone": "America/New_York",
        "early_pouch": True,
        "seats": tuple(
            SeatInfo(s.codename, f"Person {s.index}", int(s.index == 0), s.index == 1)
            for s in state.seats
        ),
    }
    fields.update(overrides)
    return GameInfo(**fields)


@pass_context
def _csrf_token(context: Context) -> str:
    # Like Litestar's, this reads the page's context: a macro imported without it fails here.
    return CSRF if "viewer" in context else context["request"]


def environment() -> Environment:
    """The app's template environment with what Litestar would add per request."""
    env = jinja_environment()
    env.globals["csrf_token"] = _csrf_token
    env.globals["get_flashes"] = list
    return env


_ENV = environment()


def render(tab: str, state: State, seat: int | None, **overrides: Any) -> str:
    """The HTML of one tab for one viewer (None: a spectator)."""
    info = game_info(state, seat, **overrides)
    base = "/watch/token" if seat is None else None
    context = tab_context(tab, view(state, seat), info, base_path=base)
    return _ENV.get_template(f"station/tabs/{tab}.html").render(viewer=None, **context)


def _final_cables(state: State) -> State:
    """Every seat writes its marker Final Cable (S32)."""
    for seat in state.seats:
        state, _ = apply(state, A.EditFinalCable(seat.index, final_cable_marker(seat.codename)))
    return state


def random_moments(players: int, seed: int) -> Iterator[Moment]:
    """A random game of random bots: the state mid-day of every day, and after the end."""
    state = _final_cables(start(Setup(tuple(f"p{i}" for i in range(players)), seed)))
    seat_of = {seat.codename: seat.index for seat in state.seats}
    rng = Rng.from_seed(seed)
    whispers = 0
    while not state.over:
        for seat in state.living():
            chosen, rng = choose_day(view(state, seat)["me"], seat_of, seat, rng)
            for action in chosen:
                if isinstance(action, A.SendWhisper):
                    whispers += 1
                    action = A.SendWhisper(action.seat, action.recipient, whisper_marker(whispers))
                state, _ = apply(state, action)
        yield Moment(f"{players} players, seed {seed}, day {state.day}", state)
        state, _ = apply(state, A.ResolvePouch())
    yield Moment(f"{players} players, seed {seed}, over", state)


SIX = (
    ("OWL", "ringleader"),
    ("RAVEN", "forger"),
    ("HERON", "analyst"),
    ("WREN", "safehouse_keeper"),
    ("KESTREL", "field_agent"),
    ("FALCON", "field_agent"),
)
OWL, RAVEN, HERON, WREN, KESTREL, FALCON = range(6)


def scripted_moments() -> Iterator[Moment]:
    """Six players: start, the Ringleader recalled, the heir's order, a kill, the Station wins."""
    state = _final_cables(start(setup_from_deal(SIX, seed=7)))
    yield Moment("scripted start", state)
    day1: list[A.Action] = [
        A.SaveOperation(HERON, RAVEN),
        A.SaveOperation(RAVEN, HERON),
        A.SaveOperation(WREN, KESTREL),
        A.SaveOperation(KESTREL, OWL),
        A.SendWhisper(OWL, RAVEN, whisper_marker(1)),
        A.SendWhisper(HERON, WREN, whisper_marker(2)),
        A.CastVote(HERON, OWL),
        A.CastVote(WREN, OWL),
        A.CastVote(KESTREL, OWL),
        A.CastVote(OWL, HERON),
        A.MarkDone(FALCON),
    ]
    for action in day1:
        state, _ = apply(state, action)
    yield Moment("scripted day 1 with saves", state)
    state, _ = apply(state, A.ResolvePouch())  # OWL recalled: RAVEN is the heir (S11)
    yield Moment("scripted day 2, heir, nothing saved", state)
    for action in (
        A.SaveOrder(RAVEN, WREN, RAVEN),
        A.SaveOperation(WREN, HERON),
        A.SaveOperation(FALCON, HERON),
        A.SendWhisper(FALCON, HERON, whisper_marker(3)),
        A.CastVote(RAVEN, KESTREL),
    ):
        state, _ = apply(state, action)
    yield Moment("scripted day 2, heir's order filed", state)
    state, _ = apply(state, A.ResolvePouch())  # WREN liquidated
    yield Moment("scripted day 3 after a kill", state)
    for action in (A.CastVote(HERON, RAVEN), A.CastVote(KESTREL, RAVEN)):
        state, _ = apply(state, action)
    state, _ = apply(state, A.ResolvePouch())  # RAVEN recalled: the Station wins
    yield Moment("scripted over", state)


def removal_moment() -> Moment:
    """Six players on Day 1 after the host removed FALCON (S40)."""
    state = _final_cables(start(setup_from_deal(SIX, seed=7)))
    state, _ = apply(state, A.RemovePlayer(FALCON))
    return Moment("scripted removal", state)


# --- Games in the database, for the tests through HTTP -----------------------------------

RunDB = Callable[[Callable[[AsyncSession], Awaitable[Any]]], Any]


@dataclass
class Table:
    """A started game of six and the browsers at it."""

    game_id: str
    players: list[Visitor]
    """In join order: players[i] holds seat i."""
    codenames: list[str]
    roles: list[str]


async def _user(db: AsyncSession, username: str) -> User:
    user = await db.scalar(select(User).where(User.username == username))
    assert user is not None
    return user


def open_table(run_db: RunDB, players: list[Visitor], *, started: bool = True) -> Table:
    """Alice's game with these players joined in order; started unless told otherwise."""

    async def create(db: AsyncSession) -> str:
        host = await _user(db, players[0].username)
        game = await do_create_game(db, host, NewGame("Operation Gold", 21 * 60, "Europe/Berlin"))
        for visitor in players[1:]:
            await do_join(db, game, await _user(db, visitor.username))
        if started:
            context = await access_game_for_member(db, game.public_id, host)
            await do_start(db, context, SystemClock())
        return game.public_id

    game_id = run_db(create)
    if not started:
        return Table(game_id, players, [], [])

    async def deal(db: AsyncSession) -> tuple[list[str], list[str]]:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == game_id))
        assert game is not None
        state = await load_state(db, game)
        return [s.codename for s in state.seats], [s.role for s in state.seats]

    codenames, roles = run_db(deal)
    return Table(game_id, players, codenames, roles)


@pytest.fixture(name="six")
def six_players(alice: Visitor, bob: Visitor, new_visitor: Callable[[], Visitor]) -> list[Visitor]:
    """Alice (the host), Bob and four more, logged in."""
    people = [alice, bob]
    for name in ("carol", "dave", "erin", "frank"):
        visitor = new_visitor()
        assert visitor.sign_up(name).status_code == 200
        people.append(visitor)
    return people


@pytest.fixture(name="table")
def started_table(run_db: RunDB, six: list[Visitor]) -> Table:
    """A game of six, started."""
    return open_table(run_db, six)


def set_spectators(run_db: RunDB, table: Table, enabled: bool) -> str | None:
    """Turn the spectator link on or off as the host; its token while on."""

    async def switch(db: AsyncSession) -> str | None:
        host = await _user(db, table.players[0].username)
        context = await access_game_for_member(db, table.game_id, host)
        await do_set_spectators(db, context, enabled, SystemClock())
        return context.game.spectator_token

    token: str | None = run_db(switch)
    return token
