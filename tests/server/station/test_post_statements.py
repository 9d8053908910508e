"""What a Floor post and a vote cost in SQL statements, and that the cheaper post keeps its
rules exact: the rate limit (the 6th post in 15 s refused with the same words, never stored,
exact at the window's edge and under concurrent posts), the game re-read when a writer went
first, and the reply's cursor equal to a fresh count for every seat. SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.station import CastVote, SendWhisper
from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.roles import is_ring
from deaddrop.server.accounts.models import User
from deaddrop.server.clock import SystemClock
from deaddrop.server.live import journal
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.chat import channels
from deaddrop.server.station.chat.channels import RATE_COUNT, RATE_WINDOW, RateLimited, do_post
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game.access import GameContext, access_game_for_player
from deaddrop.server.station.live.stream import listener_of, stream_of
from deaddrop.server.station.play.service import do_act
from deaddrop.server.station.tabs import positions
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)
from tests.server.test_request_session import counted
from tests.server.visitor import Visitor, csrf_token_in

POST_STATEMENTS = 3
"""The session with its account and the game with the seat (one statement: db/prefetch.py),
the message inserted within the rate, the journal row numbered by its own insert (the poster's
cursor known: this process knew where each seat stood, from its page, and followed its own
writes since)."""
VOTE_STATEMENTS = 4
"""The session with its account and the game with the seat, the action, the game row, the
journal row numbered by its own insert."""


def _send(player: Visitor, token: str, path: str, fields: dict[str, str]) -> httpx.Response:
    """POST JSON as the page's script does."""
    return player.http.post(path, json=fields, headers={"x-csrftoken": token})


def _token(player: Visitor, table: Table) -> str:
    return csrf_token_in(player.get(f"/games/{table.game_id}/floor").text)


def test_a_floor_post_takes_three_statements(server: TestClient[Litestar], table: Table) -> None:
    tokens = [_token(player, table) for player in table.players]
    for round_number in range(2):
        for seat, player in enumerate(table.players):
            path = f"/api/games/{table.game_id}/chat/floor"
            with counted(server.app.state.engine) as counts:
                answer = _send(player, tokens[seat], path, {"text": f"r{round_number} s{seat}"})
            assert answer.status_code == 200, answer.text
            assert counts["statements"] <= POST_STATEMENTS
            assert counts["statements"] == counts["direct"]  # all straight to the driver
            assert counts["checkouts"] == counts["checkins"] == _connections(server)


def test_a_vote_takes_four_statements(server: TestClient[Litestar], table: Table) -> None:
    for seat, player in enumerate(table.players):
        token = _token(player, table)
        target = table.codenames[(seat + 1) % len(table.players)]
        with counted(server.app.state.engine) as counts:
            answer = _send(player, token, f"/api/games/{table.game_id}/vote", {"vote": target})
        assert answer.status_code == 200, answer.text
        assert counts["statements"] <= VOTE_STATEMENTS
        assert counts["statements"] == counts["direct"]  # all straight to the driver
        assert counts["checkouts"] == counts["checkins"] == _connections(server)


def _connections(server: TestClient[Litestar]) -> int:
    """The pooled connections a vote or a post takes: none. On a SQLite file its read goes
    inline (db/inline_reads.py), its writes in a shared commit on a connection of their own; on
    PostgreSQL its read and its one statement go alone on a connection off the pool
    (db/lone_statements.py)."""
    assert server.app.state.engine.dialect.name in ("sqlite", "postgresql")
    return 0


def test_the_sixth_post_is_refused_in_the_same_words_and_never_stored(
    server: TestClient[Litestar], table: Table, run_db: RunDB
) -> None:
    player, path = table.players[0], f"/api/games/{table.game_id}/chat/floor"
    token = _token(player, table)
    for number in range(RATE_COUNT):
        assert _send(player, token, path, {"text": f"m{number}"}).status_code == 200
    before = _stored(run_db)
    refused = _send(player, token, path, {"text": "one too many"})
    assert refused.status_code == 422
    assert refused.json()["detail"] == (
        "You are posting quickly: at most 5 messages every 15 seconds. "
        "Wait a few seconds, then send it again."
    )
    assert _stored(run_db) == before  # no message, no journal row
    assert _send(table.players[1], _token(table.players[1], table), path, {"text": "x"}).is_success


