"""The `station_tab_seen` table: how far into a game's journal a player has looked, per tab."""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.db.base import Base

TAB_NAME_MAX = 16


class StationTabSeen(Base):
    """The journal position a player's last look at one tab of one game reached."""

    __tablename__ = "station_tab_seen"
    __table_args__ = (UniqueConstraint("game_id", "user_id", "tab"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    """Internal identifier."""
    game_id: Mapped[int] = mapped_column(ForeignKey("station_games.id", ondelete="CASCADE"))
    """The game."""
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    """The person (not the seat: a newcomer to a handed-over seat starts with all of it new)."""
    tab: Mapped[str] = mapped_column(String(TAB_NAME_MAX))
    """The tab's name, e.g. "floor"."""
    seq: Mapped[int] = mapped_column(Integer, default=0)
    """The newest journal sequence number shown to them on that tab; only ever grows."""
