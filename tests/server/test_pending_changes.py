"""A session's pending ORM changes, asked without SQLAlchemy's sets (db/pending.py): the same
answers as `Session.new`, `.deleted` and `.dirty` in every state a save meets."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import configure_mappers
from sqlalchemy.orm.attributes import instance_state

from deaddrop.server.accounts.models import User
from deaddrop.server.db.pending import has_changes, has_changes_besides
from deaddrop.server.db.raw_rows import columns_of, loaded

NOW = datetime(2026, 12, 7, tzinfo=UTC)


def stored_user(db: AsyncSession, key: int) -> User:
    """A persistent account, as a request's first read leaves it in the session."""
    configure_mappers()  # as a first query would: the attributes' instrumentation
    values = {
        "id": key,
        "username": f"agent{key}",
        "display_name": f"Agent {key}",
        "email": None,
        "mail_digests": False,
        "mail_reminders": False,
        "time_zone": "UTC",
        "password_hash": "x",
        "auth_epoch": 0,
        "guest": False,
        "created_at": NOW,
        "updated_at": NOW,
    }
    return loaded(db, User, [values[column.name] for column in columns_of(User)])


def public_answers(db: AsyncSession, row: object) -> tuple[bool, bool]:
    """What SQLAlchemy's own sets say: any change; any change but `row`'s."""
    anything = bool(db.new or db.deleted or db.dirty)
    besides = bool(db.new or db.deleted or any(other is not row for other in db.dirty))
    return anything, besides


def nothing(db: AsyncSession, row: User, other: User) -> None:
    """A session that only read its rows."""


def the_row_changed(db: AsyncSession, row: User, other: User) -> None:
    row.auth_epoch += 1


def another_row_changed(db: AsyncSession, row: User, other: User) -> None:
    other.display_name = "Someone else"


def both_changed(db: AsyncSession, row: User, other: User) -> None:
    row.auth_epoch += 1
    other.display_name = "Someone else"


def set_to_the_same_value(db: AsyncSession, row: User, other: User) -> None:
    # Marked modified though nothing differs: `dirty` lists it, and so must these.
    row.auth_epoch = row.auth_epoch


def a_new_row(db: AsyncSession, row: User, other: User) -> None:
    db.add(User(username="new", display_name="New", password_hash="x"))


def a_deleted_row(db: AsyncSession, row: User, other: User) -> None:
    db.sync_session._deleted[instance_state(other)] = other  # as `delete` leaves it


def the_row_deleted_after_a_change(db: AsyncSession, row: User, other: User) -> None:
    row.auth_epoch += 1
    db.sync_session._deleted[instance_state(row)] = row


@pytest.mark.parametrize(
    "change",
    [
        nothing,
        the_row_changed,
        another_row_changed,
        both_changed,
        set_to_the_same_value,
        a_new_row,
        a_deleted_row,
        the_row_deleted_after_a_change,
    ],
)
def test_pending_changes_answer_as_sqlalchemys_sets(
    change: Callable[[AsyncSession, User, User], None],
) -> None:
    db = AsyncSession()
    row, other = stored_user(db, 1), stored_user(db, 2)
    change(db, row, other)
    assert (has_changes(db), has_changes_besides(db, row)) == public_answers(db, row)


def test_a_session_that_only_read_has_no_changes() -> None:
    db = AsyncSession()
    row = stored_user(db, 1)
    assert not has_changes(db) and not has_changes_besides(db, row)
    row.display_name = "Changed"
    assert has_changes(db) and not has_changes_besides(db, row)
