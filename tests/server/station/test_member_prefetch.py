"""A save's game and seat are read with the session's own row, in one statement
(db/prefetch.py, `MEMBER_READ`): the read is not sent again, what it found is taken once, and a
person without a seat in the game (an outsider, a player of another game) or an address that
names no game still gets the same 404, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import event, func, select

from deaddrop.server.db.prefetch import keep, take
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.game.access import _MEMBER, NOT_FOUND
from deaddrop.server.station.game.models import StationAction
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)
from tests.server.station.test_post_statements import _send, _token
from tests.server.test_request_session import _in_a_request
from tests.server.visitor import Visitor, csrf_token_in


@contextmanager
def _statements_of(server: TestClient[Litestar]) -> Iterator[list[str]]:
    """The SQL of every statement requests send meanwhile."""
    sent: list[str] = []

    def heard(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if _in_a_request():
            sent.append(" ".join(statement.split()))

    engine = server.app.state.engine.sync_engine
    event.listen(engine, "before_cursor_execute", heard)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", heard)


def _member_reads(sent: list[str]) -> tuple[int, int]:
    """How many statements read the game with the seat on their own, and how many with the
    session's row."""
    alone = sum(
        "FROM station_games JOIN station_seats" in text and "kv_entries" not in text
        for text in sent
    )
    joined = sum(
        text.startswith("SELECT kv_entries.value") and "station_seats" in text for text in sent
    )
    return alone, joined


def _reads_of_json_post(
    server: TestClient[Litestar], player: Visitor, table: Table, tail: str, fields: dict[str, str]
) -> tuple[int, int]:
    """`player`'s JSON post to the game's `tail`, answered 200: `_member_reads` of it."""
    token, path = _token(player, table), f"/api/games/{table.game_id}/{tail}"
    with _statements_of(server) as sent:
        answer = _send(player, token, path, fields)
    assert answer.status_code == 200, answer.text
    return _member_reads(sent)


def _stored(run_db: RunDB) -> tuple[int, int]:
    async def count(db: Any) -> tuple[int, int]:
        actions = await db.scalar(select(func.count()).select_from(StationAction))
        events = await db.scalar(select(func.count()).select_from(LiveEvent))
        return actions, events

    stored: tuple[int, int] = run_db(count)
    return stored


def test_a_vote_reads_its_game_and_seat_with_the_session(
    server: TestClient[Litestar], table: Table
) -> None:
    for seat, player in enumerate(table.players):
        target = table.codenames[(seat + 1) % len(table.players)]
        assert _reads_of_json_post(server, player, table, "vote", {"vote": target}) == (0, 1)


def test_a_floor_post_reads_its_game_and_seat_with_the_session(
    server: TestClient[Litestar], table: Table
) -> None:
    fields = {"text": "hello"}
    assert _reads_of_json_post(server, table.players[2], table, "chat/floor", fields) == (0, 1)


def test_a_form_save_reads_its_game_and_seat_with_the_session(
    server: TestClient[Litestar], table: Table
) -> None:
    player = table.players[0]
    token = _token(player, table)
    fields = {"_csrf_token": token, "vote": table.codenames[3]}
    path = f"/games/{table.game_id}/vote"
    with _statements_of(server) as sent:
        answer = player.http.post(path, data=fields, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    assert _member_reads(sent) == (0, 1)
    assert "Vote saved." in player.get(f"/games/{table.game_id}/floor").text


def test_a_page_made_afresh_reads_its_game_and_seat_with_the_session(
    server: TestClient[Litestar], table: Table
) -> None:
    reader, poster = table.players[3], table.players[4]
    path = f"/games/{table.game_id}/floor"
    reader.get(path)
    posted = _send(poster, _token(poster, table), f"/api{path[:-5]}chat/floor", {"text": "news"})
    assert posted.status_code == 200, posted.text
    with _statements_of(server) as sent:
        page = reader.get(path)  # the journal moved on: made again, not the known page
    assert page.status_code == 200 and "news" in page.text
    assert _member_reads(sent) == (0, 1)


def test_an_outsider_with_a_session_gets_the_same_404_and_stores_nothing(
    new_visitor: Callable[[], Visitor], table: Table, run_db: RunDB
) -> None:
    outsider = new_visitor()
    outsider.sign_up("outsider")
    token = csrf_token_in(outsider.get("/").text)
    before = _stored(run_db)
    for path, fields in (("vote", {"vote": table.codenames[0]}), ("chat/floor", {"text": "hi"})):
        answer = _send(outsider, token, f"/api/games/{table.game_id}/{path}", fields)
        assert answer.status_code == 404, answer.text
        assert answer.json()["detail"] == NOT_FOUND
    missing = _send(outsider, token, "/api/games/no-such-game/vote", {"vote": table.codenames[0]})
    assert missing.status_code == 404
    assert missing.json()["detail"] == NOT_FOUND
    assert _stored(run_db) == before


def test_a_player_of_this_game_gets_nothing_of_another(
    server: TestClient[Litestar], table: Table, run_db: RunDB
) -> None:
    """The read is keyed by the address's game and the session's person: a seat in one game
    opens no other."""
    player = table.players[1]
    token = _token(player, table)
    before = _stored(run_db)
    other = table.game_id[::-1]  # a game id that names no game of theirs
    answer = _send(player, token, f"/api/games/{other}/vote", {"vote": table.codenames[0]})
    assert answer.status_code == 404
    assert answer.json()["detail"] == NOT_FOUND
    long_id = "g" * 65  # longer than any game id: no read at all
    answer = _send(player, token, f"/api/games/{long_id}/vote", {"vote": table.codenames[0]})
    assert answer.status_code == 404
    assert _stored(run_db) == before


@pytest.mark.parametrize("empty_database", ["sqlite"], indirect=True)
def test_what_was_read_ahead_is_taken_once_and_only_for_its_own_values(
    server: TestClient[Litestar], run_db: RunDB
) -> None:
    async def check(db: Any) -> None:
        values = {"game": "g1", "user": 7}
        keep(db, _MEMBER, values, [("row",)])
        assert take(db, _MEMBER, {"game": "g2", "user": 7}) is None  # another game
        assert take(db, _MEMBER, {"user": 7, "game": "g1"}) == [("row",)]  # any order
        assert take(db, _MEMBER, values) is None  # once: a second asking reads afresh
        keep(db, _MEMBER, values, [])
        assert take(db, _MEMBER, values) == []  # read ahead and found nothing: no seat

    run_db(check)
