"""Known pages (issue 15): a player's unchanged tab page is sent again after one statement, is
exactly the page made afresh, is one browser's own, and is made afresh the moment anything it
shows changes (a post, a look, a new name, a log-out, a password change, a new day); SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import delete, event, update
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.app import KNOWN_PAGES_KEY
from deaddrop.server.cookies import CSRF_COOKIE, SESSION_COOKIE
from deaddrop.server.db.kv import KeyValue
from deaddrop.server.station.tabs import known_pages as known_pages_module
from deaddrop.server.station.tabs.context import TABS
from deaddrop.server.station.tabs.known_pages import (
    KnownPage,
    KnownPages,
    PageFacts,
    _only_looked,
    serve_known_pages,
)
from deaddrop.server.station.tabs.page_facts import read_facts
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)
from tests.server.station.test_chat_routes import api_post
from tests.server.test_request_session import counted
from tests.server.visitor import Visitor, csrf_token_in

ALL_TABS = tuple(name for name, _ in TABS)
PAGE_TABLES = ("kv_entries", "station_games", "live_events")
FACTS_STATEMENT = "SELECT station_games.id, kv_entries.value"
"""How the known pages' own statement begins (station/tabs/page_facts.py)."""
"""What a tab page reads when it is made: its session, its game, its journal."""


