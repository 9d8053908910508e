"""The `users` table."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.accounts import limits
from deaddrop.server.db.base import Base, UTCDateTime, utcnow
from deaddrop.server.db.columns import internal_id, now_by_default


class User(Base):
    """A person with an account; in games they appear under a codename, not this name."""

    __tablename__ = "users"

    id: Mapped[int] = internal_id()
    """Stable internal identifier."""
    username: Mapped[str] = mapped_column(String(limits.USERNAME_MAX), unique=True)
    """Log-in name, stored lower case so that `Alice` and `alice` are one account."""
    display_name: Mapped[str] = mapped_column(String(limits.DISPLAY_NAME_MAX))
    """What friends see in lobbies; free text, always escaped on output."""
    email: Mapped[str | None] = mapped_column(String(limits.EMAIL_MAX), default=None)
    """Optional; the mails below go here. Never shown to other players."""
    mail_digests: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Opted in to a short public digest whenever a Pouch of one of their games departs."""
    mail_reminders: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Opted in to a reminder before a deadline when nothing is saved for the day yet."""
    time_zone: Mapped[str] = mapped_column(String(limits.TIME_ZONE_MAX), default="UTC")
    """IANA zone in which deadlines are shown to this person."""
    password_hash: Mapped[str] = mapped_column(String(255))
    """argon2id hash, with its parameters, as argon2-cffi writes it."""
    auth_epoch: Mapped[int] = mapped_column(Integer, default=0)
    """Bumped on password change; sessions minted under an older epoch stop working."""
    guest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """An account opened for a guest who practised without signing up: no usable password;
    signing up turns it into an ordinary account, keeping its games."""
    created_at: Mapped[datetime] = now_by_default()
    """When the account was made."""
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)
    """When the account last changed."""
