"""A statement sent straight through asyncpg on the connection a session already holds.

SQLAlchemy's execution around a statement (the session, the greenlet hop of its asyncpg
adapter, its cursor and result) costs several times what asyncpg itself spends on it, and on
PostgreSQL the pages and saves send a few such statements each, thousands of times a second.
A statement goes straight to asyncpg inside the transaction SQLAlchemy has begun (so it joins
it, as SQLAlchemy's would; the first one begins it on asyncpg by the adapter's own step, as
SQLAlchemy's execution would) or, when its caller says it stands alone, outside any (one round
trip, no BEGIN and no ROLLBACK: asyncpg's own implicit transaction). Its errors are raised as
SQLAlchemy raises them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError


async def may_send(connection: Connection, alone: bool) -> bool:
    """Whether a statement may go straight to asyncpg on `connection` (open, and asyncpg's):
    inside its transaction, outside any when the statement stands alone, or once the
    transaction SQLAlchemy has begun is begun on asyncpg too (by the adapter's own step)."""
    proxied = connection.connection
    driver = proxied.driver_connection
    if not isinstance(driver, asyncpg.Connection) or driver.is_closed():
        # Closed (a lost server): SQLAlchemy's own execution finds it out and invalidates it.
        return False
    if alone or driver.is_in_transaction():
        return True
    if not connection.in_transaction():
        return False
    # The adapter begins its transaction lazily, at its first statement: begin it here by the
    # same step, so that it tracks it, commits it and rolls it back as ever. An adapter whose
    # state is not as expected, or a BEGIN that fails, is left to SQLAlchemy (its errors too).
    adapter = proxied.dbapi_connection
    begin = getattr(adapter, "_start_transaction", None)
    if begin is None or getattr(adapter, "_transaction", True) is not None:
        return False
    try:
        await begin()
    except Exception:
        return False
    return bool(driver.is_in_transaction())  # not under an autocommit isolation level


async def send_on_asyncpg(
    driver: asyncpg.Connection, sql: str, parameters: Sequence[Any], returns_rows: bool
) -> tuple[list[Any], int]:
    """Run `sql` on `driver`: its rows (asyncpg's records) and the rows it changed."""
    try:
        if returns_rows:
            records = await driver.fetch(sql, *parameters)
            return list(records), len(records)
        status = await driver.execute(sql, *parameters)
    except Exception as error:
        raise _as_sqlalchemy_raises(sql, parameters, error) from error
    # The command tag: "UPDATE 1", "DELETE 0", "INSERT 0 1": its last number is the rowcount.
    last = status.rsplit(" ", 1)[-1]
    return [], int(last) if last.isdigit() else -1


def _as_sqlalchemy_raises(sql: str, parameters: Sequence[Any], error: Exception) -> DBAPIError:
    """`error` as SQLAlchemy's execution would raise it (its exception classes: a broken unique
    key is an IntegrityError, which a save turns into a conflict)."""
    if isinstance(error, asyncpg.IntegrityConstraintViolationError):
        kind: type[DBAPIError] = IntegrityError
    elif isinstance(error, asyncpg.InterfaceError | asyncpg.InternalClientError):
        kind = InterfaceError
    else:
        kind = DBAPIError
    return kind(sql, tuple(parameters), error)
