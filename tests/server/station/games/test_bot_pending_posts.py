"""A bot's post the chat's rate limit refused is kept and posted at a later pass of the bot
runner (issue 14), once, however many runners look."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

import pytest
from litestar import Litestar
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.bots.station.base import BotPost, DayBot, DayPlan
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.claims import Post
from deaddrop.server.station.bot_seats import runner as runner_module
from deaddrop.server.station.bot_seats.pending_models import StationBotPendingPost
from deaddrop.server.station.chat.channels import RATE_COUNT, RATE_WINDOW, do_post
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game.access import GameContext
from tests.server.station.games.bot_helpers import (
    bot_table,
    run_bots,
    run_two_bot_runners,
    seat_row,
)
from tests.server.station.games.helpers import Person, RunDB, Table, game_row

BOT = 5
CLAIM = "I suspect nobody yet."


def _talker(name: str) -> DayBot:
    """A level that only posts one Floor message a decision (to fill the rate limit)."""

    def decide(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
        return DayPlan(posts=(BotPost("floor", CLAIM),)), rng

    return decide


def _flood(table: Table) -> None:
    """The bot seat posts as many Floor messages as the rate allows, just now."""

    async def post(db: AsyncSession) -> None:
        game, row = await game_row(db, table.game_id), await seat_row(db, table, BOT)
        for n in range(RATE_COUNT):
            await do_post(
                db, GameContext(game, None, row), Channel.FLOOR, f"{n}", table.clock.now()
            )

    table.run_db(post)


def _count(table: Table, what: Any, *where: Any) -> int:
    async def read(db: AsyncSession) -> int:
        found = await db.scalar(select(func.count()).select_from(what).where(*where))
        return int(found or 0)

    counted: int = table.run_db(read)
    return counted


def _claims(table: Table) -> int:
    return _count(table, StationMessage, StationMessage.text == CLAIM)


def _kept(table: Table) -> int:
    return _count(table, StationBotPendingPost)


@pytest.fixture
def flooded(
    host: Person,
    players: list[Person],
    run_db: RunDB,
    app: Litestar,
    monkeypatch: pytest.MonkeyPatch,
) -> Table:
    """A table whose bot seat (a talker) has just posted as much as the rate allows."""
    monkeypatch.setattr(runner_module, "level", _talker)
    table = bot_table(host, players[:4], ["heuristic"], run_db, app)
    _flood(table)
    return table


def test_a_rate_limited_bot_post_is_kept_and_posted_at_a_later_pass(
    host: Person, flooded: Table
) -> None:
    table = flooded
    assert run_bots(table) == 1
    assert (_claims(table), _kept(table)) == (0, 1)  # refused for its pace, not dropped
    run_bots(table)
    assert (_claims(table), _kept(table)) == (0, 1)  # still too soon: kept again
    table.clock.advance(RATE_WINDOW + timedelta(seconds=1))
    run_bots(table)
    assert (_claims(table), _kept(table)) == (1, 0)
    assert CLAIM in host.get(table.path("/floor")).text


def test_two_runners_post_a_kept_post_once(flooded: Table) -> None:
    table = flooded
    run_bots(table)
    table.clock.advance(RATE_WINDOW + timedelta(seconds=1))
    run_two_bot_runners(table)
    assert (_claims(table), _kept(table)) == (1, 0)
