"""One database session per request, shared by the session cookie's lookup and the handler.

A page reads the signed-in person's session row before its handler runs. Reading it through
the session the handler then gets as `db` saves a second session and a second connection
checkout (and, on SQLite, the reset of a second connection on its return) per request. The
handler's dependency closes it when the handler is done, as before; the session middleware
closes it after the response for a handler that never asked for `db`.

A closed session is kept for the next request rather than made anew (SQLAlchemy resets a
session at `close` for use again: `close_resets_only`): a new one costs more than its
`__init__`, its per-instance event dispatch looks each event up the slow way on first use (six
missed attribute lookups, each formatting an AttributeError), some 3% of a vote. A kept session
holds no object, no transaction and no connection; its `info` is set afresh from its maker's
when it is taken again, as a new session's would be.
"""

from __future__ import annotations

import weakref
from typing import Any, cast

from litestar.types import Scope
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.db.driver import holds_connection

_SCOPE_KEY = "deaddrop.db_session"
_HELD_KEY = "deaddrop.db_session_held"
_MAKER_KEY = "deaddrop.db_sessionmaker"
KEPT_SESSIONS = 64
"""Closed sessions kept for reuse at most, per sessionmaker (more than the requests a process
serves at once on one database)."""
_kept: weakref.WeakKeyDictionary[async_sessionmaker[AsyncSession], list[AsyncSession]] = (
    weakref.WeakKeyDictionary()
)


def request_session(scope: Scope, sessionmaker: async_sessionmaker[AsyncSession]) -> AsyncSession:
    """This request's database session, opened on first use."""
    shared = cast(dict[str, Any], scope)
    session = shared.get(_SCOPE_KEY)
    if session is None:
        session = shared[_SCOPE_KEY] = _kept_or_new(sessionmaker)
        shared[_MAKER_KEY] = sessionmaker
    return cast(AsyncSession, session)


def _kept_or_new(sessionmaker: async_sessionmaker[AsyncSession]) -> AsyncSession:
    """A closed session kept for `sessionmaker`'s requests, its `info` set afresh; else a new
    one."""
    try:
        session = _kept.get(sessionmaker, []).pop()
    except IndexError:
        return sessionmaker()
    info = session.sync_session.info
    info.clear()
    info.update(sessionmaker.kw.get("info") or {})
    return session


def opened_request_session(scope: Scope) -> AsyncSession | None:
    """This request's session if one was opened, else None (none is opened for asking)."""
    return cast(AsyncSession | None, cast(dict[str, Any], scope).get(_SCOPE_KEY))


async def close_request_session(scope: Scope) -> None:
    """Close this request's session if one was opened: what it did not commit is rolled back.
    A held session (`hold_request_session`) stays open, its connection with it."""
    shared = cast(dict[str, Any], scope)
    if shared.get(_HELD_KEY):
        return
    session = shared.pop(_SCOPE_KEY, None)
    if session is not None:
        await close_session(session)
        _keep(shared.pop(_MAKER_KEY, None), session)


def _keep(sessionmaker: async_sessionmaker[AsyncSession] | None, session: AsyncSession) -> None:
    """Keep `session`, just closed without fault, for the next request of `sessionmaker`."""
    if sessionmaker is None:
        return
    kept = _kept.setdefault(sessionmaker, [])
    if len(kept) < KEPT_SESSIONS:
        kept.append(session)


async def close_session(session: AsyncSession) -> None:
    """Close `session`: through SQLAlchemy's greenlet when it holds a connection (its return
    to the pool is I/O), directly when it holds none (only its objects let go: a SQLite
    request reading inline and writing in a shared commit; the greenlet cost a vote 5% of its
    Python time)."""
    if holds_connection(session):
        await session.close()
    else:
        session.sync_session.close()


def hold_request_session(scope: Scope) -> None:
    """Keep this request's session open after its handler and the session middleware, until
    `release_request_session`: for a middleware that reads once more through its connection
    after them (station/tabs/known_pages.py), rather than taking a second one from the pool.
    Only for requests that commit what they write (or write nothing): the later reads see
    what the handler left uncommitted, until the release rolls it back."""
    cast(dict[str, Any], scope)[_HELD_KEY] = True


async def release_request_session(scope: Scope) -> None:
    """End the hold of `hold_request_session` and close the session."""
    cast(dict[str, Any], scope).pop(_HELD_KEY, None)
    await close_request_session(scope)
