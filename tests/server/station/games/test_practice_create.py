"""Practice games are made in one click, by a person or a guest, and checked (issue 14)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from litestar import Litestar
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.models import User
from deaddrop.server.station.game.models import StationSeat
from deaddrop.server.station.practice import routes as practice_routes
from tests.server.station.games.helpers import Person, RunDB, game_row
from tests.server.station.games.practice_helpers import practise
from tests.server.visitor import Visitor


def _seats(run_db: RunDB, game_id: str) -> list[tuple[int | None, int | None, str | None]]:
    async def read(db: AsyncSession) -> list[tuple[int | None, int | None, str | None]]:
        game = await game_row(db, game_id)
        rows = await db.execute(
            select(StationSeat.seat, StationSeat.user_id, StationSeat.bot_level)
            .where(StationSeat.game_id == game.id)
            .order_by(StationSeat.seat)
        )
        return [tuple(row) for row in rows.all()]  # type: ignore[misc]

    found: list[tuple[int | None, int | None, str | None]] = run_db(read)
    return found


def test_practice_as_a_user_starts_a_game_of_them_and_bots(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    assert "Practice Station with bots" in host.get("/").text  # the home page's button
    assert 'action="/practice"' in host.get("/games/new").text  # and the new-game page's
    table = practise(host, run_db, app, players=7, level="expert", day="5")
    game = table.game()
    assert game.practice and game.early_pouch and game.status == "running"
    assert game.day_minutes == 5 and game.deadline is not None
    state = table.state()
    assert len(state.seats) == 7 and state.day == 1  # dealt like any game (S1-S5)
    seats = _seats(run_db, table.game_id)
    assert seats[0][1] is not None and seats[0][2] is None  # the person joined first (S2)
    assert [level for _, user, level in seats[1:] if user is None] == ["expert"] * 6
    page = host.get(table.path("/cable"))
    assert page.status_code == 200 and "practice-mark" in page.text


def test_practice_without_a_day_length_waits_for_the_person(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    table = practise(host, run_db, app, day="none")
    deadline = table.deadline()
    assert (deadline - table.clock.now()).total_seconds() >= 12 * 3600  # a backstop only
    # No countdown of a day's hours: the day ends at the person's done mark (S41).
    assert "data-countdown" not in host.get(table.path("/operations")).text
    short = practise(host, run_db, app, day="5")
    assert "data-countdown" in host.get(short.path("/operations")).text


def test_a_guest_practises_without_an_account(
    client: Visitor, run_db: RunDB, app: Litestar
) -> None:
    assert "Practice Station with bots" in client.get("/").text
    form = client.get("/practice")
    assert form.status_code == 200 and 'name="players"' in form.text
    guest = Person(client)
    table = practise(guest, run_db, app, level="random")
    page = client.get(table.path("/operations"))
    assert page.status_code == 200 and table.codenames[0] in page.text
    assert "Sign up</a> to keep this game" in page.text

    async def host_of(db: AsyncSession) -> User:
        user = await db.get(User, (await game_row(db, table.game_id)).host_id)
        assert user is not None
        return user

    account = run_db(host_of)
    assert account.guest and account.display_name == "Guest"
    assert "/account" not in client.get("/").text  # a guest has no account page to show


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": "5"}, "rule S1"),
        ({"players": "11"}, "rule S1"),
        ({"players": "six"}, "Choose 6 to 10 players"),
        ({"level": "grandmaster"}, "Choose the bots&#39; level"),
        ({"day": "3"}, "Choose a day length"),
    ],
)
def test_bad_practice_input_is_refused_with_a_message(
    client: Visitor, new_visitor: Callable[[], Visitor], fields: dict[str, str], message: str
) -> None:
    guest = Person(client)
    posted = {"players": "6", "level": "heuristic", "day": "none", **fields}
    response = guest.form("/practice", posted)
    assert response.status_code == 422
    assert message in response.text
    assert "My games" not in client.get("/").text  # no guest account was opened for it


def test_practice_games_from_one_address_are_limited_per_hour(
    host: Person, run_db: RunDB, app: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(practice_routes, "PRACTICE_PER_HOUR", 1)
    practise(host, run_db, app)
    refused = host.form("/practice", {"players": "6", "level": "random", "day": "none"})
    assert refused.status_code == 429
    assert "a lot of practice for one hour" in refused.text
