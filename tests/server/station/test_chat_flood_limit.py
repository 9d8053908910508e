"""The chat's flood limit as a host sets it (`CHAT_POSTS_PER_WINDOW`, `CHAT_WINDOW_SECONDS`):
the app's sessions carry it, a post beyond it is refused in its own words and never stored,
and a count of 0 refuses nothing. SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.channels import Channel
from deaddrop.server.accounts.models import User
from deaddrop.server.app import create_app
from deaddrop.server.settings import Settings
from deaddrop.server.station.chat.channels import RATE_COUNT, RateLimited, do_post
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.chat.rate import CHAT_RATE_KEY, ChatRate, chat_rate, chat_rate_of
from deaddrop.server.station.game.access import access_game_for_player
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)


async def _post(db: AsyncSession, table: Table, seat: int, when: datetime) -> str:
    """A Floor post of the player at `seat` at `when`: "sent", or the refusal's words."""
    user = await db.scalar(select(User).where(User.username == table.players[seat].username))
    assert user is not None
    context = await access_game_for_player(db, table.game_id, user)
    try:
        await do_post(db, context, Channel.FLOOR, f"at {when.isoformat()}", when)
    except RateLimited as refusal:
        return str(refusal)
    return "sent"


def _posts_under(run_db: RunDB, rate: ChatRate, table: Table, moments: list[datetime]) -> list[str]:
    """The outcomes of the seat 2 player's posts at `moments`, each in a session of `rate`."""

    def at(when: datetime) -> Callable[[AsyncSession], Awaitable[str]]:
        async def one(db: AsyncSession) -> str:
            db.info[CHAT_RATE_KEY] = rate  # as the app's sessionmaker gives it
            return await _post(db, table, 2, when)

        return one

    outcomes: list[str] = [run_db(at(when)) for when in moments]
    return outcomes


def _stored(run_db: RunDB) -> int:
    async def count(db: AsyncSession) -> int:
        return int(await db.scalar(select(func.count()).select_from(StationMessage)) or 0)

    found: int = run_db(count)
    return found


def test_a_hosts_flood_limit_refuses_past_its_count_in_its_own_words(
    table: Table, run_db: RunDB
) -> None:
    start = datetime.now(UTC).replace(microsecond=0)
    rate = ChatRate(2, timedelta(seconds=40))
    moments = [start, start + timedelta(seconds=1), start + timedelta(seconds=2)]
    outcomes = _posts_under(run_db, rate, table, moments)
    assert outcomes[:2] == ["sent", "sent"]
    assert "at most 2 messages every 40 seconds" in outcomes[2]
    assert _stored(run_db) == 2
    # One window after the first post, it no longer counts.
    assert _posts_under(run_db, rate, table, [start + timedelta(seconds=40)]) == ["sent"]


def test_no_flood_limit_refuses_nothing(table: Table, run_db: RunDB) -> None:
    now = datetime.now(UTC)
    outcomes = _posts_under(run_db, ChatRate(0), table, [now] * (RATE_COUNT + 3))
    assert outcomes == ["sent"] * (RATE_COUNT + 3)
    assert _stored(run_db) == RATE_COUNT + 3


def test_the_flood_limit_is_read_from_the_environment(tmp_path: Path) -> None:
    default = Settings.from_env({"SECRET_KEY": "k"}, var_dir=tmp_path)
    assert chat_rate(default) == ChatRate(RATE_COUNT, timedelta(seconds=15)) == ChatRate()
    env = {"SECRET_KEY": "k", "CHAT_POSTS_PER_WINDOW": "0", "CHAT_WINDOW_SECONDS": "30"}
    lifted = Settings.from_env(env, var_dir=tmp_path)
    assert chat_rate(lifted) == ChatRate(0, timedelta(seconds=30))
    with pytest.raises(ValueError):
        Settings.from_env({**env, "CHAT_POSTS_PER_WINDOW": "many"}, var_dir=tmp_path)


def test_the_apps_sessions_carry_its_flood_limit(
    settings: Settings, server: TestClient[Litestar]
) -> None:
    async def rate_in(app: Litestar) -> ChatRate:
        async with app.state.sessionmaker() as db:
            return chat_rate_of(db)

    assert server.blocking_portal.call(rate_in, server.app) == ChatRate()
    strict = create_app(replace(settings, chat_posts_per_window=1, chat_window_seconds=60))
    assert server.blocking_portal.call(rate_in, strict) == ChatRate(1, timedelta(seconds=60))
