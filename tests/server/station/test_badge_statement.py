"""The badges' journal statement walks only the rows after the earliest look: SQLite's plan
bounds the (stream, seq) index below as well as above, so a page no longer walks its game's
whole journal to count what is new (tabs/seen.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.tabs.seen import _news


async def _plan(looks: dict[str, int], upto: int | None) -> str:
    """SQLite's query plan of the statement `_news` sends for these looks."""
    engine = create_async_engine("sqlite+aiosqlite://")
    sent: list[tuple[str, Any]] = []

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def keep(_conn: Connection, _cursor: Any, statement: str, params: Any, *_: Any) -> None:
        sent.append((statement, params))

    try:
        async with engine.begin() as connection:
            await connection.run_sync(LiveEvent.__table__.create)  # type: ignore[attr-defined]
        async with AsyncSession(engine) as db:
            await _news(db, "station:x", looks, upto)
            statement, params = sent[-1]
            connection = await db.connection()
            plan = await connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", params)
            return " ".join(str(row[-1]) for row in plan.all())
    finally:
        await engine.dispose()


async def test_the_badges_statement_walks_the_journal_only_after_the_earliest_look() -> None:
    for upto in (40, None):
        plan = await _plan({"cable": 30, "floor": 12, "operations": 25}, upto)
        assert "stream=? AND seq>?" in plan, plan
        assert "SCAN" not in plan, plan
