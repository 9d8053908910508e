"""`station_bot_pending_posts`: a bot's post the chat's rate limit refused, to try again."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.db.base import Base
from deaddrop.server.db.columns import internal_id, now_by_default, station_game_id


class StationBotPendingPost(Base):
    """One bot post waiting for the rate limit to let it through (issue 14)."""

    __tablename__ = "station_bot_pending_posts"
    __table_args__ = (Index("ix_station_bot_pending_posts_game_id", "game_id"),)

    id: Mapped[int] = internal_id()
    """Internal identifier; its order is the order the bot meant to post in."""
    game_id: Mapped[int] = station_game_id()
    """The game."""
    seat: Mapped[int] = mapped_column(Integer)
    """The bot's engine seat."""
    channel: Mapped[str] = mapped_column(String(16))
    """The channel it was meant for (floor, ring)."""
    text: Mapped[str] = mapped_column(Text)
    """What the bot wrote."""
    created_at: Mapped[datetime] = now_by_default()
    """When it was first refused."""
