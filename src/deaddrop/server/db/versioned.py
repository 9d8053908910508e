"""Many changed rows of one versioned table written with a few executemany UPDATEs.

The ORM writes each row under a `version_id_col` with an UPDATE of its own (it must read each
rowcount); a batch of hundreds of game rows then costs as many round trips. Here the rows'
changed columns go in one UPDATE per set of changed columns, each row still conditional on the
version read, and a lost race still refuses the whole write.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, bindparam, inspect, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.server.db.base import Base


async def update_versioned(db: AsyncSession, rows: Sequence[Base], *, locked: bool) -> None:
    """Write the changed columns of `rows` (one versioned model) in `db`'s transaction, each
    only if its version is still the one read (else `StaleDataError`), and let the session
    forget them. `locked`: this transaction holds the rows' locks (`FOR UPDATE`), so where the
    driver cannot count an executemany's rows (asyncpg) no other writer can have moved them."""
    if not rows:
        return
    mapper: Any = inspect(type(rows[0]))  # typed loosely: any versioned model
    version = mapper.version_id_col
    key = mapper.primary_key[0]
    # Compared by name: `==` on a Column builds an SQL expression (slowly), not a bool.
    columns = {
        prop.key: prop.columns[0].name
        for prop in mapper.column_attrs
        if prop.columns[0].name not in (key.name, version.name)
    }
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        state = inspect(row)
        # The attributes set since the load (their history would compare every JSON value).
        changed = {
            columns[name]: state.dict[name] for name in state.committed_state if name in columns
        }
        old = getattr(row, mapper.get_property_by_column(version).key)
        params = {
            **changed,
            "_key": mapper.primary_key_from_instance(row)[0],
            "_old": old,
            version.name: old + 1,
        }
        groups[tuple(sorted(changed))].append(params)
    counted = (await db.connection()).dialect.supports_sane_multi_rowcount
    with db.no_autoflush:  # the ORM must not write these rows itself first
        for group in groups.values():
            statement = (
                update(mapper.local_table)
                .where(and_(key == bindparam("_key"), version == bindparam("_old")))
                .values({name: bindparam(name) for name in group[0] if name[0] != "_"})
            )
            written = int(getattr(await db.execute(statement, group), "rowcount", -1))
            if (counted or not locked) and written != len(group):
                raise StaleDataError(f"{written} of {len(group)} rows written: changed meanwhile")
    for row in rows:
        db.expunge(row)
