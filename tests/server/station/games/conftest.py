"""Fixtures for Station games: a manual clock, a host, players, an outsider, a started table.

The app runs with a `ManualClock` and without its in-process Pouch runner, so that a test
moves time itself and runs the runner when it wants to (`table.pouch()`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from litestar import Litestar

from deaddrop.server.app import create_app
from deaddrop.server.settings import Settings
from deaddrop.server.testing.clocks import ManualClock
from tests.server.conftest import quick_passwords as quick_passwords  # suites import it here
from tests.server.station.games.helpers import Person, RunDB, Table, open_table
from tests.server.visitor import Visitor

START = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
"""A Friday noon: the Sunday after is Berlin's switch to summer time."""
NAMES = ("bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy")


@pytest.fixture
def clock() -> ManualClock:
    """The time every game of the test reads."""
    return ManualClock(START)


@pytest.fixture
def app(settings: Settings, clock: ManualClock) -> Litestar:
    """The application under test, on the manual clock, its own runner off."""
    return create_app(settings, clock=clock, pouch_runner=False, bot_runner=False)


@pytest.fixture
def host(alice: Visitor) -> Person:
    """Alice, who creates the games."""
    return Person(alice)


@pytest.fixture
def make_players(new_visitor: Callable[[], Visitor]) -> Callable[[int], list[Person]]:
    """Sign up `n` more people (five to nine make a table with the host)."""
    made: list[Person] = []

    def make(count: int) -> list[Person]:
        people = []
        for _ in range(count):
            visitor = new_visitor()
            response = visitor.sign_up(NAMES[len(made)])
            assert response.status_code == 200, response.text
            made.append(Person(visitor))
            people.append(made[-1])
        return people

    return make


@pytest.fixture
def players(make_players: Callable[[int], list[Person]]) -> list[Person]:
    """Five players besides the host."""
    return make_players(5)


@pytest.fixture
def stranger(outsider: Visitor) -> Person:
    """Someone with an account who is at no table: every game answers them 404."""
    return Person(outsider)


@pytest.fixture
def table(host: Person, players: list[Person], run_db: RunDB, app: Litestar) -> Table:
    """A game of six created, joined and started through the pages (Pouch 21:00 Berlin)."""
    return open_table(host, players, run_db, app)
