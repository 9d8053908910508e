"""Whether a database session holds ORM changes its next flush would write, asked without the
sets SQLAlchemy builds to answer it.

A save asks three times whether its session holds anything beyond the row it writes itself
(hosting/transaction.py): `Session.new`, `.deleted` and `.dirty` each build an `IdentitySet`
of the objects (and `AsyncSession` adds a proxy's call to each), where the session's own
records of them answer as well: its new and deleted objects by state, and the identity map's
modified states, which `dirty` lists less those deleted.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession


def has_changes(db: AsyncSession) -> bool:
    """Whether `db` holds a new, deleted or modified object (`db.new or db.deleted or
    db.dirty`)."""
    session = db.sync_session
    return bool(session._new or session._deleted or session.identity_map._modified)


def has_changes_besides(db: AsyncSession, row: object) -> bool:
    """Whether `db` holds a new or deleted object, or a modified one other than `row`."""
    session = db.sync_session
    if session._new or session._deleted:
        return True
    return any(state.obj() is not row for state in session.identity_map._modified)