def _stored(run_db: RunDB) -> tuple[int, int]:
    """(messages, journal rows) in the database."""

    async def read(db: AsyncSession) -> tuple[int, int]:
        messages = await db.scalar(select(func.count()).select_from(StationMessage))
        rows = await db.scalar(select(func.count()).select_from(LiveEvent))
        return int(messages or 0), int(rows or 0)

    stored: tuple[int, int] = run_db(read)
    return stored


async def _context(db: AsyncSession, table: Table, seat: int) -> GameContext:
    """The game as the player at `seat` reaches it."""
    user = await db.scalar(select(User).where(User.username == table.players[seat].username))
    assert user is not None
    return await access_game_for_player(db, table.game_id, user)


def test_the_window_is_exact_at_its_edge(table: Table, run_db: RunDB) -> None:
    start = datetime.now(UTC).replace(microsecond=0)
    moments = [start + timedelta(seconds=n) for n in range(RATE_COUNT)]

    async def post_at(db: AsyncSession, when: datetime) -> str:
        try:
            await do_post(db, await _context(db, table, 2), Channel.FLOOR, "edge", when)
        except RateLimited:
            return "refused"
        return "sent"

    def post(when: datetime) -> str:
        outcome: str = run_db(lambda db: post_at(db, when))
        return outcome

    assert [post(when) for when in moments] == ["sent"] * RATE_COUNT
    assert post(moments[-1]) == "refused"
    # A post exactly one window after the first: the first no longer counts (created_at > since).
    assert post(start + RATE_WINDOW - timedelta(microseconds=1)) == "refused"
    assert post(start + RATE_WINDOW) == "sent"
    assert post(start + RATE_WINDOW) == "refused"  # the window holds five again


def test_concurrent_posts_of_one_seat_store_exactly_the_limit(
    server: TestClient[Litestar], table: Table, run_db: RunDB
) -> None:
    sessionmaker: async_sessionmaker[AsyncSession] = server.app.state.sessionmaker
    now = datetime.now(UTC)

    async def one(number: int) -> str:
        async with sessionmaker() as db:
            try:
                await do_post(db, await _context(db, table, 3), Channel.FLOOR, f"c{number}", now)
            except RateLimited:
                return "refused"
            return "sent"

    async def burst(_db: AsyncSession) -> list[str]:
        return list(await asyncio.gather(*(one(number) for number in range(RATE_COUNT + 4))))

    outcomes: list[str] = run_db(burst)
    assert sorted(outcomes) == ["refused"] * 4 + ["sent"] * RATE_COUNT
    assert _stored(run_db)[0] == RATE_COUNT


def test_a_post_rereads_a_game_another_writer_moved_on(
    server: TestClient[Litestar], table: Table, run_db: RunDB
) -> None:
    sessionmaker: async_sessionmaker[AsyncSession] = server.app.state.sessionmaker

    async def scenario(db: AsyncSession) -> tuple[int, int]:
        stale = await _context(db, table, 1)
        before = stale.game.version
        async with sessionmaker() as other:
            voter = await _context(other, table, 2)
            await do_act(other, voter, CastVote(2, 1), clock=SystemClock())
        await do_post(db, stale, Channel.FLOOR, "after the vote", datetime.now(UTC))
        return before, stale.game.version

    before, after = run_db(scenario)
    assert after == before + 1


