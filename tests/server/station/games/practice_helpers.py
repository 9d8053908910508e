"""A practice game made through its form, as a Table the tests can drive (issue 14)."""

from __future__ import annotations

from litestar import Litestar

from tests.server.station.games.helpers import Person, RunDB, Table

CABLE = "/cable"


def practise(
    person: Person,
    run_db: RunDB,
    app: Litestar,
    *,
    players: int = 6,
    level: str = "heuristic",
    day: str = "none",
) -> Table:
    """Post the practice form; the started game as a Table whose seat 0 is the person."""
    fields = {"players": str(players), "level": level, "day": day}
    response = person.form("/practice", fields)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert location.startswith("/games/") and location.endswith(CABLE)
    game_id = location.removeprefix("/games/").removesuffix(CABLE)
    table = Table(game_id, person, [person], run_db, app)
    state = table.state()
    table.codenames = [seat.codename for seat in state.seats]
    table.roles = [seat.role for seat in state.seats]
    return table


def mark_done(table: Table) -> None:
    """The person marks themselves done for the day (S41), through the Operations form."""
    response = table.host.form(table.path("/done"), {"done": "yes"})
    assert response.status_code == 303, response.text


def burn_the_person(table: Table) -> None:
    """The person, host of their practice game, removes themselves through the host's desk."""
    fields = {"codename": table.codenames[0], "confirm": "yes"}
    assert table.host.form(table.path("/host/remove"), fields).status_code == 303
    assert not table.state().alive[0]
