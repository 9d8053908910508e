"""Station tables: games, seats and their holders, the action log, Pouches, announcements.

The engine's state is never stored: a game is its setup plus its append-only action log, and
`replay` rebuilds it (DESIGN.md). The columns beside them (day, deadline, status) are what the
runner and the home page query without replaying.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.db.base import Base, UTCDateTime
from deaddrop.server.db.columns import internal_id, now_by_default, station_game_id

TITLE_MAX = 80
TOKEN_MAX = 32


class StationGame(Base):
    """One game of Station, from its lobby to its end."""

    __tablename__ = "station_games"
    __table_args__ = (Index("ix_station_games_status_deadline", "status", "deadline"),)

    id: Mapped[int] = internal_id()
    """Internal identifier; never shown (URLs use `public_id`)."""
    public_id: Mapped[str] = mapped_column(String(TOKEN_MAX), unique=True)
    """Unguessable id in the game's URLs; knowing it grants nothing without a seat."""
    invite_token: Mapped[str] = mapped_column(String(TOKEN_MAX), unique=True)
    """The secret of the invite link: whoever has it may join the lobby."""
    spectator_token: Mapped[str | None] = mapped_column(String(TOKEN_MAX), unique=True)
    """The secret of the public spectator link; None while the host has it off."""
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    """Who created the game and holds the S40 tools."""
    title: Mapped[str] = mapped_column(String(TITLE_MAX))
    """The host's free-text title, escaped on output."""
    status: Mapped[str] = mapped_column(String(10), default="lobby")
    """lobby, running, paused or over."""
    pouch_minute: Mapped[int] = mapped_column(Integer)
    """The Pouch's local time of day, in minutes after midnight (daily games, S40)."""
    time_zone: Mapped[str] = mapped_column(String(64))
    """The IANA zone the Pouch time is read in (DST-aware)."""
    day_minutes: Mapped[int] = mapped_column(Integer, default=24 * 60)
    """Day length; 1440 follows the local time of day, shorter days run back to back."""
    early_pouch: Mapped[bool] = mapped_column(Boolean, default=False)
    """S41: the Pouch leaves at once when every living player is done."""
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A practice game: one person against bots, started at once (issue 14); no mail, no
    inactivity marks."""
    setup: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """The engine setup (codec JSON), fixed at the start."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    """Length of the action log: the version a page was built from."""
    table_version: Mapped[int] = mapped_column(Integer, default=0)
    """The version at the last Pouch or removal: pages older than it are stale."""
    day: Mapped[int] = mapped_column(Integer, default=0)
    """The engine's current day (0 in the lobby)."""
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """Today's Pouch; None in the lobby, while paused and after the game."""
    day_extended_seconds: Mapped[int] = mapped_column(Integer, default=0)
    """How far the host has extended today's deadline (capped, see table_limits.py)."""
    paused_remaining_seconds: Mapped[int | None] = mapped_column(Integer, default=None)
    """While paused: how much of the day was left."""
    pause_ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """While paused: when the pause ends by itself (table_limits.py)."""
    winner: Mapped[str | None] = mapped_column(String(10), default=None)
    """station or ring once over (S24)."""
    lobby_size: Mapped[int] = mapped_column(Integer, default=0)
    """How many have joined; kept on the game row so that joins race through its lock."""
    created_at: Mapped[datetime] = now_by_default()
    """When the lobby opened."""
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """When Day 1 began."""
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """When the game ended."""
    updated_at: Mapped[datetime] = now_by_default()
    """When anything about the game last changed (every write touches the row)."""
    row_version: Mapped[int] = mapped_column(Integer)
    """Optimistic lock: every UPDATE of the row says `WHERE row_version = <read>` and bumps
    it, so two writers to one game (players, host, runners) never both succeed."""

    __mapper_args__ = {"version_id_col": row_version}  # noqa: RUF012


