"""Cards tables: tables, their seats (people, guests, bots) and their action logs.

Revision ID: 0004
Revises: 0003
Created: 2026-11-29 12:34:11.266825
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create `cards_tables`, `cards_actions` and `cards_seats`."""
    op.create_table(
        "cards_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("invite_token", sa.String(length=32), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("grab_face_down", sa.Boolean(), nullable=False),
        sa.Column("tokens_to_win", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=True),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("row_version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cards_tables")),
        sa.UniqueConstraint("invite_token", name=op.f("uq_cards_tables_invite_token")),
        sa.UniqueConstraint("public_id", name=op.f("uq_cards_tables_public_id")),
    )
    with op.batch_alter_table("cards_tables", schema=None) as batch_op:
        batch_op.create_index("ix_cards_tables_status_due_at", ["status", "due_at"], unique=False)
        batch_op.create_index("ix_cards_tables_status_public", ["status", "public"], unique=False)

    op.create_table(
        "cards_actions",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("auto", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["cards_tables.id"],
            name=op.f("fk_cards_actions_table_id_cards_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", "seq", name=op.f("pk_cards_actions")),
    )
    op.create_table(
        "cards_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("bot", sa.String(length=20), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("guest_key", sa.String(length=64), nullable=True),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("away", sa.Boolean(), nullable=False),
        sa.Column("notebook", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["cards_tables.id"],
            name=op.f("fk_cards_seats_table_id_cards_tables"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_cards_seats_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cards_seats")),
        sa.UniqueConstraint("table_id", "seat", name=op.f("uq_cards_seats_table_id_seat")),
    )
    with op.batch_alter_table("cards_seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_cards_seats_guest_key"), ["guest_key"], unique=False)
        batch_op.create_index(batch_op.f("ix_cards_seats_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    """Drop the Cards tables."""
    with op.batch_alter_table("cards_seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_cards_seats_user_id"))
        batch_op.drop_index(batch_op.f("ix_cards_seats_guest_key"))

    op.drop_table("cards_seats")
    op.drop_table("cards_actions")
    with op.batch_alter_table("cards_tables", schema=None) as batch_op:
        batch_op.drop_index("ix_cards_tables_status_public")
        batch_op.drop_index("ix_cards_tables_status_due_at")

    op.drop_table("cards_tables")
