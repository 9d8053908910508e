"""`station_bot_decisions`: each bot decision, claimed once per what the seat had seen."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.db.base import Base, UTCDateTime
from deaddrop.server.db.columns import internal_id, now_by_default, station_game_id

FINGERPRINT_SIZE = 64
"""A SHA-256 in hexadecimal."""


class StationBotDecision(Base):
    """One decision of one bot seat: unique per (game, day, seat, fingerprint of its input),
    so that several runners never decide the same thing twice."""

    __tablename__ = "station_bot_decisions"
    __table_args__ = (UniqueConstraint("game_id", "day", "seat", "fingerprint"),)

    id: Mapped[int] = internal_id()
    """Internal identifier."""
    game_id: Mapped[int] = station_game_id()
    """The game."""
    day: Mapped[int] = mapped_column(Integer)
    """The day decided on."""
    seat: Mapped[int] = mapped_column(Integer)
    """The bot's engine seat."""
    fingerprint: Mapped[str] = mapped_column(String(FINGERPRINT_SIZE))
    """SHA-256 of the input the bot saw (its view and readable posts); `deadline` for the
    last call before the Pouch."""
    runner: Mapped[str] = mapped_column(String(64))
    """Which runner claimed it (for operations)."""
    claimed_at: Mapped[datetime] = now_by_default()
    """When it was claimed: a claim older than the timeout, not done, may be taken over."""
    done_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """When its saves and posts were all applied; None while in progress (or crashed)."""
