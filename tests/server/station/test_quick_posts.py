"""Quick posts (issue 15): a JSON save or post to a game is served past Litestar's generic
request work, and answers exactly as the full path does: the saves and posts, the refusals with
their rules, the CSRF check, an ended session, a password change, an outsider, a new day.
Every test runs with quick posts on and off (the full path), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from litestar import Litestar, post
from litestar.params import FromPath, FromQuery
from litestar.testing import TestClient
from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server import quick_posts as quick_posts_module
from deaddrop.server import sessions
from deaddrop.server.cookies import CSRF_COOKIE, SESSION_COOKIE
from deaddrop.server.db.kv import KeyValue
from deaddrop.server.quick_posts import QUICK_KEY, quick_handler
from deaddrop.server.settings import Settings
from tests.server.conftest import Database
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)
from tests.server.station.test_known_pages import _Tomorrow, second_browser
from tests.server.visitor import Visitor


@pytest.fixture(params=[True, False], ids=["quick", "full"])
def settings(database: Database, request: pytest.FixtureRequest) -> Settings:
    """App settings with quick posts on, then off."""
    return database.settings(quick_posts=request.param)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths of the posts served quick (by their handler or their route's plain way)."""
    paths: list[str] = []
    serve, plainly = quick_posts_module._serve, quick_posts_module._served_plainly

    async def counted(scope: Any, *args: Any) -> None:
        paths.append(scope["path"])
        await serve(scope, *args)

    async def counted_plain(plain: Any, scope: Any, *args: Any) -> bool:
        done = await plainly(plain, scope, *args)
        if done:
            paths.append(scope["path"])
        return done

    monkeypatch.setattr(quick_posts_module, "_serve", counted)
    monkeypatch.setattr(quick_posts_module, "_served_plainly", counted_plain)
    return paths


def api(
    player: Visitor, path: str, fields: dict[str, str], token: str | None = None
) -> httpx.Response:
    """A JSON post as a page's script sends it, with the CSRF cookie's token in its header."""
    header = player.http.cookies[CSRF_COOKIE] if token is None else token
    return player.http.post(path, json=fields, headers={"x-csrftoken": header})


def vote(player: Visitor, table: Table, target: str, token: str | None = None) -> httpx.Response:
    """Vote through the JSON API."""
    return api(player, f"/api/games/{table.game_id}/vote", {"vote": target}, token)


def is_quick(settings: Settings, served: list[str], count: int) -> None:
    """`count` posts were served quick, or none with quick posts off."""
    assert len(served) == (count if settings.quick_posts else 0)


def test_a_vote_is_saved_and_answered_as_json(
    table: Table, settings: Settings, served: list[str]
) -> None:
    bob = table.players[1]
    first, second = vote(bob, table, table.codenames[2]), vote(bob, table, "abstain")
    for answer in (first, second):
        assert answer.status_code == 200, answer.text
        assert answer.json()["ok"] is True and answer.json()["message"] == "Vote saved."
        # The same headers on both paths, the security headers among them (a before-send hook).
        assert answer.headers["content-type"] == "application/json"
        assert answer.headers["content-length"] == str(len(answer.content))
        assert answer.headers["x-frame-options"] == "DENY"
        assert "content-security-policy" in answer.headers and "set-cookie" not in answer.headers
    view = bob.get(f"/api/games/{table.game_id}").json()["view"]
    assert view["me"]["vote"] == "abstain"  # the second vote replaced the first (S21)
    is_quick(settings, served, 2)


def test_an_illegal_save_names_its_rule(
    table: Table, settings: Settings, served: list[str]
) -> None:
    refused = vote(table.players[1], table, "NOBODY")
    assert refused.status_code == 422, refused.text
    assert refused.json()["rule"] == "S3" and refused.json()["ok"] is False
    is_quick(settings, served, 1)


def test_a_floor_post_and_the_rate_limit(
    table: Table, settings: Settings, served: list[str]
) -> None:
    bob, path = table.players[1], f"/api/games/{table.game_id}/chat/floor"
    answers = [api(bob, path, {"text": f"Message {number}"}) for number in range(6)]
    assert [answer.status_code for answer in answers] == [200] * 5 + [422]
    assert "at most 5 messages" in answers[-1].json()["detail"]
    floor = bob.get(f"/games/{table.game_id}/floor").text
    assert all(f"Message {number}" in floor for number in range(5))
    is_quick(settings, served, 6)


