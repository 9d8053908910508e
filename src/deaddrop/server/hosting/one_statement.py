"""A save's writes in one statement on PostgreSQL: the game row's versioned UPDATE, the log's
inserts and the journal's numbered rows, as data-modifying CTEs of one `WITH … SELECT`; or a
post's: the message inserted and its journal rows, its id written into their payloads.

A vote sent them as five round trips (BEGIN, the game row, the action, the journal row,
COMMIT), each costing the event loop's thread more than PostgreSQL's work on it. One statement
is atomic by itself (its implicit transaction), so sent alone it needs no BEGIN and no COMMIT.
The inserts read from the row's UPDATE (`FROM saved_row`): when another writer moved the
version on, the UPDATE matches nothing and nothing is inserted; a journal seq another writer
took breaks the unique key and nothing is stored. Either way the caller sees a lost race, as
with the statements one by one. SQLite cannot write in a CTE: it keeps those.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    String,
    Table,
    and_,
    bindparam,
    cast,
    func,
    insert,
    inspect,
    literal,
    literal_column,
    select,
    union_all,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB

from deaddrop.engine.core.events import Event
from deaddrop.server.db.base import Base, UTCDateTime
from deaddrop.server.db.versioned import changed_names
from deaddrop.server.live import journal


@functools.cache
def one_write(
    model: type[Base],
    names: tuple[str, ...],
    inserts: tuple[tuple[Table, tuple[str, ...]], ...],
    events: int,
) -> Any:
    """`WITH saved_row AS (UPDATE … RETURNING key), insert_N AS (INSERT … SELECT … FROM
    saved_row), journaled AS (INSERT … RETURNING seq) SELECT written, seq`: the row of `model`
    with `names` changed (values `row_<name>`, `_key`, `_old`, `_new`), the inserts' columns
    (values `insert_<N>_<column>`) and `events` journal rows (`journal.numbered_values`). Built
    once per shape, so that the driver compiles it once too."""
    mapper: Any = inspect(model)
    key, version = mapper.primary_key[0], mapper.version_id_col
    values: dict[str, Any] = {name: bindparam(f"row_{name}") for name in names}
    values[version.name] = bindparam("_new")
    saved = (
        update(mapper.local_table)
        .where(and_(key == bindparam("_key"), version == bindparam("_old")))
        .values(values)
        .returning(key)
        .cte("saved_row")
    )
    added = []
    for number, (table, columns) in enumerate(inserts):
        row = select(
            *(bindparam(f"insert_{number}_{name}", type_=table.c[name].type) for name in columns)
        ).select_from(saved)
        added.append(insert(table).from_select(columns, row).cte(f"insert_{number}"))
    written = select(func.count()).select_from(saved).scalar_subquery().label("written")
    if events:
        journaled = journal.numbered_insert(events, saved).cte("journaled")
        seq = select(func.max(journaled.c.seq)).scalar_subquery().label("seq")
    else:
        seq = literal(0).label("seq")
    return select(written, seq).add_cte(*added)


def one_write_values(
    model: type[Base],
    params: dict[str, Any],
    inserts: Sequence[tuple[Table, dict[str, Any]]],
    stream: str,
    events: Sequence[Any],
) -> tuple[Any, dict[str, Any]] | None:
    """The statement of `one_write` for these writes and its values (`params`: the versioned
    UPDATE's values of a `model` row, as db/versioned.py gives them); None when the journal
    rows are too many for one insert."""
    if len(events) > journal.NUMBERED_AT_ONCE:
        return None
    names = changed_names(params)
    values = {f"row_{name}": params[name] for name in names}
    values.update(_key=params["_key"], _old=params["_old"], _new=params["_new"])
    shapes = []
    for number, (table, row_values) in enumerate(inserts):
        shapes.append((table, tuple(row_values)))
        values.update({f"insert_{number}_{name}": v for name, v in row_values.items()})
    if events:
        values.update(journal.numbered_values(stream, events))
    return one_write(model, names, tuple(shapes), len(events)), values


@functools.cache
def one_insert(inserting: Any, events: int, keyed: str) -> Any:
    """`WITH inserted AS (INSERT … RETURNING key), journaled AS (INSERT INTO the journal …
    SELECT … FROM inserted RETURNING seq) SELECT key, seq`: the row `inserting` inserts (its
    own values; its key the first column it returns), then `events` journal rows numbered
    after the stream's maximum (values `journal_stream`, `journal_created_at` and per row
    `journal_kind_N`, …: `one_insert_values`, named apart from the row's own), each payload
    with `keyed` set to the new row's key. No row inserted: none journaled, and the key is
    NULL. Built once per statement and shape."""
    assert keyed.isidentifier()  # a name of the code's, written into the SQL
    inserted = inserting.cte("inserted")
    key = next(iter(inserted.c))
    stream = bindparam("journal_stream", type_=String)
    newest = select(func.coalesce(func.max(journal.JOURNAL.c.seq), 0))
    last = newest.where(journal.JOURNAL.c.stream == stream).scalar_subquery()
    rows = []
    for number in range(1, events + 1):
        payload = cast(bindparam(f"journal_payload_{number}", type_=JSON), JSONB).op("||")(
            func.jsonb_build_object(literal_column(f"'{keyed}'"), key)
        )
        rows.append(
            select(
                stream,
                last + number,
                bindparam(f"journal_kind_{number}", type_=String),
                bindparam(f"journal_public_{number}", type_=Boolean),
                bindparam(f"journal_seats_{number}", type_=JSON),
                cast(payload, JSON),
                bindparam("journal_created_at", type_=UTCDateTime()),
            ).select_from(inserted)
        )
    source = rows[0] if events == 1 else union_all(*rows)
    journaled = (
        insert(journal.JOURNAL)
        .from_select(journal.NUMBERED_COLUMNS, source)
        .returning(journal.JOURNAL.c.seq)
    ).cte("journaled")
    return select(
        select(key).scalar_subquery().label("key"),
        select(func.max(journaled.c.seq)).scalar_subquery().label("seq"),
    )


def one_insert_values(stream: str, events: Sequence[Event]) -> dict[str, Any]:
    """The journal's values of `one_insert` for `events` of `stream`."""
    values = journal.numbered_values(stream, events)
    return {f"journal_{name}": value for name, value in values.items()}
