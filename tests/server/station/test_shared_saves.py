"""On SQLite a vote's and a post's writes are one unit of a shared commit (server/db/
shared_commits.py, hosting/shared_write.py): each is stored whole through the shared
connection; a save that lost the game row stores nothing and is a `Conflict`. On both
databases (PostgreSQL: the post's one statement, hosting/one_statement.py) a post's journal
row is numbered after a row another writer journaled meanwhile (on PostgreSQL, a seq that
writer took first is a lost race, tried again), its message stored once; a post over the
rate is refused and stores nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.channels import Channel
from deaddrop.server.db.shared_commits import SharedCommits
from deaddrop.server.hosting.refusals import Stale
from deaddrop.server.hosting.transaction import Conflict, GameWrite
from deaddrop.server.live import journal
from deaddrop.server.station.chat import channels
from deaddrop.server.station.chat.channels import do_post
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.chat.rate import RATE_COUNT, RateLimited
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.live.stream import stream_of
from tests.server.conftest import Database
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)
from tests.server.station.test_one_statement import (
    _an_event,
    _moved_on,
    _stored,
    _write_a_vote,
)
from tests.server.station.test_post_statements import _context, _send, _token

SQLITE_ONLY = pytest.mark.parametrize("empty_database", ["sqlite"], indirect=True)


@pytest.fixture
def units(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the units the shared commits run from now on."""
    ran: list[str] = []
    original = SharedCommits.run

    async def counted(self: SharedCommits, unit: Callable[[sqlite3.Connection], Any]) -> Any:
        ran.append(type(unit).__name__)
        return await original(self, unit)

    monkeypatch.setattr(SharedCommits, "run", counted)
    yield ran


def _messages(run_db: RunDB, table: Table) -> int:
    async def count(db: AsyncSession) -> int:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == table.game_id))
        assert game is not None
        found = await db.scalar(select(func.count()).where(StationMessage.game_id == game.id))
        return int(found or 0)

    counted: int = run_db(count)
    return counted


async def _post(db: AsyncSession, table: Table, seat: int, text: str) -> channels.Sent:
    """Post `text` on the Floor now as the player at `seat`."""
    return await do_post(
        db, await _context(db, table, seat), Channel.FLOOR, text, datetime.now(UTC)
    )


@SQLITE_ONLY
def test_a_vote_and_a_post_are_each_one_unit_of_a_shared_commit(
    server: TestClient[Litestar], table: Table, run_db: RunDB, units: list[str]
) -> None:
    player = table.players[1]
    token = _token(player, table)
    version, actions, rows = _stored(run_db, table)
    vote = _send(player, token, f"/api/games/{table.game_id}/vote", {"vote": table.codenames[3]})
    assert vote.status_code == 200, vote.text
    assert units == ["SharedWrite"]
    assert _stored(run_db, table) == (version + 1, actions + 1, rows + 1)
    post = _send(player, token, f"/api/games/{table.game_id}/chat/floor", {"text": "hello"})
    assert post.status_code == 200, post.text
    assert units == ["SharedWrite", "RowThenJournal"]
    assert _stored(run_db, table)[2] == rows + 2 and _messages(run_db, table) == 1


@SQLITE_ONLY
def test_a_save_that_lost_the_game_row_stores_nothing(
    table: Table, run_db: RunDB, units: list[str]
) -> None:
    before = _stored(run_db, table)

    async def scenario(db: AsyncSession) -> None:
        with pytest.raises(Conflict):
            await _write_a_vote(db, table, _moved_on)

    run_db(scenario)
    assert units == ["SharedWrite"]
    assert _stored(run_db, table) == before  # no version, no action, no journal row


