"""The badges' journal statement walks only the rows after the earliest look: SQLite's plan
bounds the (stream, seq) index below as well as above, so a page no longer walks its game's
whole journal to count what is new (tabs/seen.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection

from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.tabs.seen import _news_query

TABS = ("cable", "floor", "operations")


def _plan(looks: dict[str, int], upto: int | None) -> str:
    """SQLite's query plan of the badges' statement for these looks."""
    engine = create_engine("sqlite://")
    LiveEvent.__table__.create(engine)  # type: ignore[attr-defined]
    sent: list[tuple[str, Any]] = []

    @event.listens_for(engine, "before_cursor_execute")
    def keep(_conn: Connection, _cursor: Any, statement: str, params: Any, *_: Any) -> None:
        sent.append((statement, params))

    values: dict[str, Any] = {f"last_{tab}": look for tab, look in looks.items()}
    values.update(stream="station:x", window=2000, since=min(looks.values()))
    if upto is not None:
        values["upto"] = upto
    with engine.connect() as connection:
        connection.execute(_news_query(tuple(looks), upto), values)
        statement, params = sent[-1]
        rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", params).all()
    return " ".join(str(row[-1]) for row in rows)


def test_the_badges_statement_walks_the_journal_only_after_the_earliest_look() -> None:
    for upto in (40, None):
        plan = _plan({"cable": 30, "floor": 12, "operations": 25}, upto)
        assert "stream=? AND seq>?" in plan, plan
        assert "SCAN" not in plan, plan
