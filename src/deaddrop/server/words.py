"""Counts in words for the pages: "1 player", "6 players"."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and `noun`, the noun plural unless the count is one: the `counted` filter."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {plural or noun + 's'}"