def test_a_wrong_csrf_token_is_refused_on_the_full_path(table: Table, served: list[str]) -> None:
    bob, carol = table.players[1], table.players[2]
    for token in (carol.http.cookies[CSRF_COOKIE], "forged", ""):
        refused = vote(bob, table, table.codenames[2], token)
        assert refused.status_code == 403, refused.text
    assert served == []


def test_an_ended_session_is_asked_to_log_in(
    table: Table, run_db: RunDB, settings: Settings, served: list[str]
) -> None:
    bob = table.players[1]
    session_id = bob.http.cookies[SESSION_COOKIE]

    async def end(db: AsyncSession) -> None:
        await db.execute(delete(KeyValue).where(KeyValue.key == session_id))
        await db.commit()

    run_db(end)  # as a log-out in another browser or process does
    refused = vote(bob, table, table.codenames[2])
    assert refused.status_code == 401, refused.text
    is_quick(settings, served, 1)


def test_a_password_change_ends_the_other_browsers_session(
    table: Table, new_visitor: Callable[[], Visitor], settings: Settings, served: list[str]
) -> None:
    bob = table.players[1]
    phone = second_browser(bob, new_visitor)
    fields = {"old_password": bob.password, "new_password": "a brand new passphrase"}
    fields["new_password_again"] = fields["new_password"]
    assert "Password changed." in bob.submit("/account/password", fields).text
    refused = vote(phone, table, table.codenames[2])
    assert refused.status_code == 401, refused.text
    # The ended session is forgotten, its cookie cleared, as on the full path.
    assert f"{SESSION_COOKIE}=null" in refused.headers["set-cookie"]
    is_quick(settings, served, 1)


def test_an_outsider_and_a_guest_learn_nothing(
    table: Table, outsider: Visitor, client: Visitor, settings: Settings, served: list[str]
) -> None:
    outsider.get("/")  # a CSRF cookie
    hidden = vote(outsider, table, table.codenames[2])
    assert hidden.status_code == 404 and "no such game" in hidden.text
    client.get("/")
    guest = vote(client, table, table.codenames[2])
    assert guest.status_code == 401, guest.text  # no session cookie: the full path's answer
    is_quick(settings, served, 1)  # the outsider's: the guest has no session to go quick


def test_a_form_post_goes_the_full_way(table: Table, served: list[str]) -> None:
    bob = table.players[1]
    answer = bob.submit(
        f"/games/{table.game_id}/floor",
        {"vote": table.codenames[2]},
        action=f"/games/{table.game_id}/vote",
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert served == []


def test_a_new_day_renews_the_session_of_a_quick_post(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    bob = table.players[1]
    assert "set-cookie" not in vote(bob, table, table.codenames[2]).headers
    monkeypatch.setattr(sessions, "datetime", _Tomorrow)
    renewed = vote(bob, table, table.codenames[3])
    assert renewed.status_code == 200
    assert SESSION_COOKIE in renewed.headers["set-cookie"]


def test_every_handler_marked_quick_can_be_served_quick(server: TestClient[Litestar]) -> None:
    marked = [
        handler
        for route in server.app.routes
        for handler in getattr(route, "route_handlers", ())
        if handler.opt.get(QUICK_KEY)
    ]
    names = {handler.name for handler in marked}
    assert {"station_vote", "station_chat_post", "station_operation"} <= names
    assert all(quick_handler(handler) is not None for handler in marked)


def test_a_handler_asking_for_more_goes_the_full_way() -> None:
    @post("/api/games/{game_id:str}/odd", opt={QUICK_KEY: True})
    async def odd(game_id: FromPath[str], page: FromQuery[int]) -> None:
        """A handler with a query parameter: the full path must read and check it."""

    @post("/api/games/{number:int}/numbered", opt={QUICK_KEY: True})
    async def numbered(number: FromPath[int]) -> None:
        """A handler with a path parameter that is not a string: the full path converts it."""

    app = Litestar([odd, numbered])
    handlers = [h for route in app.routes for h in getattr(route, "route_handlers", ())]
    marked = [handler for handler in handlers if handler.opt.get(QUICK_KEY)]
    assert len(marked) == 2 and [quick_handler(handler) for handler in marked] == [None, None]
