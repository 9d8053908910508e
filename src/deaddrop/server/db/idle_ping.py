"""Ping a pooled PostgreSQL connection before use only when it has lain idle a while.

`pool_pre_ping` pings on every checkout: a round trip before each request's first statement,
a sixth of a page's on PostgreSQL. A connection handed back milliseconds ago is as alive as
the request that used it; one idle for longer may have been closed by a server restart or a
proxy's timeout. So only a connection idle past `IDLE_BEFORE_PING_SECONDS` is pinged, and
one that does not answer is thrown away: the pool then opens a fresh one (SQLAlchemy's
`DisconnectionError` on checkout), so the request never sees the dead one.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine

IDLE_BEFORE_PING_SECONDS = 5.0
"""How long a connection may lie in the pool and still be used without a ping."""

_RETURNED_AT = "deaddrop.returned_at"


def ping_when_idle(engine: AsyncEngine) -> None:
    """Make `engine`'s pool ping connections idle past the threshold before handing them out."""
    dialect = engine.sync_engine.dialect

    def returned(_dbapi_connection: Any, record: Any) -> None:
        record.info[_RETURNED_AT] = time.monotonic()

    def checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        returned_at = record.info.get(_RETURNED_AT)
        if returned_at is None or time.monotonic() - returned_at < IDLE_BEFORE_PING_SECONDS:
            return  # new, or back moments ago: alive
        try:
            alive = dialect.do_ping(dbapi_connection)
        except Exception as error:  # the driver's own error for a dead connection
            raise DisconnectionError("a pooled connection no longer answers") from error
        if not alive:
            raise DisconnectionError("a pooled connection no longer answers")

    event.listen(engine.sync_engine, "checkin", returned)
    event.listen(engine.sync_engine, "checkout", checkout)
