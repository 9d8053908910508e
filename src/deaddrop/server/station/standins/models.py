"""`station_standin_options` (a game's auto-pilot setting) and `station_standins` (each time a
bot stood in for a person, and when they came back)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.db.base import Base, UTCDateTime
from deaddrop.server.db.columns import internal_id, now_by_default, station_game_id


class StationStandInOption(Base):
    """A game's auto-pilot: a bot plays for anyone who has saved nothing `hours` before the
    Pouch. No row: off (the default)."""

    __tablename__ = "station_standin_options"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("station_games.id", ondelete="CASCADE"), primary_key=True
    )
    """The game."""
    hours: Mapped[int] = mapped_column(Integer)
    """How long before the Pouch a seat with nothing saved today gets a stand-in."""
    level: Mapped[str] = mapped_column(String(16))
    """The stand-in's bot level (random, heuristic, expert)."""


class StationStandIn(Base):
    """One stand-in: a bot played a person's seat from `from_day` until they came back.

    Unique per (game, seat, day it started), so that runners in several processes start it
    once, and a person who took their seat back is not stood in again the same day."""

    __tablename__ = "station_standins"
    __table_args__ = (UniqueConstraint("game_id", "seat", "from_day"),)

    id: Mapped[int] = internal_id()
    """Internal identifier."""
    game_id: Mapped[int] = station_game_id()
    """The game."""
    seat: Mapped[int] = mapped_column(Integer)
    """The engine seat stood in for."""
    level: Mapped[str] = mapped_column(String(16))
    """The bot's level (S42: public, as every bot seat's)."""
    from_day: Mapped[int] = mapped_column(Integer)
    """The day it began."""
    back_day: Mapped[int | None] = mapped_column(Integer, default=None)
    """The day the person came back (or lost the seat); None while the bot still plays."""
    started_at: Mapped[datetime] = now_by_default()
    """When it began."""
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """When it ended; None while the bot still plays."""
