"""ORM objects made from a row's values, as the ORM's own loading makes them.

A request's first reads (the session with its account, a game with the person's seat) go
straight through SQLite's driver (db/driver.py); their rows become the session's persistent
objects here, so that the handler, `db.get` and a later flush see exactly what an ORM query
would have given them, without the ORM's execution around a query.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeVar

from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import instance_state

from deaddrop.server.db.base import Base

M = TypeVar("M", bound=Base)


def columns_of(model: type[Base]) -> list[Any]:
    """The columns of `model`'s table in the order `loaded` reads a row of it."""
    return list(_layout(model)[1])


@functools.cache
def _layout(model: type[Base]) -> tuple[Any, tuple[Any, ...], tuple[str, ...], tuple[int, ...]]:
    """The model's mapper, its table's columns, the attribute each is mapped to, and where the
    primary key's columns are among them (looked up once: a mapper's lookups cost a save 2%)."""
    mapper: Any = inspect(model)
    columns = tuple(mapper.local_table.c)
    keys = tuple(mapper.get_property_by_column(column).key for column in columns)
    primary = tuple(columns.index(column) for column in mapper.primary_key)
    return mapper, columns, keys, primary


def loaded(db: AsyncSession, model: type[M], values: Sequence[Any]) -> M:
    """The persistent `model` object of a row of its columns (`columns_of` order, values as
    SQLAlchemy reads them); the session's own object when it already holds that row."""
    mapper, _columns, keys, primary = _layout(model)
    identity = mapper.identity_key_from_primary_key([values[index] for index in primary])
    held = db.sync_session.identity_map.get(identity)
    if held is not None:
        return held  # type: ignore[no-any-return]
    # As the ORM's loader makes a row's object (sqlalchemy/orm/loading.py `_instance`): a new
    # instance, its values the stored ones, its key its row's, in the session's identity map.
    # `make_transient_to_detached` and `Session.add` did the same through the session's
    # cascade and events (none listen), at twice the cost: a save makes three of these.
    made: M = mapper.class_manager.new_instance()
    state = instance_state(made)
    state.dict.update(zip(keys, values, strict=True))
    state.key = identity
    session = db.sync_session
    state.session_id = session.hash_key
    session.identity_map._add_unpresent(state, identity)
    return made


def kept(db: AsyncSession, model: type[M], key: Any) -> M | None:
    """The `model` row of primary key `key` when `db` already holds it loaded and current (as
    `loaded` leaves the session's account): what `db.get` answers then, without the greenlet
    SQLAlchemy's async session spends to ask (4% of a vote's Python time); None otherwise,
    for `db.get` to answer (an expired row is read again, a deleted one is not found)."""
    mapper = _layout(model)[0]
    held = db.sync_session.identity_map.get(mapper.identity_key_from_primary_key([key]))
    if held is None:
        return None
    state = instance_state(held)
    if state.expired_attributes or state.deleted or state.was_deleted:
        return None
    return held  # type: ignore[no-any-return]


def renewable(row: Base) -> bool:
    """Whether `renew` may write stored values into the row's object: it is persistent and
    holds no change or expired attribute of its own (only the ORM's refresh settles those)."""
    state = instance_state(row)
    return not (state.key is None or state.modified or state.expired_attributes or state.deleted)


def renew(row: Base, values: Sequence[Any]) -> None:
    """Write a row's stored values (`columns_of` order, as SQLAlchemy reads them) into its
    `renewable` object, as `Session.refresh` would."""
    _mapper, _columns, keys, _primary = _layout(type(row))
    instance_state(row).dict.update(zip(keys, values, strict=True))
