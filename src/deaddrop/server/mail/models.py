"""The delivery ledger: one row per mail that is to go out, unique per (game, day, user, kind).

The row is written (claimed) and committed before the mail is sent, so a second mailer, or
this one after a restart, finds it and does not send again (see `deliveries.py`).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.db.base import Base, UTCDateTime
from deaddrop.server.db.columns import internal_id, now_by_default, station_game_id

DIGEST = "digest"
"""The kind of the mail sent when a Pouch departs."""
REMINDER = "reminder"
"""The kind of the mail sent before a deadline."""

SENDING = "sending"
"""Claimed by a mailer that is sending it now (or died doing so: see the lease)."""
SENT = "sent"
"""The SMTP server accepted it."""
RETRY = "retry"
"""The last attempt failed; another is due at `next_attempt_at`."""
FAILED = "failed"
"""Every attempt failed; nobody tries again."""
DROPPED = "dropped"
"""No longer worth sending when its turn came (opted out, no address, the day moved on)."""


class MailDelivery(Base):
    """One mail to one person about one day of one game, and how its sending went."""

    __tablename__ = "mail_deliveries"
    __table_args__ = (
        UniqueConstraint("game_id", "day", "user_id", "kind"),
        Index("ix_mail_deliveries_status_next_attempt_at", "status", "next_attempt_at"),
    )

    id: Mapped[int] = internal_id()
    """Internal identifier."""
    game_id: Mapped[int] = station_game_id()
    """The game the mail is about."""
    day: Mapped[int] = mapped_column(Integer)
    """The day: the Pouch that departed (digest), or the day that is running out (reminder)."""
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    """Who it goes to (the address is read from the account when sending)."""
    kind: Mapped[str] = mapped_column(String(10))
    """digest or reminder."""
    status: Mapped[str] = mapped_column(String(10))
    """sending, sent, retry, failed or dropped (the constants above)."""
    attempts: Mapped[int] = mapped_column(Integer, default=1)
    """How many times a mailer has claimed it to send; each claim is one attempt."""
    claimed_by: Mapped[str] = mapped_column(String(64))
    """The mailer (host:pid) that holds or last held the claim."""
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime())
    """When the current attempt began; a `sending` row older than the lease was abandoned."""
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """While `retry`: when to try again."""
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """When the SMTP server accepted it."""
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    """Why the last attempt failed or the mail was dropped (for operations)."""
    created_at: Mapped[datetime] = now_by_default()
    """When it was first claimed (wall-clock time)."""
