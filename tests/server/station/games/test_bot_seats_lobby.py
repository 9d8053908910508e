"""Bot seats in the lobby (issue 14): the host adds and removes bots; a bot is public (S42)."""

from __future__ import annotations

import re

from litestar import Litestar

from tests.server.station.games.helpers import (
    Person,
    RunDB,
    Table,
    invite_token,
    join,
    open_lobby,
)


def _bot_seat_ids(page: str) -> list[str]:
    """The seat ids of the lobby's Remove buttons for bots, in join order."""
    return re.findall(r'name="seat_id" value="(\d+)">\s*<button[^>]*Remove Bot', page)


def test_host_adds_bots_of_each_level_and_removes_one(host: Person) -> None:
    game_id = open_lobby(host)
    for level in ("random", "heuristic", "expert"):
        added = host.form(f"/games/{game_id}/bots", {"level": level})
        assert added.status_code == 303
        assert added.headers["location"] == f"/games/{game_id}/lobby"
    page = host.get(f"/games/{game_id}/lobby").text
    for level in ("random", "heuristic", "expert"):
        assert f"Bot ({level})" in page
    assert "4 joined" in page
    seat_ids = _bot_seat_ids(page)
    assert len(seat_ids) == 3
    removed = host.form(f"/games/{game_id}/kick", {"seat_id": seat_ids[0]})
    assert removed.status_code == 303
    page = host.get(f"/games/{game_id}/lobby").text
    assert "Bot (random)" not in page
    assert "3 joined" in page


def test_only_the_host_adds_bots_and_only_of_a_known_level(
    host: Person, players: list[Person]
) -> None:
    game_id = open_lobby(host)
    assert join(players[0], invite_token(host, game_id)).status_code == 303
    assert players[0].form(f"/games/{game_id}/bots", {"level": "expert"}).status_code == 403
    assert "Add a bot" not in players[0].get(f"/games/{game_id}/lobby").text
    host.form(f"/games/{game_id}/bots", {"level": "genius"})
    assert "Choose a bot level" in host.flashes()
    assert "Bot (" not in host.get(f"/games/{game_id}/lobby").text


def test_s1_bots_fill_the_table_to_ten_and_no_further(host: Person) -> None:
    game_id = open_lobby(host)
    for _ in range(9):
        assert host.form(f"/games/{game_id}/bots", {"level": "random"}).status_code == 303
    host.form(f"/games/{game_id}/bots", {"level": "random"})
    assert "at most 10 players" in host.flashes()
    assert "10 joined" in host.get(f"/games/{game_id}/lobby").text


def test_s42_roster_shows_bot_and_level_to_everyone_but_no_role(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    game_id = open_lobby(host)
    assert join(players[0], invite_token(host, game_id)).status_code == 303
    for level in ("random", "heuristic", "expert", "heuristic"):
        host.form(f"/games/{game_id}/bots", {"level": level})
    started = host.form(f"/games/{game_id}/start")
    assert started.headers["location"] == f"/games/{game_id}/cable", host.flashes()
    table = Table(game_id, host, [host, players[0]], run_db, app)
    assert len(table.state().seats) == 6
    for person in (host, players[0]):
        roster = person.get(table.path("/roster")).text
        assert roster.count("Bot (heuristic)") == 2
        assert "Bot (random)" in roster and "Bot (expert)" in roster
        assert 'class="revealed"' not in roster  # no seat's role is shown while alive (S26)