class StationSeat(Base):
    """A joiner in the lobby; from the start, a seat of the game and its current holder."""

    __tablename__ = "station_seats"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id"),
        UniqueConstraint("game_id", "seat"),
    )

    id: Mapped[int] = internal_id()
    """Internal identifier; its order is the join order (S2)."""
    game_id: Mapped[int] = station_game_id()
    """The game."""
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True, default=None
    )
    """Who holds the seat now; None for a bot seat (it has no account)."""
    bot_level: Mapped[str | None] = mapped_column(String(16), default=None)
    """A bot seat's level (random, heuristic, expert; S42: public); None for a person."""
    seat: Mapped[int | None] = mapped_column(Integer, default=None)
    """The engine's seat index, set at the start in join order (S2)."""
    first_full_day: Mapped[int] = mapped_column(Integer, default=1)
    """The first day the current holder had in full: 1, or the day after a replacement."""
    joined_at: Mapped[datetime] = now_by_default()
    """When they joined the lobby."""


class StationSeatHolder(Base):
    """Someone who held a seat before a replacement (S40): the Roster remembers them."""

    __tablename__ = "station_seat_holders"

    id: Mapped[int] = internal_id()
    """Internal identifier."""
    game_id: Mapped[int] = station_game_id(index=True)
    """The game."""
    seat: Mapped[int] = mapped_column(Integer)
    """The engine's seat index."""
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    """The former holder; no longer a member of the game."""
    from_day: Mapped[int] = mapped_column(Integer)
    """The day they took the seat."""
    until_day: Mapped[int] = mapped_column(Integer)
    """The day they were replaced."""
    replaced_at: Mapped[datetime] = now_by_default()
    """When the host replaced them."""


class StationAction(Base):
    """One entry of a game's action log, in the engine codec's JSON."""

    __tablename__ = "station_actions"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("station_games.id", ondelete="CASCADE"), primary_key=True
    )
    """The game."""
    seq: Mapped[int] = internal_id()
    """1, 2, 3 …: the game's version after this action; the key forbids two writers."""
    day: Mapped[int] = mapped_column(Integer)
    """The day it was saved on."""
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    """`codec.action_to_json` of the action."""
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
    """Who did it (the host for a removal); None for the Pouch runner."""
    created_at: Mapped[datetime] = now_by_default()
    """When it was stored."""


class StationPouch(Base):
    """The record that a day's Pouch left: unique per (game, day), so it leaves once."""

    __tablename__ = "station_pouches"
    __table_args__ = (UniqueConstraint("game_id", "day"),)

    id: Mapped[int] = internal_id()
    """Internal identifier."""
    game_id: Mapped[int] = station_game_id()
    """The game."""
    day: Mapped[int] = mapped_column(Integer)
    """The day this Pouch ended."""
    seq: Mapped[int] = mapped_column(Integer)
    """The action-log entry (ResolvePouch) that resolved it."""
    deadline: Mapped[datetime] = mapped_column(UTCDateTime())
    """The deadline it left for (the early one, for an early Pouch)."""
    early: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether it left early because everyone was done (S41)."""
    runner: Mapped[str] = mapped_column(String(64))
    """Which runner resolved it (for operations)."""
    resolved_at: Mapped[datetime] = now_by_default()
    """When it was committed."""


class StationAnnouncement(Base):
    """A host action, announced publicly in the game (issue 4: no tool is used silently)."""

    __tablename__ = "station_announcements"

    id: Mapped[int] = internal_id()
    """Internal identifier; its order is the order of announcement."""
    game_id: Mapped[int] = station_game_id(index=True)
    """The game."""
    day: Mapped[int] = mapped_column(Integer)
    """The day it happened on."""
    kind: Mapped[str] = mapped_column(String(20))
    """paused, resumed, pause_expired, extended, replaced, removed, spectators_on/off."""
    text: Mapped[str] = mapped_column(Text)
    """What the table reads, in codenames only (S3)."""
    created_at: Mapped[datetime] = now_by_default()
    """When it happened."""
