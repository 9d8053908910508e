"""Reads a request's database session did ahead of its handler, kept for the handler to take.

The session middleware reads the session's row and the signed-in account's row in one
statement (db/store.py, server/sessions.py). A route may name a companion read (`Companion`,
in its handler's `opt` under `PREFETCH_KEY`): a query of its own that every request of that
route sends first thing, such as a game with the person's seat in it. It is then read in that
same statement, one round trip instead of two, and kept in the request's database session under
the query and its values; `send_in` (db/driver.py) answers the same query with the same values
from it, once. What is kept is what the query would have read a moment later, in the same
snapshot as the session's row; a second asking reads afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncSession

PREFETCH_KEY = "prefetch"
"""A route handler's `opt` key: its `Companion`."""
_KEPT = "deaddrop.prefetched"


@dataclass(frozen=True)
class Companion:
    """A query a route's requests send first, read with the session's own row."""

    statement: Select[Any]
    """The query: its own columns, values from its binds only (no column of the outer query)."""
    values: Callable[[Mapping[str, Any], Any], dict[str, Any] | None]
    """Its binds' values from the request's path parameters and the signed-in row's id; None
    when this request would not send it (a malformed path parameter)."""

    def __deepcopy__(self, _memo: dict[int, Any]) -> Companion:
        """Itself: Litestar copies a route handler's `opt` deeply, and the kept rows are found
        by this very statement."""
        return self


def companion_of(opt: Mapping[str, Any]) -> Companion | None:
    """The companion read a route handler's `opt` names, if any."""
    found = opt.get(PREFETCH_KEY)
    return found if isinstance(found, Companion) else None


def _key(statement: Any, values: Mapping[str, Any]) -> tuple[Any, ...]:
    return (statement, tuple(sorted(values.items())))


def keep(
    db: AsyncSession, statement: Any, values: Mapping[str, Any], rows: list[tuple[Any, ...]]
) -> None:
    """Keep `rows`, what `statement` with `values` reads now, for the request to take once."""
    db.info.setdefault(_KEPT, {})[_key(statement, values)] = rows


def take(
    db: AsyncSession, statement: Any, values: Mapping[str, Any]
) -> list[tuple[Any, ...]] | None:
    """The rows kept for `statement` with exactly `values`, forgotten as they are given; None
    when none are kept (the caller reads)."""
    kept = db.info.get(_KEPT)
    if not kept:
        return None
    try:
        return kept.pop(_key(statement, values))  # type: ignore[no-any-return]
    except (KeyError, TypeError):  # none kept, or a value that is no key (a list)
        return None
