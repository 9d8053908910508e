"""A statement sent straight through asyncpg on the connection a session already holds.

SQLAlchemy's execution around a statement (the session, the greenlet hop of its asyncpg
adapter, its cursor and result) costs several times what asyncpg itself spends on it, and on
PostgreSQL the pages and saves send a few such statements each, thousands of times a second.
The adapter begins its transaction lazily, at its first statement: a statement goes straight
to asyncpg only inside a transaction already open (so it joins it, as SQLAlchemy's would) or,
when its caller says it stands alone, outside any (one round trip, no BEGIN and no ROLLBACK:
asyncpg's own implicit transaction). Its errors are raised as SQLAlchemy raises them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError


def may_send(driver: Any, alone: bool) -> bool:
    """Whether a statement may go straight to `driver`: an open asyncpg connection, inside its
    transaction, or outside any when the statement stands alone."""
    if not isinstance(driver, asyncpg.Connection) or driver.is_closed():
        # Closed (a lost server): SQLAlchemy's own execution finds it out and invalidates it.
        return False
    return alone or driver.is_in_transaction()


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
