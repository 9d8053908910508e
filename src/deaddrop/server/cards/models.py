"""Cards tables: a table, its seats (a person, a guest or a bot) and its action log.

As for Station, the engine's state is never stored: a game is its setup (players, seed,
options) plus its append-only action log, and `replay` rebuilds it. The columns beside them
(status, version, due_at) are what the lobby and the bot runner query without replaying.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from deaddrop.server.db.base import Base, UTCDateTime
from deaddrop.server.db.columns import internal_id, now_by_default

TOKEN_MAX = 32
GUEST_KEY_MAX = 64


class CardsTable(Base):
    """One table of Cards, from its open seats to its winner."""

    __tablename__ = "cards_tables"
    __table_args__ = (
        Index("ix_cards_tables_status_public", "status", "public"),
        Index("ix_cards_tables_status_due_at", "status", "due_at"),
    )

    id: Mapped[int] = internal_id()
    """Internal identifier; never shown (URLs use `public_id`)."""
    public_id: Mapped[str] = mapped_column(String(TOKEN_MAX), unique=True)
    """Unguessable id in the table's URLs; a private table is reached only by a seat."""
    invite_token: Mapped[str] = mapped_column(String(TOKEN_MAX), unique=True)
    """The secret of the invite link: whoever has it may take a free seat."""
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    """Listed in the lobby for anyone to join (and watch); private tables need the invite."""
    status: Mapped[str] = mapped_column(String(10), default="open")
    """open (seats free), playing or over."""
    players: Mapped[int] = mapped_column(Integer)
    """Number of seats, 2 to 4 (C2)."""
    grab_face_down: Mapped[bool] = mapped_column(Boolean, default=False)
    """Table option of C8."""
    tokens_to_win: Mapped[int] = mapped_column(Integer, default=3)
    """Table option of C11."""
    turn_seconds: Mapped[int | None] = mapped_column(Integer, default=None)
    """The turn timer: after this long a bot plays the seat's move; None waits forever."""
    seed: Mapped[int] = mapped_column(Integer)
    """The engine's RNG seed (C2)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    """Length of the action log: the version a page was built from."""
    due_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """When the runner should play the pending decision (a bot, an away seat, the timer)."""
    winner: Mapped[int | None] = mapped_column(Integer, default=None)
    """The seat that won the game (C11), once over."""
    created_at: Mapped[datetime] = now_by_default()
    """When the table was opened."""
    updated_at: Mapped[datetime] = now_by_default()
    """When anything about the table last changed."""
    row_version: Mapped[int] = mapped_column(Integer)
    """Optimistic lock: two writers to one table (players, runners) never both succeed."""

    __mapper_args__ = {"version_id_col": row_version}  # noqa: RUF012


class CardsSeat(Base):
    """One seat of a table: a bot, or a person (an account or a guest), or still free."""

    __tablename__ = "cards_seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = internal_id()
    """Internal identifier."""
    table_id: Mapped[int] = mapped_column(ForeignKey("cards_tables.id", ondelete="CASCADE"))
    """The table."""
    seat: Mapped[int] = mapped_column(Integer)
    """The engine's seat index."""
    bot: Mapped[str | None] = mapped_column(String(20), default=None)
    """The bot's name (random, heuristic, expert) for a bot seat; None for a person."""
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True, default=None
    )
    """The account holding a person's seat."""
    guest_key: Mapped[str | None] = mapped_column(String(GUEST_KEY_MAX), index=True, default=None)
    """A guest's browser key holding the seat until they sign up (then `user_id`)."""
    name: Mapped[str] = mapped_column(String(80), default="")
    """What the table calls the seat's holder (escaped on output)."""
    away: Mapped[bool] = mapped_column(Boolean, default=False)
    """The turn timer ran out: a bot plays this seat until its person takes it back."""
    notebook: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether this person shows the deduction notebook (their posterior over The Drop)."""

    @property
    def is_free(self) -> bool:
        """A friend's seat nobody has taken yet."""
        return self.bot is None and self.user_id is None and self.guest_key is None


class CardsAction(Base):
    """One entry of a table's action log, in the engine's action JSON."""

    __tablename__ = "cards_actions"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("cards_tables.id", ondelete="CASCADE"), primary_key=True
    )
    """The table."""
    seq: Mapped[int] = internal_id()
    """1, 2, 3 …: the table's version after this action; the key forbids two writers."""
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    """`action_to_json` of what was played."""
    auto: Mapped[bool] = mapped_column(Boolean, default=False)
    """Played by a bot: a bot seat, or the timer for a person who was away."""
    created_at: Mapped[datetime] = now_by_default()
    """When it was played."""
