"""The lobby: create, invite, join, leave, remove a joiner, start with 6–10 (S1), My games."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from litestar import Litestar
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.models import User
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.station.game.access import access_game_by_invite
from deaddrop.server.station.lobby.service import do_join
from tests.server.station.games.helpers import (
    Person,
    RunDB,
    game_row,
    invite_token,
    join,
    open_lobby,
    open_table,
)
from tests.server.visitor import Visitor


def test_guests_are_sent_to_log_in(client: Visitor) -> None:
    response = client.http.get("/games/new", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/login?next=/games/new"


def test_create_game_form_refuses_bad_values_field_by_field(host: Person) -> None:
    response = host.form(
        "/games/new",
        {"title": "", "pouch_time": "25:00", "time_zone": "Mars/Olympus", "day_minutes": "2"},
    )
    assert response.status_code == 422
    for message in (
        "Give the game a title.",
        "Enter the Pouch&#39;s time of day as HH:MM",
        "Choose a time zone from the list",
        "A day lasts from 5 minutes to 24 hours.",
    ):
        assert message in response.text


def test_create_and_join_by_invite_link(
    host: Person, players: list[Person], stranger: Person
) -> None:
    game_id = open_lobby(host, "Operation <Gold>")
    lobby = host.get(f"/games/{game_id}/lobby")
    assert lobby.status_code == 200
    assert "Operation &lt;Gold&gt;" in lobby.text  # escaped user text
    token = invite_token(host, game_id)
    assert stranger.get(f"/games/{game_id}/lobby").status_code == 404  # not joined: nothing
    assert stranger.get(f"/join/{token}").status_code == 200  # the link itself invites
    assert stranger.get("/join/not-a-real-invite").status_code == 404
    assert join(players[0], token).headers["location"] == f"/games/{game_id}/lobby"
    assert join(players[0], token).status_code == 303  # joining twice changes nothing
    lobby = players[0].get(f"/games/{game_id}/lobby")
    assert "Bob" in lobby.text and "Alice Liddell" in lobby.text
    assert lobby.text.count("(host)") == 1
    assert "Leave this game" in lobby.text and "Start with" not in lobby.text
    assert "Start with 2 players" in host.get(f"/games/{game_id}/lobby").text


def test_players_leave_before_the_start_and_the_host_removes_joiners(
    host: Person, players: list[Person], run_db: RunDB
) -> None:
    game_id = open_lobby(host)
    token = invite_token(host, game_id)
    for person in players[:3]:
        join(person, token)
    assert players[0].form(f"/games/{game_id}/leave").headers["location"] == "/"
    assert players[0].get(f"/games/{game_id}/lobby").status_code == 404
    assert players[1].form(f"/games/{game_id}/kick", {"seat_id": "1"}).status_code == 403
    lobby = host.get(f"/games/{game_id}/lobby").text
    seat_ids = [int(v) for v in _hidden_values(lobby, "seat_id")]
    assert len(seat_ids) == 2  # Carol and Dave; no button for the host
    host.form(f"/games/{game_id}/kick", {"seat_id": str(seat_ids[0])})
    assert players[1].get(f"/games/{game_id}/lobby").status_code == 404
    assert players[2].get(f"/games/{game_id}/lobby").status_code == 200
    assert host.form(f"/games/{game_id}/leave").status_code == 303
    assert "The host cannot leave their own game." in host.flashes()
    game = run_db(lambda db: game_row(db, game_id))
    assert game.lobby_size == 2


def test_start_needs_six_to_ten_players(
    host: Person, make_players: Callable[[int], list[Person]], run_db: RunDB, app: Litestar
) -> None:
    four = make_players(4)
    game_id = open_lobby(host)
    token = invite_token(host, game_id)
    for person in four:
        join(person, token)
    refused = host.form(f"/games/{game_id}/start")
    assert refused.headers["location"] == f"/games/{game_id}/lobby"
    assert "Station needs 6 to 10 players, not 5 (rule S1" in host.flashes()
    late = make_players(1)[0]
    join(late, token)
    assert four[0].form(f"/games/{game_id}/start").status_code == 403  # only the host
    assert host.form(f"/games/{game_id}/start").headers["location"] == f"/games/{game_id}/cable"
    game = run_db(lambda db: game_row(db, game_id))
    assert game.status == "running" and game.day == 1
    # Started Friday noon: Day 1 runs to Saturday 21:00 in Berlin (20:00 UTC, winter time).
    assert game.deadline == datetime(2026, 3, 28, 20, 0, tzinfo=UTC)
    late_comer = make_players(1)[0]
    join(late_comer, token)
    assert "This game has already started" in late_comer.flashes()
    assert late_comer.get(f"/games/{game_id}/cable").status_code == 404
    lobby = host.get(f"/games/{game_id}/lobby", follow_redirects=False)
    assert lobby.headers["location"] == f"/games/{game_id}/cable"
    bare = host.get(f"/games/{game_id}", follow_redirects=False)
    assert bare.headers["location"] == f"/games/{game_id}/cable"
    assert late_comer.get(f"/games/{game_id}").status_code == 404


def test_a_table_seats_at_most_ten(
    host: Person, run_db: RunDB, make_players: Callable[[int], list[Person]]
) -> None:
    game_id = open_lobby(host)
    token = invite_token(host, game_id)
    for person in make_players(9):
        join(person, token)

    async def eleventh(db: AsyncSession) -> str:
        user = User(username="eleven", display_name="Eleven", password_hash="-")
        db.add(user)
        await db.commit()
        game = await access_game_by_invite(db, token)
        try:
            await do_join(db, game, user)
        except Refused as refusal:
            return refusal.message
        return "joined"

    assert "at most 10 players (rule S1)" in run_db(eleventh)


def test_my_games_say_what_each_waits_for(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    lobby_id = open_lobby(host, "Still gathering")
    table = open_table(host, players, run_db, app, title="Running one")
    home = host.get("/").text
    assert "Running one" in home and "Still gathering" in home
    assert "Day 1: waiting for" in home and "your vote" in home
    assert "In the lobby: waiting for players (1 joined, 6 needed)" in home
    assert home.index("Running one") < home.index("Still gathering")
    seat = 1
    vote = players[0].form(table.path("/vote"), {"vote": table.codenames[0]})
    assert vote.status_code == 303
    mine = players[0].get("/").text
    assert "your vote" not in mine
    assert "Still gathering" not in mine  # not theirs
    assert f"/games/{lobby_id}/" not in mine
    assert table.state().votes[seat] == 0


def _hidden_values(html: str, name: str) -> list[str]:
    import re

    return re.findall(rf'name="{name}" value="([^"]*)"', html)
