"""Hostile input at the edge (issue 11): numbers past the database's range, NUL characters,
oversized bodies, and the security headers on every answer; on SQLite and on PostgreSQL."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    open_table,
    set_spectators,
    six_players,
    started_table,
)
from tests.server.visitor import Visitor, csrf_token_in

DB_INT_MAX = 2**31 - 1  # PostgreSQL's INTEGER, the narrowest column an id lands in
HUGE = "9223372036854775808"  # one past SQLite's 64-bit integers
PAST_POSTGRES = str(DB_INT_MAX + 1)  # one past PostgreSQL's INTEGER


def _token(visitor: Visitor, page: str = "/") -> str:
    return csrf_token_in(visitor.get(page).text)


def _form(visitor: Visitor, path: str, fields: dict[str, str], page: str = "/") -> httpx.Response:
    data = {**fields, "_csrf_token": _token(visitor, page)}
    return visitor.http.post(path, data=data, follow_redirects=False)


def _json(visitor: Visitor, path: str, data: object) -> httpx.Response:
    return visitor.http.post(
        path, json=data, headers={"x-csrftoken": _token(visitor)}, follow_redirects=False
    )


def _flash_after(visitor: Visitor, response: httpx.Response) -> str:
    assert response.status_code == 303, response.text
    return visitor.get(response.headers["location"]).text


# --- 1. Integers past the database's range -------------------------------------------------


@pytest.mark.parametrize("seat_id", [HUGE, PAST_POSTGRES, "-1", "1e3", "٣"])
def test_a_kick_with_a_seat_id_out_of_range_is_refused(
    run_db: RunDB, six: list[Visitor], seat_id: str
) -> None:
    lobby = open_table(run_db, six, started=False)
    host = six[0]
    response = _form(host, f"/games/{lobby.game_id}/kick", {"seat_id": seat_id})
    assert "Choose a joiner to remove." in _flash_after(host, response)
    assert six[1].get(f"/games/{lobby.game_id}/lobby").status_code == 200


@pytest.mark.parametrize("before", [HUGE, PAST_POSTGRES, "-1", "x"])
def test_chat_history_before_out_of_range_is_a_400(
    table: Table, run_db: RunDB, client: Visitor, before: str
) -> None:
    player = table.players[1]
    response = player.get(f"/games/{table.game_id}/chat/floor", params={"before": before})
    assert response.status_code == 400
    assert "before" in response.text and f"{DB_INT_MAX:,}" in response.text
    token = set_spectators(run_db, table, True)
    watched = client.get(f"/watch/{token}/chat/floor", params={"before": before})
    assert watched.status_code == 400


def test_chat_history_before_in_range_still_pages(table: Table) -> None:
    player = table.players[1]
    response = player.get(f"/games/{table.game_id}/chat/floor", params={"before": DB_INT_MAX})
    assert response.status_code == 200


@pytest.mark.parametrize("version", [HUGE, PAST_POSTGRES, "-3"])
def test_a_save_with_a_version_out_of_range_is_refused(table: Table, version: str) -> None:
    player = table.players[1]
    response = _json(
        player,
        f"/api/games/{table.game_id}/vote",
        {"vote": table.codenames[2], "version": version},
    )
    assert response.status_code == 422
    assert "version" in response.json()["detail"]


@pytest.mark.parametrize(
    "fields",
    [
        {"players": HUGE},
        {"tokens_to_win": HUGE},
        {"turn_seconds": HUGE},
        {"turn_seconds": PAST_POSTGRES},
    ],
)
def test_a_cards_table_with_numbers_out_of_range_is_refused(
    alice: Visitor, fields: dict[str, str]
) -> None:
    response = alice.submit("/cards", {"seat1": "heuristic", **fields}, action="/cards/tables")
    assert response.status_code == 200
    assert any(words in response.text for words in ("Choose a", "between", "2 to 4 seats"))


def test_a_cards_replay_step_out_of_range_is_a_400(alice: Visitor) -> None:
    response = alice.get("/cards/t/no-such-table/replay", params={"step": HUGE})
    assert response.status_code == 400
    assert "step" in response.text


# --- 4. NUL characters ----------------------------------------------------------------------


def test_a_floor_post_holding_nul_is_refused(table: Table) -> None:
    player = table.players[1]
    form = _form(player, f"/games/{table.game_id}/chat/floor", {"text": "hello\x00there"})
    assert form.status_code == 400
    assert "cannot be stored" in form.text
    api = _json(player, f"/api/games/{table.game_id}/chat/floor", {"text": "hello\x00there"})
    assert api.status_code == 400
    assert "cannot be stored" in api.json()["detail"]
    floor = player.get(f"/games/{table.game_id}/floor")
    assert floor.status_code == 200 and "hello" not in floor.text


def test_an_escaped_backslash_u0000_is_text_not_nul(table: Table) -> None:
    player = table.players[1]
    text = "a literal \\u0000 is six characters"
    api = _json(player, f"/api/games/{table.game_id}/chat/floor", {"text": text})
    assert api.status_code == 200, api.text
    assert "a literal \\u0000 is six" in player.get(f"/games/{table.game_id}/floor").text


def test_a_nul_in_the_json_keys_is_refused(table: Table) -> None:
    player = table.players[1]
    body = json.dumps({"text": "hi", "x\x00": "y"})
    response = player.http.post(
        f"/api/games/{table.game_id}/chat/floor",
        content=body,
        headers={"x-csrftoken": _token(player), "content-type": "application/json"},
    )
    assert response.status_code == 400


def test_a_login_username_holding_nul_is_refused(client: Visitor) -> None:
    fields = {"username": "ali\x00ce", "password": "whatever"}
    response = _form(client, "/login", fields, page="/login")
    assert response.status_code == 400
    assert "cannot be stored" in response.text


def test_a_game_path_holding_nul_is_a_400(table: Table) -> None:
    player = table.players[1]
    response = player.get(f"/games/{table.game_id}%00/cable")
    assert response.status_code == 400
    assert "text/html" in response.headers["content-type"]
    api = player.get(f"/api/games/{table.game_id}%00")
    assert api.status_code == 400
    assert "detail" in api.json()


def test_a_query_holding_nul_is_a_400(alice: Visitor) -> None:
    assert alice.get("/login?next=/%00", follow_redirects=False).status_code == 400
    assert alice.get("/cards?x=%00").status_code == 400


@pytest.mark.parametrize("path", ["/static/app.js%00.css", "/static/%00", "/static/theme.css%00"])
def test_a_static_path_holding_nul_is_a_4xx(client: Visitor, path: str) -> None:
    response = client.get(path)
    assert response.status_code in (400, 404)
    assert response.headers["x-content-type-options"] == "nosniff"


def test_a_session_cookie_holding_nul_is_harmless(client: Visitor) -> None:
    client.http.cookies.set("deaddrop_session", "abc%00def")
    response = client.get("/")
    assert response.status_code in (200, 400)


# --- 6. Oversized bodies --------------------------------------------------------------------


def test_a_2mb_json_body_is_a_413(table: Table) -> None:
    player = table.players[1]
    response = _json(player, f"/api/games/{table.game_id}/chat/floor", {"text": "x" * 2_000_000})
    assert response.status_code == 413
    assert "too large" in response.json()["detail"]
    page = _json(player, f"/games/{table.game_id}/chat/floor", {"text": "x" * 2_000_000})
    assert page.status_code == 413


def test_an_oversized_form_is_a_413(table: Table, alice: Visitor) -> None:
    player = table.players[1]
    response = _form(player, f"/games/{table.game_id}/chat/floor", {"text": "x" * 2_000_000})
    assert response.status_code == 413
    assert "too large" in response.text
    cards = _form(alice, "/cards/tables", {"seat1": "x" * 2_000_000})
    assert cards.status_code == 413


# --- 12. Security headers on every answer ---------------------------------------------------


def _assert_secured(response: httpx.Response) -> None:
    headers = response.headers
    assert "default-src 'self'" in headers.get("content-security-policy", ""), response.url
    assert headers.get("x-content-type-options") == "nosniff", response.url
    assert headers.get("x-frame-options") == "DENY", response.url
    assert headers.get("referrer-policy") == "same-origin", response.url


def test_not_found_pages_carry_the_security_headers(client: Visitor) -> None:
    for path in ("/nope", "/watch/no-such-token/dossier", "/api/nope", "/static/nope.css"):
        response = client.get(path)
        assert response.status_code == 404
        _assert_secured(response)


def test_a_wrong_method_carries_the_security_headers(client: Visitor) -> None:
    response = client.http.delete("/")
    assert response.status_code == 405
    _assert_secured(response)


def test_refusals_and_redirects_carry_the_security_headers(table: Table, client: Visitor) -> None:
    _assert_secured(client.get("/static/theme.css"))
    _assert_secured(client.get("/account", follow_redirects=False))  # a redirect to log in
    _assert_secured(client.http.post("/logout"))  # 403: no CSRF token
    player = table.players[1]
    _assert_secured(_form(player, f"/games/{table.game_id}/chat/floor", {"text": "x" * 2_000_000}))
    _assert_secured(player.get(f"/games/{table.game_id}%00/cable"))


def test_a_server_error_carries_the_security_headers(
    client: Visitor, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deaddrop.server.pages import routes as page_routes

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(page_routes, "page", broken)
    response = client.get("/how-to-play")
    assert response.status_code == 500
    _assert_secured(response)


# --- 27. The favicon ------------------------------------------------------------------------


def test_every_page_links_an_icon_that_is_served(client: Visitor) -> None:
    page = client.get("/").text
    assert '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' in page
    icon = client.get("/favicon.svg")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in icon.text
    assert "max-age" in icon.headers.get("cache-control", "")
    _assert_secured(icon)


def test_favicon_ico_answers(client: Visitor) -> None:
    response = client.get("/favicon.ico", follow_redirects=False)
    assert response.status_code == 301
    assert response.headers["location"] == "/favicon.svg"
    _assert_secured(response)
    assert "max-age" in response.headers.get("cache-control", "")
    followed = client.get("/favicon.ico")
    assert followed.status_code == 200
    assert followed.headers["content-type"].startswith("image/svg+xml")
