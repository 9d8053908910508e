"""A small key-value table with expiry: the backing of server-side sessions and throttles."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.db.base import Base, UTCDateTime


class KeyValue(Base):
    """One stored value under (namespace, key); expired rows are ignored, then purged."""

    __tablename__ = "kv_entries"
    __table_args__ = (Index("ix_kv_entries_expires_at", "expires_at"),)

    namespace: Mapped[str] = mapped_column(String(40), primary_key=True)
    """Which store the entry belongs to, e.g. `sessions`."""
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    """The store's own key, e.g. a session ID."""
    value: Mapped[bytes] = mapped_column(LargeBinary)
    """The opaque stored bytes."""
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When the entry stops existing; never, if null."""
