"""Station games: games, seats and former holders, the action log, Pouches, announcements.

Revision ID: 0002
Revises: 0001
Created: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the six `station_*` tables."""
    op.create_table(
        "station_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("invite_token", sa.String(length=32), nullable=False),
        sa.Column("spectator_token", sa.String(length=32), nullable=True),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=80), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("pouch_minute", sa.Integer(), nullable=False),
        sa.Column("time_zone", sa.String(length=64), nullable=False),
        sa.Column("day_minutes", sa.Integer(), nullable=False),
        sa.Column("early_pouch", sa.Boolean(), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("table_version", sa.Integer(), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("day_extended_seconds", sa.Integer(), nullable=False),
        sa.Column("paused_remaining_seconds", sa.Integer(), nullable=True),
        sa.Column("pause_ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("winner", sa.String(length=10), nullable=True),
        sa.Column("lobby_size", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("row_version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["host_id"],
            ["users.id"],
            name=op.f("fk_station_games_host_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_station_games")),
        sa.UniqueConstraint("invite_token", name=op.f("uq_station_games_invite_token")),
        sa.UniqueConstraint("public_id", name=op.f("uq_station_games_public_id")),
        sa.UniqueConstraint("spectator_token", name=op.f("uq_station_games_spectator_token")),
    )
    op.create_index("ix_station_games_host_id", "station_games", ["host_id"], unique=False)
    op.create_index(
        "ix_station_games_status_deadline", "station_games", ["status", "deadline"], unique=False
    )
    op.create_table(
        "station_actions",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["station_games.id"],
            name=op.f("fk_station_actions_game_id_station_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_station_actions_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_station_actions")),
    )
    op.create_table(
        "station_announcements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["station_games.id"],
            name=op.f("fk_station_announcements_game_id_station_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_station_announcements")),
    )
    op.create_index(
        "ix_station_announcements_game_id", "station_announcements", ["game_id"], unique=False
    )
    op.create_table(
        "station_pouches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("early", sa.Boolean(), nullable=False),
        sa.Column("runner", sa.String(length=64), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["station_games.id"],
            name=op.f("fk_station_pouches_game_id_station_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_station_pouches")),
        sa.UniqueConstraint("game_id", "day", name=op.f("uq_station_pouches_game_id_day")),
    )
    op.create_table(
        "station_seat_holders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("from_day", sa.Integer(), nullable=False),
        sa.Column("until_day", sa.Integer(), nullable=False),
        sa.Column("replaced_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["station_games.id"],
            name=op.f("fk_station_seat_holders_game_id_station_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_station_seat_holders_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_station_seat_holders")),
    )
    op.create_index(
        "ix_station_seat_holders_game_id", "station_seat_holders", ["game_id"], unique=False
    )
    op.create_table(
        "station_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("first_full_day", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["station_games.id"],
            name=op.f("fk_station_seats_game_id_station_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_station_seats_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_station_seats")),
        sa.UniqueConstraint("game_id", "seat", name=op.f("uq_station_seats_game_id_seat")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_station_seats_game_id_user_id")),
    )
    op.create_index("ix_station_seats_user_id", "station_seats", ["user_id"], unique=False)


def downgrade() -> None:
    """Drop them, children first."""
    op.drop_index("ix_station_seats_user_id", table_name="station_seats")
    op.drop_table("station_seats")
    op.drop_index("ix_station_seat_holders_game_id", table_name="station_seat_holders")
    op.drop_table("station_seat_holders")
    op.drop_table("station_pouches")
    op.drop_index("ix_station_announcements_game_id", table_name="station_announcements")
    op.drop_table("station_announcements")
    op.drop_table("station_actions")
    op.drop_index("ix_station_games_status_deadline", table_name="station_games")
    op.drop_index("ix_station_games_host_id", table_name="station_games")
    op.drop_table("station_games")