def test_a_row_journaled_meanwhile_comes_before_the_post_stored_once(
    table: Table,
    run_db: RunDB,
    units: list[str],
    empty_database: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another writer journals a row of the game as the post is being stored (its transaction
    open when the post's write starts, committed a moment later): the post's journal row is
    numbered after it (on PostgreSQL the post first loses the race for that seq and is tried
    again), its message is stored once and the poster's cursor is a fresh count."""
    before = _stored(run_db, table)
    stream = stream_of(table.game_id)
    storing = GameWrite.commit_inserting
    attempts: list[str] = []

    async def attempt(write: GameWrite[Any, Any], *args: Any) -> Any:
        try:
            found = await storing(write, *args)
        except Conflict:
            attempts.append("lost")
            raise
        attempts.append("stored")
        return found

    monkeypatch.setattr(GameWrite, "commit_inserting", attempt)

    async def scenario(db: AsyncSession) -> tuple[int, int, int, int]:
        async with AsyncSession(db.bind) as other:
            last = await journal.last_seq(other, stream)
            await journal.insert_rows(other, journal.rows_after(stream, last, [_an_event()]))
            posting = asyncio.create_task(_post(db, table, 0, "once"))
            await asyncio.sleep(0.3)  # the post waits on the other's row (or its lock)
            await other.commit()
        sent = await posting
        fresh = await journal.cursor_at(db, stream, 0, sent.seq)
        return last, sent.seq, sent.cursor, fresh

    last, seq, cursor, fresh = run_db(scenario)
    if empty_database.backend == "sqlite":  # numbered inside the shared commit: no race lost
        assert units == ["RowThenJournal"] and attempts == ["stored"]
    else:  # the seq the other's open transaction holds: a lost race, then the next one
        assert attempts == ["lost", "stored"]
    assert seq == last + 2 and cursor == fresh
    assert _messages(run_db, table) == 1
    assert _stored(run_db, table)[2] == before[2] + 2  # the other writer's row and the post's


def test_a_post_that_loses_every_race_is_refused_and_its_game_can_still_be_read(
    table: Table, run_db: RunDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process takes the post's seq at each of its attempts (a lost race, as the
    journal's unique key reports it): the post is refused (409, "send it again"), and the
    game and seat its refusal's answer reads (a flash back on the game's page) are loaded
    again, not left expired by the last rollback (a lazy load there failed the answer with a
    500, seen with two servers on a busy game)."""
    before = _messages(run_db, table)

    async def always_lost(self: GameWrite[Any, Any], *_args: Any) -> None:
        await self.db.rollback()
        raise Conflict()

    monkeypatch.setattr(GameWrite, "commit_inserting", always_lost)

    async def scenario(db: AsyncSession) -> tuple[str, int | None]:
        context = await _context(db, table, 2)
        with pytest.raises(Stale, match="Many messages arrived at once") as refused:
            await do_post(db, context, Channel.FLOOR, "never", datetime.now(UTC))
        assert refused.value.status_code == 409
        return context.game.public_id, context.seat

    assert run_db(scenario) == (table.game_id, 2)
    assert _messages(run_db, table) == before


def test_a_post_over_the_rate_stores_nothing(
    table: Table, run_db: RunDB, units: list[str], empty_database: Database
) -> None:
    async def post(db: AsyncSession) -> str:
        try:
            await do_post(
                db, await _context(db, table, 2), Channel.FLOOR, "fast", datetime.now(UTC)
            )
        except RateLimited:
            return "refused"
        return "sent"

    assert [run_db(post) for _ in range(RATE_COUNT)] == ["sent"] * RATE_COUNT
    rows = _stored(run_db, table)[2]
    assert run_db(post) == "refused"
    if empty_database.backend == "sqlite":
        assert units == ["RowThenJournal"] * (RATE_COUNT + 1)
    assert _messages(run_db, table) == RATE_COUNT
    assert _stored(run_db, table)[2] == rows  # no journal row for the refused post


def test_the_units_journal_where_the_pages_read(table: Table, run_db: RunDB) -> None:
    """Both backends: a post's journal row is in the game's stream, numbered after the last."""

    async def scenario(db: AsyncSession) -> tuple[int, int]:
        before = await journal.last_seq(db, stream_of(table.game_id))
        sent = await do_post(
            db, await _context(db, table, 3), Channel.FLOOR, "here", datetime.now(UTC)
        )
        return before, sent.seq

    before, seq = run_db(scenario)
    assert seq == before + 1
