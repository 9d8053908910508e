"""Station tab badges: where each player last looked, per tab (`station_tab_seen`).

Revision ID: 0007
Revises: 0006
Created: 2026-12-01 02:17:48.752257
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create `station_tab_seen`."""
    op.create_table(
        "station_tab_seen",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("tab", sa.String(length=16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["station_games.id"],
            name=op.f("fk_station_tab_seen_game_id_station_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_station_tab_seen_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_station_tab_seen")),
        sa.UniqueConstraint(
            "game_id", "user_id", "tab", name=op.f("uq_station_tab_seen_game_id_user_id_tab")
        ),
    )
    with op.batch_alter_table("station_tab_seen", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_station_tab_seen_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    """Drop `station_tab_seen`."""
    with op.batch_alter_table("station_tab_seen", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_station_tab_seen_user_id"))

    op.drop_table("station_tab_seen")
