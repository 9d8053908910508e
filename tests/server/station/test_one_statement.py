"""On PostgreSQL a save's writes go in one statement (hosting/one_statement.py): a vote is
two statements and no transaction (no BEGIN, no COMMIT), a Floor post three; a lost race for
the game row or for a journal seq stores nothing and is a `Conflict`, as the statements one by
one were (a post's: test_shared_saves.py). SQLite cannot write in a CTE: its saves share
their commits instead (test_shared_saves.py)."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import event, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.station import CastVote
from deaddrop.server.clock import SystemClock
from deaddrop.server.hosting.transaction import Conflict
from deaddrop.server.live import journal
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.game.models import StationAction, StationGame
from deaddrop.server.station.game.store import load_state, write_to
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.play.service import ACTIONS, do_act
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)
from tests.server.station.test_post_statements import _context, _send, _token
from tests.server.test_request_session import _in_a_request

POSTGRESQL_ONLY = pytest.mark.parametrize("empty_database", ["postgresql"], indirect=True)


def _sent_by(
    server: TestClient[Litestar], player: Any, table: Table, path: str, fields: dict[str, str]
) -> tuple[Any, list[tuple[bool, bool]]]:
    """`player`'s JSON post to the game's `path`: its answer, and for each statement the
    request sent, whether it went straight to the driver and whether inside a transaction."""
    sent: list[tuple[bool, bool]] = []

    def heard(conn: Any, cursor: Any, *_args: Any) -> None:
        if _in_a_request():
            # No connection of the pool: sent alone on a lone connection, which never begins a
            # transaction (db/lone_statements.py).
            in_transaction = (
                conn is not None and conn.connection.driver_connection.is_in_transaction()
            )
            sent.append((cursor is None, in_transaction))

    token = _token(player, table)
    engine = server.app.state.engine.sync_engine
    event.listen(engine, "before_cursor_execute", heard)
    try:
        answer = _send(player, token, f"/api/games/{table.game_id}/{path}", fields)
    finally:
        event.remove(engine, "before_cursor_execute", heard)
    return answer, sent


@POSTGRESQL_ONLY
def test_a_vote_is_two_statements_and_no_transaction(
    server: TestClient[Litestar], table: Table
) -> None:
    for seat, player in enumerate(table.players):
        target = table.codenames[(seat + 2) % len(table.players)]
        answer, sent = _sent_by(server, player, table, "vote", {"vote": target})
        assert answer.status_code == 200, answer.text
        # The session with its account and the game with the seat (one read: db/prefetch.py),
        # the writes: each straight to asyncpg, none inside a transaction.
        assert sent == [(True, False)] * 2


@POSTGRESQL_ONLY
def test_a_floor_post_is_two_statements_and_no_transaction(
    server: TestClient[Litestar], table: Table, run_db: RunDB
) -> None:
    before = _stored(run_db, table)
    for seat, player in enumerate(table.players):
        answer, sent = _sent_by(server, player, table, "chat/floor", {"text": "hi"})
        assert answer.status_code == 200, answer.text
        # The session with its account and the game with the seat (one read), the message
        # with its journal row (numbered by its own insert): each straight to asyncpg, none
        # inside a transaction. The poster's cursor is known (their page read it, and this
        # process followed its own writes since): no read of the journal's position.
        assert sent == [(True, False)] * 2, seat
    assert _stored(run_db, table)[2] == before[2] + len(table.players)


def _stored(run_db: RunDB, table: Table) -> tuple[int, int, int]:
    """(the game's version, its actions, its journal rows)."""

    async def read(db: AsyncSession) -> tuple[int, int, int]:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == table.game_id))
        assert game is not None
        actions = await db.scalar(select(func.count()).where(StationAction.game_id == game.id))
        rows = await db.scalar(
            select(func.count()).where(LiveEvent.stream == stream_of(table.game_id))
        )
        return game.version, int(actions or 0), int(rows or 0)

    stored: tuple[int, int, int] = run_db(read)
    return stored


async def _write_a_vote(db: AsyncSession, table: Table, race: Any) -> None:
    """Apply seat 1's vote and commit it after `race(db, game)` ran in another session."""
    context = await _context(db, table, 1)
    game = context.game
    state = await load_state(db, game)
    write = write_to(db, game)
    write.apply(state, CastVote(1, 3))
    game.version += 1
    write.insert(
        ACTIONS,
        {
            "game_id": game.id,
            "seq": game.version,
            "day": state.day,
            "action": {"kind": "test"},
            "user_id": None,
            "created_at": game.created_at,
        },
    )
    await race(AsyncSession(db.bind), game)
    await write.commit()


async def _moved_on(other: AsyncSession, game: StationGame) -> None:
    """Another writer moves the game row's version on."""
    async with other:
        await other.execute(
            update(StationGame)
            .where(StationGame.id == game.id)
            .values(row_version=StationGame.row_version + 1)
        )
        await other.commit()


@POSTGRESQL_ONLY  # SQLite: a read overtaken by a writer cannot write (busy), tested apart
def test_a_save_that_lost_the_game_row_stores_nothing(table: Table, run_db: RunDB) -> None:
    before = _stored(run_db, table)

    async def scenario(db: AsyncSession) -> list[str]:
        sent: list[str] = []

        def heard(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            sent.append(statement)

        engine = db.get_bind()
        event.listen(engine, "before_cursor_execute", heard)
        try:
            with pytest.raises(Conflict):
                await _write_a_vote(db, table, _moved_on)
        finally:
            event.remove(engine, "before_cursor_execute", heard)
        return sent

    sent = run_db(scenario)
    assert sum("WITH saved_row" in statement for statement in sent) == 1  # one statement
    assert _stored(run_db, table) == before  # no version, no action, no journal row


@POSTGRESQL_ONLY
def test_a_journal_row_taken_meanwhile_comes_before_the_save(table: Table, run_db: RunDB) -> None:
    before = _stored(run_db, table)

    async def seq_taken(other: AsyncSession, _game: StationGame) -> None:
        async with other:
            last = await journal.last_seq(other, stream_of(table.game_id))
            await journal.insert_rows(
                other, journal.rows_after(stream_of(table.game_id), last, [_an_event()])
            )
            await other.commit()

    async def scenario(db: AsyncSession) -> None:
        await _write_a_vote(db, table, seq_taken)

    # The save's statement numbers its journal rows after the stream's maximum as it writes:
    # the row added meanwhile comes first, the save after it.
    run_db(scenario)
    version, actions, rows = _stored(run_db, table)
    assert (version, actions) == (before[0] + 1, before[1] + 1)
    assert rows == before[2] + 1 + 1


def _an_event() -> Event:
    return Event("test", {}, Audience.only(0))


@POSTGRESQL_ONLY
def test_a_vote_through_the_service_is_stored_whole(table: Table, run_db: RunDB) -> None:
    before = _stored(run_db, table)

    async def scenario(db: AsyncSession) -> int:
        acted = await do_act(db, await _context(db, table, 2), CastVote(2, 4), clock=SystemClock())
        return acted.version

    version = run_db(scenario)
    stored = _stored(run_db, table)
    assert stored[0] == version == before[0] + 1
    assert stored[1] == before[1] + 1 and stored[2] > before[2]
