"""The event journal: every live event of every game, with its audience and sequence."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.db.base import Base, UTCDateTime, utcnow

STREAM_MAX = 64


class LiveEvent(Base):
    """One event of one stream (a game), numbered 1, 2, 3 … within the stream."""

    __tablename__ = "live_events"
    __table_args__ = (
        UniqueConstraint("stream", "seq"),
        # A page counts a stream's public events from this index alone (tabs/positions.py).
        Index("ix_live_events_stream_public_seq", "stream", "public", "seq"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    """Row id."""
    stream: Mapped[str] = mapped_column(String(STREAM_MAX))
    """Which game: e.g. `station:<public id>` or `cards:<public id>`."""
    seq: Mapped[int] = mapped_column(Integer)
    """Position in the stream; the SSE event id."""
    kind: Mapped[str] = mapped_column(String(40))
    """The engine's (or the server's) event kind, e.g. `vote`, `morning_cable`, `message`."""
    public: Mapped[bool] = mapped_column(Boolean)
    """Whether everyone who may read the game (spectators too) may see it."""
    seats: Mapped[list[int]] = mapped_column(JSON, default=list)
    """When not public: exactly the seats that may see it."""
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """JSON-ready details; only the audience may see them."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    """When it was journaled."""