def test_the_posters_cursor_equals_a_fresh_count_for_every_seat(
    table: Table, run_db: RunDB
) -> None:
    ring = [seat for seat, role in enumerate(table.roles) if is_ring(role)]
    posts: Sequence[tuple[int, Channel]] = [
        *((seat, Channel.FLOOR) for seat in range(len(table.players))),
        *((seat, Channel.RING) for seat in ring),
        *((seat, Channel.FLOOR) for seat in reversed(range(len(table.players)))),
    ]

    async def scenario(db: AsyncSession) -> list[tuple[Any, ...]]:
        checked = []
        for number, (seat, channel) in enumerate(posts):
            if number % 3 == 0:  # private events between posts, so cursors differ from seqs
                whisperer = await _context(db, table, (seat + 1) % len(table.players))
                action = SendWhisper(whisperer.seat or 0, seat, f"w{number}")
                await do_act(db, whisperer, action, clock=SystemClock())
            context = await _context(db, table, seat)
            sent = await do_post(db, context, channel, f"p{number}", datetime.now(UTC))
            stream = stream_of(table.game_id)
            fresh = await journal.cursor_at(db, stream, listener_of(context), sent.seq)
            checked.append((seat, channel, sent.seq, sent.cursor, fresh))
            assert sent.seq == await journal.last_seq(db, stream)
        return checked

    for seat, channel, seq, cursor, fresh in run_db(scenario):
        assert cursor == fresh, (seat, channel, seq)


@pytest.mark.parametrize("count", [1, 2, journal.NUMBERED_AT_ONCE, journal.NUMBERED_AT_ONCE + 1])
def test_the_journal_numbers_events_after_the_last(run_db: RunDB, count: int) -> None:
    stream = "station:numbering"
    events = [Event("e", {"n": n}, Audience.only(n % 3)) for n in range(count)]

    async def append_twice(db: AsyncSession) -> tuple[int, int, list[int]]:
        first = await journal.append(db, stream, events)
        second = await journal.append(db, stream, events)
        await db.commit()
        seqs = await db.scalars(
            select(LiveEvent.seq).where(LiveEvent.stream == stream).order_by(LiveEvent.seq)
        )
        return first, second, list(seqs)

    first, second, seqs = run_db(append_twice)
    assert (first, second) == (count, 2 * count)
    assert seqs == list(range(1, 2 * count + 1))


def test_a_post_reads_its_posters_cursor_only_when_another_writer_came_between(
    table: Table, run_db: RunDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    """This process's writes move on the readers it knows (live/known_positions.py): a post
    right after them tells its poster's cursor without reading the journal. After a row
    another process journaled, the post's row is numbered after it by its own insert and the
    poster's cursor is read; every cursor equals a fresh count."""
    real_position = positions.position
    reads: list[int | None] = []

    async def read(
        db: AsyncSession, stream: str, listener: Any, upto: int | None = None
    ) -> tuple[int, int]:
        reads.append(upto)
        return await real_position(db, stream, listener, upto)

    monkeypatch.setattr(f"{channels.__name__}.position", read)
    stream = stream_of(table.game_id)

    async def post(db: AsyncSession, text: str) -> int:
        context = await _context(db, table, 4)
        sent = await do_post(db, context, Channel.FLOOR, text, datetime.now(UTC))
        assert sent.cursor == await journal.cursor_at(db, stream, 4, sent.seq), text
        assert sent.seq == await journal.last_seq(db, stream)
        return len(reads)

    async def scenario(db: AsyncSession) -> list[int]:
        counts = [await post(db, "first"), await post(db, "second")]
        async with AsyncSession(db.bind) as other:  # another process's row, to seat 4 alone
            last = await journal.last_seq(other, stream)
            rows = journal.rows_after(stream, last, [Event("test", {}, Audience.only(4))])
            await journal.insert_rows(other, rows)
            await other.commit()
        return [*counts, await post(db, "third"), await post(db, "fourth")]

    # Nothing known of seat 4 at first: one read; then none but after the other's row.
    assert run_db(scenario) == [1, 1, 2, 2]
    assert _stored(run_db)[0] == 4
