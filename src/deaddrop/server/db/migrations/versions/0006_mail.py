"""Mail: the players' opt-in preferences and the delivery ledger (`mail_deliveries`).

Revision ID: 0006
Revises: 0005
Created: 2026-12-01 02:05:15.806311
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create `mail_deliveries`; add `users.mail_digests` and `users.mail_reminders` (off)."""
    op.create_table(
        "mail_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_by", sa.String(length=64), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["station_games.id"],
            name=op.f("fk_mail_deliveries_game_id_station_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_mail_deliveries_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mail_deliveries")),
        sa.UniqueConstraint(
            "game_id",
            "day",
            "user_id",
            "kind",
            name=op.f("uq_mail_deliveries_game_id_day_user_id_kind"),
        ),
    )
    with op.batch_alter_table("mail_deliveries", schema=None) as batch_op:
        batch_op.create_index(
            "ix_mail_deliveries_status_next_attempt_at", ["status", "next_attempt_at"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_mail_deliveries_user_id"), ["user_id"], unique=False)

    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("mail_digests", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(
            sa.Column("mail_reminders", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    """Drop the preferences and `mail_deliveries`."""
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("mail_reminders")
        batch_op.drop_column("mail_digests")

    with op.batch_alter_table("mail_deliveries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_mail_deliveries_user_id"))
        batch_op.drop_index("ix_mail_deliveries_status_next_attempt_at")

    op.drop_table("mail_deliveries")