@contextmanager
def page_reads(server: TestClient[Litestar]) -> Iterator[dict[str, int]]:
    """What tab pages read while inside: `facts`, the known pages' statement (sent straight to
    the driver on SQLite), and `made`, every other statement reading the session, the game or
    the journal, as a page being made does. Background work (looks, jobs) is not counted."""
    counts = {"facts": 0, "made": 0}

    def record(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if any(table in statement for table in PAGE_TABLES):
            counts["made"] += not statement.startswith(FACTS_STATEMENT)

    async def facts(*args: Any, **kwargs: Any) -> Any:
        counts["facts"] += 1
        return await read_facts(*args, **kwargs)

    engine = server.app.state.engine.sync_engine
    event.listen(engine, "before_cursor_execute", record)
    setattr(known_pages_module, "read_facts", facts)  # noqa: B010 (undone below)
    try:
        yield counts
    finally:
        setattr(known_pages_module, "read_facts", read_facts)  # noqa: B010
        event.remove(engine, "before_cursor_execute", record)


def known(player: Visitor, path: str) -> str:
    """A page asked for until it is certainly kept: the first time teaches the session's
    account, the second is kept (the look it records at its own tab is no change to it), the
    third is sent again."""
    answers = [player.get(path) for _ in range(3)]
    assert all(answer.status_code == 200 for answer in answers)
    return answers[-1].text


def second_browser(player: Visitor, new_visitor: Callable[[], Visitor]) -> Visitor:
    """Another browser of the same person, logged in there too (a session of its own)."""
    phone = new_visitor()
    phone.username, phone.password = player.username, player.password
    assert phone.log_in().status_code == 200
    return phone


def assert_sent_to_log_in(player: Visitor, path: str) -> None:
    """The page answers with the way to the log-in form, not with a page."""
    gone = player.http.get(path, follow_redirects=False)
    assert gone.status_code == 303 and gone.headers["location"].startswith("/login")


def test_an_unchanged_page_is_sent_again_after_one_statement_as_it_was_made(
    table: Table, server: TestClient[Litestar]
) -> None:
    for tab in ALL_TABS:
        path = f"/games/{table.game_id}/{tab}"
        for player in table.players:  # every seat: its own page, its own secrets
            made = known(player, path)
            with page_reads(server) as reads:
                again = player.get(path)
            assert again.status_code == 200
            assert again.text == made
            # The page's facts, nothing else: the session, the game and the journal unread.
            assert reads == {"facts": 1, "made": 0}
            assert again.headers["cache-control"] == "no-store"
            assert "content-security-policy" in again.headers  # the hooks ran on it too
    pages: KnownPages = server.app.state[KNOWN_PAGES_KEY]
    assert len(pages.pages) == len(ALL_TABS) * len(table.players)


def test_a_known_page_takes_no_pooled_connection(
    table: Table, server: TestClient[Litestar]
) -> None:
    """On SQLite its one statement runs inline (db/inline_reads.py), on PostgreSQL alone on a
    connection off the pool (db/lone_statements.py): no database session, no connection from
    the pool."""
    path = f"/games/{table.game_id}/floor"
    bob = table.players[1]
    made = known(bob, path)
    with counted(server.app.state.engine) as counts, page_reads(server) as reads:
        again = bob.get(path)
    assert again.text == made and reads == {"facts": 1, "made": 0}
    assert counts["checkouts"] == counts["checkins"] == 0


def test_a_known_page_is_made_afresh_when_a_post_or_a_look_changes_it(
    table: Table, server: TestClient[Litestar]
) -> None:
    bob, carol = table.players[1], table.players[2]
    floor, cable = f"/games/{table.game_id}/floor", f"/games/{table.game_id}/cable"
    known(bob, floor)
    known(bob, cable)
    assert api_post(carol, table, "floor", "KNOWNPAGE1").status_code == 200
    assert "KNOWNPAGE1" in bob.get(floor).text  # the journal moved on
    known(bob, floor)
    assert api_post(carol, table, "floor", "KNOWNPAGE2").status_code == 200
    assert 'tab-badge">' in bob.get(cable).text  # a badge for the new post on the Floor
    bob.get(floor)  # bob looks at the Floor
    assert 'tab-badge">' not in bob.get(cable).text  # the look moved the page on


def test_the_first_view_of_a_changed_page_is_kept_already(
    table: Table, server: TestClient[Litestar]
) -> None:
    bob, carol = table.players[1], table.players[2]
    floor = f"/games/{table.game_id}/floor"
    known(bob, floor)
    assert api_post(carol, table, "floor", "KNOWNPAGE3").status_code == 200
    made = bob.get(floor).text  # made, and its look at the Floor recorded as it is made
    assert "KNOWNPAGE3" in made
    with page_reads(server) as reads:
        again = bob.get(floor).text
    assert again == made
    assert reads == {"facts": 1, "made": 0}


def test_only_the_pages_own_look_moving_to_the_newest_seq_keeps_it() -> None:
    before = PageFacts(("rows",), 9, (("cable", 4), ("floor", 2)), date(2026, 12, 3))
    looked = before._replace(looks=(("cable", 4), ("floor", 9)))
    assert _only_looked(before, looked, "floor")
    assert not _only_looked(before, looked, "cable")  # another tab's look shows as a badge
    assert not _only_looked(before, before._replace(looks=(("cable", 4), ("floor", 8))), "floor")
    assert not _only_looked(before, looked._replace(rows=("other rows",)), "floor")
    assert not _only_looked(before, looked._replace(newest=10), "floor")
    assert not _only_looked(before, looked._replace(day=date(2026, 12, 4)), "floor")
    first = PageFacts(("rows",), 9, (("cable", 4),), date(2026, 12, 3))  # never looked before
    assert _only_looked(first, first._replace(looks=(("cable", 4), ("floor", 9))), "floor")


def test_a_new_display_name_shows_at_once(table: Table) -> None:
    bob = table.players[1]
    floor = f"/games/{table.game_id}/floor"
    assert "Bob Marley" in known(bob, floor)
    fields = {"display_name": "Robert Nesta", "email": "", "time_zone": "UTC"}
    assert bob.submit("/account", fields).status_code == 200
    page = bob.get(floor).text
    assert "Robert Nesta" in page and "Bob Marley" not in page


def test_a_session_ended_elsewhere_gets_no_known_page(
    table: Table, run_db: RunDB, new_visitor: Callable[[], Visitor]
) -> None:
    bob = table.players[1]
    floor = f"/games/{table.game_id}/floor"
    known(bob, floor)
    session_id = bob.http.cookies[SESSION_COOKIE]

    async def end(db: AsyncSession) -> None:
        await db.execute(delete(KeyValue).where(KeyValue.key == session_id))
        await db.commit()

    run_db(end)  # as a log-out in another process does
    assert_sent_to_log_in(bob, floor)


def test_an_expired_session_gets_no_known_page(table: Table, run_db: RunDB) -> None:
    bob = table.players[1]
    floor = f"/games/{table.game_id}/floor"
    known(bob, floor)
    session_id = bob.http.cookies[SESSION_COOKIE]

    async def expire(db: AsyncSession) -> None:
        past = datetime.now(UTC) - timedelta(seconds=1)
        await db.execute(update(KeyValue).where(KeyValue.key == session_id).values(expires_at=past))
        await db.commit()

    run_db(expire)
    assert_sent_to_log_in(bob, floor)


def test_a_password_change_ends_the_other_browsers_known_pages(
    table: Table, new_visitor: Callable[[], Visitor]
) -> None:
    bob = table.players[1]
    phone = second_browser(bob, new_visitor)
    floor = f"/games/{table.game_id}/floor"
    known(phone, floor)
    fields = {"old_password": bob.password, "new_password": "a brand new passphrase"}
    fields["new_password_again"] = fields["new_password"]
    assert "Password changed." in bob.submit("/account/password", fields).text
    assert_sent_to_log_in(phone, floor)


def test_a_known_page_is_one_browsers_own(
    table: Table, new_visitor: Callable[[], Visitor], server: TestClient[Litestar]
) -> None:
    bob = table.players[1]
    phone = second_browser(bob, new_visitor)
    floor = f"/games/{table.game_id}/floor"
    on_laptop, on_phone = known(bob, floor), known(phone, floor)
    assert csrf_token_in(on_laptop) != csrf_token_in(on_phone)
    assert csrf_token_in(bob.get(floor).text) == csrf_token_in(on_laptop)
    assert csrf_token_in(phone.get(floor).text) == csrf_token_in(on_phone)
    assert bob.http.cookies[SESSION_COOKIE] != phone.http.cookies[SESSION_COOKIE]


def test_outsiders_and_guests_never_get_a_players_page(
    table: Table, outsider: Visitor, client: Visitor, server: TestClient[Litestar]
) -> None:
    floor = f"/games/{table.game_id}/floor"
    known(table.players[1], floor)
    for _ in range(3):
        assert outsider.get(floor).status_code == 404
        guest = client.http.get(floor, follow_redirects=False)
        assert guest.status_code == 303 and guest.headers["location"].startswith("/login")
    pages: KnownPages = server.app.state[KNOWN_PAGES_KEY]
    assert len(pages.pages) == 1


class _Tomorrow(datetime):
    """`datetime` a day on: what the session and the known pages read as now."""

    @classmethod
    def now(cls, tz: Any = None) -> Any:
        return datetime.now(tz) + timedelta(days=1)


def test_a_new_day_renews_the_session_behind_a_known_page(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    bob = table.players[1]
    floor = f"/games/{table.game_id}/floor"
    known(bob, floor)
    assert "set-cookie" not in bob.get(floor).headers
    from deaddrop.server import sessions

    monkeypatch.setattr(sessions, "datetime", _Tomorrow)
    monkeypatch.setattr(known_pages_module, "datetime", _Tomorrow)
    renewed = bob.get(floor)  # the session is written again, its expiry pushed on
    assert renewed.status_code == 200
    assert SESSION_COOKIE in renewed.headers["set-cookie"]


def _page(body: bytes) -> KnownPage:
    facts = PageFacts((), 1, (), date(2026, 12, 3))
    return KnownPage(facts, {"type": "http.response.start", "status": 200, "headers": []}, body)


def test_known_pages_keep_to_their_budget_least_recently_asked_first_to_go() -> None:
    pages = KnownPages(budget=10)
    first, second, third = ("a", "c", "/1", b""), ("b", "c", "/2", b""), ("c", "c", "/3", b"")
    pages.put(first, _page(b"1234"))
    pages.put(second, _page(b"5678"))
    assert pages.get(first) is not None  # asked for: the second is now the oldest
    pages.put(third, _page(b"90ab"))
    assert pages.get(second) is None
    assert pages.get(first) is not None and pages.get(third) is not None
    assert pages.size == 8
    pages.put(first, _page(b"1"))  # replaced, not counted twice
    assert pages.size == 5


def test_an_account_is_remembered_per_session_within_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(known_pages_module, "ACCOUNTS_REMEMBERED", 2)
    pages = KnownPages(budget=1000)
    pages.learn("s1", 1)
    pages.learn("s2", 2)
    pages.learn("s3", 3)  # past the bound: starts afresh
    assert pages.accounts == {"s3": 3}


def test_with_no_budget_every_page_is_made_as_always() -> None:
    called: list[str] = []

    async def handler(scope: Any, _receive: Any, _send: Any) -> None:
        called.append(scope["path"])

    class Route:
        name = "station_floor"

    middleware = serve_known_pages(handler, KnownPages(budget=0))
    cookies = f"{SESSION_COOKIE}=s; {CSRF_COOKIE}=c".encode()
    # No app in the scope: reading a fact or a setting would fail.
    scope = {"type": "http", "method": "GET", "path": "/games/g/floor", "route_handler": Route()}
    scope["headers"] = [(b"cookie", cookies)]
    asyncio.run(middleware(scope, None, None))  # type: ignore[arg-type]
    assert called == ["/games/g/floor"]
