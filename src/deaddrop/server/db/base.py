"""The declarative base every table derives from, and the aware-UTC timestamp type."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, MetaData
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

# Named constraints keep Alembic migrations identical on SQLite and PostgreSQL, and let batch
# mode on SQLite find a constraint to drop.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Base class of every Dead Drop table."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def utcnow() -> datetime:
    """The current time, aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back aware (SQLite forgets the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Refuse naive datetimes: a naive time is a bug, not a UTC time."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given where an aware UTC time is required")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        """Attach UTC to what SQLite returns naive; convert what PostgreSQL returns."""
        if not isinstance(value, datetime):
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def bind_processor(self, dialect: Dialect) -> Callable[[Any], Any] | None:
        """On SQLite, an aware time written straight as its UTC text (`utc_to_text`);
        elsewhere `process_bind_param` and then SQLAlchemy's writing."""
        generic = super().bind_processor(dialect)
        if dialect.name != "sqlite" or generic is None:
            return generic
        return utc_to_text(generic)

    def result_processor(
        self, dialect: Dialect, coltype: Any
    ) -> Callable[[Any], datetime | None] | None:
        """On SQLite, its stored text read straight into an aware UTC time (`utc_from_text`);
        elsewhere SQLAlchemy's reading and then `process_result_value`."""
        generic = super().result_processor(dialect, coltype)
        if dialect.name != "sqlite" or generic is None:
            return generic
        return utc_from_text(generic)


def utc_to_text(generic: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A writer of an aware time as the text SQLAlchemy stores on SQLite for its UTC moment
    ("2026-12-07 02:50:41.300453"); None, a naive time (refused there) or anything else goes
    to `generic`, as before.

    SQLAlchemy's writing (`process_bind_param`, then seven fields formatted with `%` from a
    mapping) cost some 13,000 instructions a time, as does `isoformat`, and a save writes four
    or five times of the same second (its log entry, its journal rows, the game's row, the
    session's expiry check). The text of the last second written is kept: the rest is its
    microseconds (5,500 instructions in all)."""
    last: list[tuple[tuple[int, ...], str]] = [((), "")]
    """The last second's fields and text, as one tuple (swapped whole: threads write too)."""

    def write(value: Any) -> Any:
        if type(value) is not datetime or value.tzinfo is None:
            return generic(value)
        moment = value.astimezone(UTC)
        second = (
            moment.year,
            moment.month,
            moment.day,
            moment.hour,
            moment.minute,
            moment.second,
        )
        known, text = last[0]
        if known != second:
            text = "{:04d}-{:02d}-{:02d} {:02d}:{:02d}:{:02d}.".format(*second)
            last[0] = (second, text)
        # `%` costs 1,200 instructions less than a format spec here.
        return text + "%06d" % moment.microsecond  # noqa: UP031

    return write


def utc_from_text(generic: Callable[[Any], datetime | None]) -> Callable[[Any], datetime | None]:
    """A reader of SQLite's stored time text ("2026-12-07 02:50:41.300453", always UTC) as an
    aware UTC time in one parse: SQLAlchemy's parse then `replace(tzinfo=UTC)` cost ten times
    as much (the `replace` alone 3% of a vote's instructions). Any other text, or a value not
    text, goes to `generic`, SQLAlchemy's way, which reads it as before."""
    parse = datetime.fromisoformat

    def read(value: Any) -> datetime | None:
        if value is None:
            return None
        try:
            # A zero offset parses to `UTC` itself. A text with an offset of its own or a
            # value not text fails here, a date alone parses naive: read the generic way.
            found = parse(value + "+00:00")
        except (TypeError, ValueError):
            return generic(value)
        return found if found.tzinfo is UTC else generic(value)

    return read
