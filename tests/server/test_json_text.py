"""A JSON column's text (db/json_text.py): written compact by msgspec, read back as the value
written, on SQLite and PostgreSQL; text written the old way (`json.dumps`) reads alike."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import cast, func, insert, select, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.types import Text

from deaddrop.server.db.json_text import json_text
from deaddrop.server.live.models import LiveEvent

RunDb = Callable[[Callable[[AsyncSession], Awaitable[Any]]], Any]
EVENTS = LiveEvent.metadata.tables[LiveEvent.__tablename__]
PAYLOAD = {"text": 'سلام – hello "quoted"\n', "seats": [2, 0], "n": 2**70, "f": 1.5, "x": None}


@pytest.mark.parametrize(
    "value",
    [PAYLOAD, [], {}, [1, "a", None, True, False], {"nested": {"deep": [{"k": "v"}]}}, "plain"],
)
def test_the_text_reads_back_as_the_value_and_as_json_dumps_reads(value: Any) -> None:
    written = json_text(value)
    assert json.loads(written) == json.loads(json.dumps(value)) == value
    assert ", " not in written.replace(", hello", "") and "\\u" not in written  # compact, UTF-8


def test_tuples_and_number_keys_are_written_as_json_dumps_writes_them() -> None:
    value = {"pair": (1, 2), 3: "three"}
    assert (
        json.loads(json_text(value))
        == json.loads(json.dumps(value))
        == {
            "pair": [1, 2],
            "3": "three",
        }
    )


def test_a_value_json_cannot_hold_is_refused() -> None:
    with pytest.raises(TypeError):
        json_text({"when": object()})


def test_a_json_column_stores_the_compact_text_and_reads_the_value(run_db: RunDb) -> None:
    async def write_and_read(db: AsyncSession) -> tuple[Any, Any, Any]:
        row = {"stream": "test:json", "kind": "post", "public": True, "seats": [2, 0]}
        await db.execute(insert(EVENTS).values(seq=1, payload=PAYLOAD, **row))
        # A row written the old way (spaces, \u escapes), straight into the column.
        old = json.dumps(PAYLOAD)
        await db.execute(insert(EVENTS).values(seq=2, payload=None, **row))
        await db.execute(
            text("UPDATE live_events SET payload = :old WHERE stream = 'test:json' AND seq = 2")
            if db.get_bind().dialect.name == "sqlite"
            else text(
                "UPDATE live_events SET payload = CAST(:old AS JSON) "
                "WHERE stream = 'test:json' AND seq = 2"
            ),
            {"old": old},
        )
        await db.commit()
        read = (
            await db.scalars(
                select(EVENTS.c.payload).where(EVENTS.c.stream == "test:json").order_by("seq")
            )
        ).all()
        stored = await db.scalar(
            select(cast(EVENTS.c.payload, Text)).where(
                EVENTS.c.stream == "test:json", EVENTS.c.seq == 1
            )
        )
        length = await db.scalar(select(func.count()).select_from(EVENTS))
        return read, stored, length

    read, stored, length = run_db(write_and_read)
    assert read == [PAYLOAD, PAYLOAD] and length >= 2
    assert json.loads(stored) == PAYLOAD and "سلام" in stored
