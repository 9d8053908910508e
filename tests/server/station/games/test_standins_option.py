"""The auto-pilot option (issue 14): off by default, set by the host before or during play
through a form that works without JavaScript; bad input is a 4xx with a message."""

from __future__ import annotations

import pytest
from litestar import Litestar

from deaddrop.engine.station.roles import is_ring
from tests.server.station.games.helpers import (
    Person,
    RunDB,
    Table,
    invite_token,
    join,
    open_lobby,
)
from tests.server.station.games.standin_helpers import (
    bring_stand_ins,
    lobby_with_auto_pilot,
    set_auto_pilot,
    stand_ins,
    standin_table,
)


def test_the_option_is_off_by_default_and_the_host_sets_it_in_the_lobby(host: Person) -> None:
    game_id = open_lobby(host)
    assert f'href="/games/{game_id}/standins"' in host.get(f"/games/{game_id}/lobby").text
    page = host.get(f"/games/{game_id}/standins")
    assert page.status_code == 200 and "<strong>off</strong>" in page.text
    set_auto_pilot(host, game_id, hours=5, level="expert")
    text = " ".join(host.get(f"/games/{game_id}/standins").text.split())
    assert (
        "on: a bot (expert) plays for anyone who has done nothing the table can see 5 h before"
        in text
    )
    off = host.form(f"/games/{game_id}/standins", {"hours": "5", "level": "expert"})
    assert off.status_code == 303
    assert "<strong>off</strong>" in host.get(f"/games/{game_id}/standins").text


def test_the_option_set_in_the_lobby_stands_in_once_the_game_runs(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    game_id = lobby_with_auto_pilot(host)
    token = invite_token(host, game_id)
    for person in players:
        assert join(person, token).status_code == 303
    assert host.form(f"/games/{game_id}/start").status_code == 303
    table = Table(game_id, host, [host, *players], run_db, app)
    bring_stand_ins(table)
    assert sorted(s.seat for s in stand_ins(table)) == list(range(6))  # nobody saved


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"enabled": "yes", "hours": "0", "level": "heuristic"}, "1 to 23"),
        ({"enabled": "yes", "hours": "24", "level": "heuristic"}, "1 to 23"),
        ({"enabled": "yes", "hours": "two", "level": "heuristic"}, "1 to 23"),
        ({"enabled": "yes", "hours": "", "level": "heuristic"}, "1 to 23"),
        ({"enabled": "yes", "hours": "99999999999999999999", "level": "x"}, "1 to 23"),
        ({"enabled": "yes", "hours": "3", "level": "genius"}, "Choose a bot level"),
        ({"enabled": "yes", "hours": "3"}, "Choose a bot level"),
    ],
)
def test_bad_input_is_a_4xx_with_a_message(host: Person, fields: dict[str, str], says: str) -> None:
    game_id = open_lobby(host)
    answer = host.json(f"/api/games/{game_id}/standins", fields)
    assert answer.status_code == 422
    assert says in answer.json()["detail"]
    form = host.form(f"/games/{game_id}/standins", fields)
    assert form.status_code == 303 and says in host.flashes()  # the form's own refusal
    assert "<strong>off</strong>" in host.get(f"/games/{game_id}/standins").text


def test_a_stand_in_must_start_within_a_short_day(host: Person) -> None:
    game_id = open_lobby(host, day_minutes="60")
    answer = host.json(f"/api/games/{game_id}/standins", {"enabled": True, "hours": 1})
    assert answer.status_code == 422 and "within the day" in answer.json()["detail"]


def test_malformed_bodies_are_4xx(host: Person) -> None:
    game_id = open_lobby(host)
    path = f"/api/games/{game_id}/standins"
    raw = host.visitor.http.post(
        path,
        content=b"[1, 2",
        headers={"x-csrftoken": host.token(), "content-type": "application/json"},
    )
    assert 400 <= raw.status_code < 500
    listed = host.visitor.http.post(path, json=[1], headers={"x-csrftoken": host.token()})
    assert 400 <= listed.status_code < 500


def test_only_the_host_sets_it_and_an_outsider_learns_nothing(
    host: Person, players: list[Person], stranger: Person, run_db: RunDB, app: Litestar
) -> None:
    table = standin_table(host, players[:4], ["random"], run_db, app)
    player = table.people[1]
    page = player.get(table.path("/standins"))
    assert page.status_code == 403 and "S40" in page.text
    refused = player.json(table.api("/standins"), {"enabled": True, "hours": 3, "level": "random"})
    assert refused.status_code == 403 and refused.json()["rule"] == "S40"
    assert stranger.get(table.path("/standins")).status_code == 404
    assert stranger.json(table.api("/standins"), {}).status_code == 404


def test_the_option_cannot_change_after_the_game(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = standin_table(host, players[:4], ["random"], run_db, app)
    others = [seat for seat in range(1, 6) if not is_ring(table.roles[seat])][:2]
    for seat in others:  # S24: the Ring is as many as the others, and wins
        fields = {"codename": table.codenames[seat], "confirm": True}
        assert host.json(table.api("/host/remove"), fields).status_code == 200
    assert table.state().over
    answer = host.json(table.api("/standins"), {"enabled": False})
    assert answer.status_code == 422 and "over" in answer.json()["detail"]


def test_in_play_the_table_is_told_of_the_setting(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = standin_table(host, players[:4], ["random"], run_db, app)  # set once it began
    for person in (host, table.people[3]):
        cable = person.get(table.path("/cable")).text
        assert "The host turned the stand-ins on: a bot (heuristic) plays" in cable
