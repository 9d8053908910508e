"""The columns many tables declare alike: an internal id, the Station game a row belongs to, a
time that defaults to the moment of the insert."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ForeignKey, Integer
from sqlalchemy.orm import MappedColumn, mapped_column

from deaddrop.server.db.base import UTCDateTime, utcnow


def internal_id() -> MappedColumn[Any]:
    """An integer primary key, `id`: the row's internal identifier."""
    return mapped_column(Integer, primary_key=True)


def station_game_id(*, index: bool = False) -> MappedColumn[Any]:
    """The Station game the row belongs to; deleting the game deletes the row."""
    return mapped_column(ForeignKey("station_games.id", ondelete="CASCADE"), index=index)


def now_by_default() -> MappedColumn[Any]:
    """An aware UTC time: the moment of the insert unless the writer gives one."""
    return mapped_column(UTCDateTime(), default=utcnow)
