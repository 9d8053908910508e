"""The seats' table a tab page shows (issue 15): read once per row version and version and
kept across today's posts, which change no seat's mark (S38's inactivity counts the days the
Pouches resolved); read afresh after any other journaled event, a post of an older day, or
too many rows to check. Always equal to a fresh read. SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.station.channels import Channel
from deaddrop.server.accounts.models import User
from deaddrop.server.clock import SystemClock
from deaddrop.server.live import journal
from deaddrop.server.station.chat.channels import do_post
from deaddrop.server.station.game.access import GameContext, access_game_for_player
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.host.service import do_set_spectators
from deaddrop.server.station.live.stream import MESSAGE_EVENT, stream_of
from deaddrop.server.station.tabs import info_builder
from deaddrop.server.station.tabs.info import GameInfo
from deaddrop.server.station.tabs.info_builder import SPAN_MOST, build_game_info
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)


async def _context(db: AsyncSession, table: Table, seat: int) -> GameContext:
    user = await db.scalar(select(User).where(User.username == table.players[seat].username))
    assert user is not None
    return await access_game_for_player(db, table.game_id, user)


class Reads:
    """Counts the table's reads (`seat_infos`) while a scenario runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = info_builder.seat_infos

        async def counted(*args: Any) -> Any:
            self.count += 1
            return await real(*args)

        monkeypatch.setattr(info_builder, "seat_infos", counted)


async def _page_info(db: AsyncSession, table: Table, seat: int, at: int | None = None) -> GameInfo:
    """The GameInfo a page of `seat` gets at the journal's newest seq (or at `at`), checked
    against a read that keeps nothing."""
    context = await _context(db, table, seat)
    state = await load_state(db, context.game)
    if at is None:
        at = await journal.last_seq(db, stream_of(table.game_id))
    info = await build_game_info(db, context, state, at)
    assert info == await build_game_info(db, context, state, None)  # None: read afresh
    return info


async def _journal(db: AsyncSession, table: Table, kind: str, payload: dict[str, Any]) -> None:
    await journal.append(db, stream_of(table.game_id), [Event(kind, payload, Audience.everyone())])
    await db.commit()


def test_todays_posts_keep_the_table(
    table: Table, run_db: RunDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = Reads(monkeypatch)

    async def steps(db: AsyncSession) -> None:
        await _page_info(db, table, 1)
        first = reads.count  # the page's own read and the fresh check
        for seat in (2, 3, 4):
            poster = await _context(db, table, seat)
            await do_post(db, poster, Channel.FLOOR, f"from {seat}", datetime.now(UTC))
            await _page_info(db, table, 1)
        # Each later page read the table only for the fresh check beside it.
        assert reads.count == first + 3

    run_db(steps)


def test_a_slower_page_at_an_older_seq_keeps_the_table(
    table: Table, run_db: RunDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = Reads(monkeypatch)

    async def steps(db: AsyncSession) -> None:
        older = await journal.last_seq(db, stream_of(table.game_id))
        poster = await _context(db, table, 2)
        await do_post(db, poster, Channel.FLOOR, "a post", datetime.now(UTC))
        await _page_info(db, table, 1)
        before = reads.count
        await _page_info(db, table, 1, at=older)
        assert reads.count == before + 1  # the fresh check alone

    run_db(steps)


@pytest.mark.parametrize(
    "kind",
    ["host notice", "post of yesterday", "other event", "too many posts"],
)
def test_anything_else_reads_the_table_again(
    table: Table, run_db: RunDB, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    reads = Reads(monkeypatch)

    async def steps(db: AsyncSession) -> None:
        await _page_info(db, table, 1)
        before = reads.count
        state = await load_state(db, (await _context(db, table, 1)).game)
        if kind == "host notice":  # S40: public, journaled, shown in the table's notices
            host = await _context(db, table, 0)
            await do_set_spectators(db, host, True, SystemClock())
        elif kind == "post of yesterday":  # a writer that read the game before a Pouch
            await _journal(db, table, MESSAGE_EVENT, {"channel": "floor", "day": state.day - 1})
        elif kind == "other event":
            await _journal(db, table, "vote", {})
        else:
            for _ in range(SPAN_MOST + 1):
                await _journal(db, table, MESSAGE_EVENT, {"channel": "floor", "day": state.day})
        info = await _page_info(db, table, 1)
        assert reads.count == before + 2  # the page's own read, then the fresh check
        if kind == "host notice":
            assert info.announcements[-1].kind == "spectators_on"

    run_db(steps)
