"""Station chat: the messages of the Floor, the Ring Channel, the Archive and interrogations.

Revision ID: 0005
Revises: 0004
Created: 2026-11-29 13:06:34.500877
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create `station_messages`."""
    op.create_table(
        "station_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["station_games.id"],
            name=op.f("fk_station_messages_game_id_station_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_station_messages")),
    )
    with op.batch_alter_table("station_messages", schema=None) as batch_op:
        batch_op.create_index(
            "ix_station_messages_game_channel_id", ["game_id", "channel", "id"], unique=False
        )
        batch_op.create_index(
            "ix_station_messages_game_seat_created", ["game_id", "seat", "created_at"], unique=False
        )


def downgrade() -> None:
    """Drop `station_messages`."""
    with op.batch_alter_table("station_messages", schema=None) as batch_op:
        batch_op.drop_index("ix_station_messages_game_seat_created")
        batch_op.drop_index("ix_station_messages_game_channel_id")

    op.drop_table("station_messages")
