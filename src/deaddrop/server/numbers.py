"""Whole numbers from a request (form and JSON fields, query and path parameters), bounded.

Every number a request sends is read here, so none reaches the database past the range of its
columns: SQLite stores 64-bit integers, PostgreSQL's INTEGER only 32 bits, and a value past
either makes the driver fail (a 500) instead of the query simply finding nothing.
"""

from __future__ import annotations

from deaddrop.server.errors import BadInput

DB_INT_MAX = 2**31 - 1
"""The largest value an INTEGER column holds on PostgreSQL: every id, version and count."""
_MAX_DIGITS = len(str(DB_INT_MAX)) + 1
"""Longer digit strings are out of range; `int()` is never asked to read thousands of digits."""


class BadNumber(BadInput):
    """A number that is malformed or out of range; the detail says which field and what fits."""


def whole_number(raw: str, name: str, *, low: int = 0, high: int = DB_INT_MAX) -> int:
    """`raw` as an integer from `low` to `high`, or BadNumber (a 400) naming `name`."""
    text = raw.strip()
    digits = text[1:] if text.startswith("-") else text
    # ASCII only: int() would also read other scripts' digits ("٣") and underscores ("1_0").
    if not (digits.isascii() and digits.isdigit()) or len(digits) > _MAX_DIGITS:
        raise BadNumber(_out_of_range(name, low, high))
    value = int(text)
    if not low <= value <= high:
        raise BadNumber(_out_of_range(name, low, high))
    return value


def optional_number(
    raw: str | None, name: str, *, low: int = 0, high: int = DB_INT_MAX
) -> int | None:
    """Like `whole_number`, but a missing or empty value is None."""
    if raw is None or not raw.strip():
        return None
    return whole_number(raw, name, low=low, high=high)


def _out_of_range(name: str, low: int, high: int) -> str:
    return f"“{name}” must be a whole number from {low:,} to {high:,}."
