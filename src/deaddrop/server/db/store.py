"""A Litestar `Store` kept in the database, so sessions survive restarts and span processes."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Self, cast

from litestar.stores.base import NamespacedStore
from sqlalchemy import (
    ColumnElement,
    Select,
    bindparam,
    delete,
    inspect,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.db.base import utcnow
from deaddrop.server.db.driver import send_in
from deaddrop.server.db.kv import KeyValue
from deaddrop.server.db.prefetch import keep
from deaddrop.server.db.raw_rows import columns_of, loaded
from deaddrop.server.db.upsert import insert_for

_LIVE = (
    KeyValue.namespace == bindparam("namespace"),
    KeyValue.key == bindparam("key"),
    or_(KeyValue.expires_at.is_(None), KeyValue.expires_at > bindparam("now")),
)
_VALUE = select(KeyValue.value).where(*_LIVE)
"""A live value (every page reads the session's): built once, not per request."""


def live_value_with(*columns: Any) -> Select[Any]:
    """The live value and `columns` beside it, under the binds `DatabaseStore.live_values`
    gives (namespace, key, now): for a read of other rows with a stored value (a session's)."""
    return select(KeyValue.value, *columns).where(*_LIVE)


_WITH_ROW: dict[tuple[type[Any], Any], tuple[Select[Any], int]] = {}
_STORE_BINDS = frozenset({"namespace", "key", "now", "row_id"})


def _value_with_row(model: type[Any], companion: Select[Any] | None) -> tuple[Select[Any], int]:
    """A live value and a `model` row's columns by primary key (`row_id`) in one statement,
    then the `companion` query's columns (db/prefetch.py), built once; with where the
    companion's columns start."""
    found = _WITH_ROW.get((model, companion))
    if found is None:
        (primary_key,) = inspect(model).primary_key
        row_columns = columns_of(model)
        joined = select(KeyValue.value, *row_columns).select_from(KeyValue.__table__)
        joined = joined.outerjoin(model, primary_key == bindparam("row_id"))
        if companion is not None:
            clash = _STORE_BINDS & set(companion.compile().params)
            assert not clash, f"a companion read binds the store's own names: {clash}"
            # Joined on nothing: it reads by its own binds (each of its rows beside the
            # session's; one row of NULLs for none).
            companion_rows = companion.subquery()
            joined = joined.outerjoin(companion_rows, true()).add_columns(*companion_rows.c)
        found = _WITH_ROW[(model, companion)] = (joined.where(*_LIVE), 1 + len(row_columns))
    return found


class DatabaseStore(NamespacedStore):
    """Keys and bytes with optional expiry, in the `kv_entries` table under one namespace."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], namespace: str) -> None:
        self.sessionmaker = sessionmaker
        self.namespace = namespace

    def with_namespace(self, namespace: str) -> Self:
        """A store over the same table under a nested namespace."""
        return type(self)(self.sessionmaker, f"{self.namespace}.{namespace}")

    async def set(
        self, key: str, value: str | bytes, expires_in: int | timedelta | None = None
    ) -> None:
        """Store `value` under `key`, replacing what was there and its expiry."""
        data = value.encode("utf-8") if isinstance(value, str) else value
        row = {
            "namespace": self.namespace,
            "key": key,
            "value": data,
            "expires_at": _expiry(expires_in),
        }
        async with self.sessionmaker() as db:
            statement = insert_for(db, KeyValue).values(row)
            statement = statement.on_conflict_do_update(
                index_elements=[KeyValue.namespace, KeyValue.key],
                set_={
                    "value": statement.excluded.value,
                    "expires_at": statement.excluded.expires_at,
                },
            )
            await db.execute(statement)
            await db.commit()

    async def increment(
        self, key: str, amount: int = 1, expires_in: int | timedelta | None = None
    ) -> int:
        """Add `amount` to the counter under `key` and return the new count, atomically even
        across processes; a missing or expired counter starts from 0 and expires after
        `expires_in`, a live one keeps its expiry. A count never goes below 0."""
        async with self.sessionmaker() as db:
            while True:
                # A conditional update on the value read (compare and swap): a writer that
                # raced past us changed the row, so ours matches nothing and reads again.
                row = (
                    await db.execute(
                        select(KeyValue.value, KeyValue.expires_at).where(
                            KeyValue.namespace == self.namespace, KeyValue.key == key
                        )
                    )
                ).first()
                # End the read: SQLite cannot turn a read that another writer has since
                # overtaken into a write, so each write starts a transaction of its own.
                await db.rollback()
                if row is None:
                    count = max(0, amount)
                    if await self._insert_new(db, key, count, expires_in):
                        return count
                    continue
                old_value, old_expiry = row
                live = old_expiry is None or old_expiry > utcnow()
                count = max(0, (_as_count(old_value) if live else 0) + amount)
                result = await db.execute(
                    update(KeyValue)
                    .where(
                        KeyValue.namespace == self.namespace,
                        KeyValue.key == key,
                        KeyValue.value == old_value,
                        KeyValue.expires_at.is_(None)
                        if old_expiry is None
                        else KeyValue.expires_at == old_expiry,
                    )
                    .values(
                        value=str(count).encode(),
                        expires_at=old_expiry if live else _expiry(expires_in),
                    )
                )
                await db.commit()
                if getattr(result, "rowcount", 0) == 1:
                    return count

    async def _insert_new(
        self, db: AsyncSession, key: str, count: int, expires_in: int | timedelta | None
    ) -> bool:
        """Insert a first counter value; False when another writer inserted one first."""
        statement = insert_for(db, KeyValue).values(
            namespace=self.namespace,
            key=key,
            value=str(count).encode(),
            expires_at=_expiry(expires_in),
        )
        result = await db.execute(
            statement.on_conflict_do_nothing(index_elements=[KeyValue.namespace, KeyValue.key])
        )
        await db.commit()
        return bool(getattr(result, "rowcount", 0) == 1)

    async def get(self, key: str, renew_for: int | timedelta | None = None) -> bytes | None:
        """The live value under `key`, optionally pushing its expiry `renew_for` into the future."""
        if renew_for is None:
            async with self.sessionmaker() as db:
                return await self.get_in(db, key)
        async with self.sessionmaker() as db:
            entry = await db.scalar(
                select(KeyValue).where(*self._live(key)),
            )
            if entry is None:
                return None
            if renew_for is not None and entry.expires_at is not None:
                entry.expires_at = _expiry(renew_for)
                await db.commit()
            return entry.value

    async def get_in(self, db: AsyncSession, key: str) -> bytes | None:
        """The live value under `key`, read through `db` (a request's own session)."""
        value: bytes | None = await db.scalar(_VALUE, self.live_values(key))
        return value

    async def get_with_row(
        self,
        db: AsyncSession,
        key: str,
        model: type[Any],
        row_id: Any,
        companion: tuple[Select[Any], dict[str, Any]] | None = None,
    ) -> tuple[bytes | None, Any]:
        """The live value under `key` and, in the same statement, the `model` row of primary
        key `row_id` (None if there is none), loaded into `db`. The caller keeps the row while
        it needs `db.get` to find it: a session holds its rows only weakly. `companion`, a query
        and its values, is read in the same statement and kept in `db` for the request to take
        (db/prefetch.py)."""
        values = {**self.live_values(key), "row_id": row_id}
        statement, split = _value_with_row(model, None if companion is None else companion[0])
        if companion is not None:
            values.update(companion[1])
        # Straight through the driver on SQLite: every request but a known page's asks it.
        # Alone: on PostgreSQL no BEGIN for it (a save may need none: hosting/one_statement.py).
        found = (await send_in(db, statement, values, alone=True)).rows
        if not found:
            return None, None
        value, *columns = found[0][:split]
        # No row of that key: the outer join gives its every column as NULL.
        missing = all(column is None for column in columns)
        row = None if missing else loaded(db, model, columns)
        if companion is not None:
            # No row of the companion's: one row of NULLs (a query's rows have a column that
            # is never NULL, their key).
            rows = [tail[split:] for tail in found]
            kept = [] if all(cell is None for cell in rows[0]) else rows
            keep(db, companion[0], companion[1], kept)
        return cast(bytes, value), row

    async def delete(self, key: str) -> None:
        """Forget `key`; nothing happens if it is not there."""
        async with self.sessionmaker() as db:
            await db.execute(
                delete(KeyValue).where(KeyValue.namespace == self.namespace, KeyValue.key == key)
            )
            await db.commit()

    async def delete_all(self) -> None:
        """Forget every key of this namespace and of the namespaces nested in it."""
        async with self.sessionmaker() as db:
            await db.execute(
                delete(KeyValue).where(
                    or_(
                        KeyValue.namespace == self.namespace,
                        KeyValue.namespace.startswith(f"{self.namespace}.", autoescape=True),
                    )
                )
            )
            await db.commit()

    async def exists(self, key: str) -> bool:
        """Whether a live value is stored under `key`."""
        async with self.sessionmaker() as db:
            found = await db.scalar(select(KeyValue.key).where(*self._live(key)))
            return found is not None

    async def expires_in(self, key: str) -> int | None:
        """Seconds until `key` expires, or None if it never does or does not exist."""
        async with self.sessionmaker() as db:
            expires_at = await db.scalar(select(KeyValue.expires_at).where(*self._live(key)))
        if expires_at is None:
            return None
        return max(0, int((expires_at - utcnow()).total_seconds()))

    async def delete_expired(self) -> int:
        """Purge expired entries of every namespace; returns how many went."""
        async with self.sessionmaker() as db:
            result = await db.execute(
                delete(KeyValue).where(
                    KeyValue.expires_at.is_not(None), KeyValue.expires_at <= utcnow()
                )
            )
            await db.commit()
        return int(getattr(result, "rowcount", 0) or 0)

    def live_values(self, key: str) -> dict[str, Any]:
        """The values of the binds of a live value's read (`live_value_with`) under `key`."""
        return {"namespace": self.namespace, "key": key, "now": utcnow()}

    def _live(self, key: str) -> tuple[ColumnElement[bool], ...]:
        return (
            KeyValue.namespace == self.namespace,
            KeyValue.key == key,
            or_(KeyValue.expires_at.is_(None), KeyValue.expires_at > utcnow()),
        )


def _as_count(value: bytes) -> int:
    try:
        return int(value)
    except ValueError:
        return 0  # not a counter: count afresh


def _expiry(expires_in: int | timedelta | None) -> datetime | None:
    if expires_in is None:
        return None
    delta = expires_in if isinstance(expires_in, timedelta) else timedelta(seconds=expires_in)
    return utcnow() + delta
