"""Chat messages of a Station game: the Floor, the Ring Channel, the Archive, interrogations.

Whispers are not here: they are engine actions (S31), stored in the game's action log.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.db.base import Base
from deaddrop.server.db.columns import internal_id, now_by_default, station_game_id


class StationMessage(Base):
    """One message posted in one channel of one game."""

    __tablename__ = "station_messages"
    __table_args__ = (
        Index("ix_station_messages_game_channel_id", "game_id", "channel", "id"),
        Index("ix_station_messages_game_seat_created", "game_id", "seat", "created_at"),
    )

    id: Mapped[int] = internal_id()
    """Row id; also the order of messages and the paging cursor."""
    game_id: Mapped[int] = station_game_id()
    """The game."""
    channel: Mapped[str] = mapped_column(String(16))
    """The engine's `Channel` value: floor, ring, archive, interrogation."""
    day: Mapped[int] = mapped_column(Integer)
    """The day it was posted (an interrogation chat belongs to one day, S14)."""
    seat: Mapped[int] = mapped_column(Integer)
    """The author's seat (the codename is the engine's)."""
    text: Mapped[str] = mapped_column(Text)
    """Plain text as posted, at most 2,000 characters (escaped when shown)."""
    created_at: Mapped[datetime] = now_by_default()
    """When it was posted (the game clock's time)."""
