"""Mail: the players' opt-in preferences and the delivery ledger (`mail_deliveries`)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from deaddrop.server.db.migrations import schema

revision: str = "0006"
down_revision: str | None = "0005"


def upgrade() -> None:
    """Create `mail_deliveries`; add `users.mail_digests` and `users.mail_reminders` (off)."""
    schema.create_with_id(
        "mail_deliveries",
        schema.integer("game_id"),
        schema.integer("day"),
        schema.integer("user_id"),
        schema.string("kind", 10),
        schema.string("status", 10),
        schema.integer("attempts"),
        schema.string("claimed_by", 64),
        schema.moment("claimed_at"),
        schema.moment("next_attempt_at", null=True),
        schema.moment("sent_at", null=True),
        schema.text("last_error", null=True),
        schema.moment("created_at"),
        schema.references("mail_deliveries", "game_id", "station_games"),
        schema.references("mail_deliveries", "user_id", "users"),
        schema.unique("mail_deliveries", "game_id", "day", "user_id", "kind"),
    )
    schema.index("mail_deliveries", "status", "next_attempt_at")
    schema.index("mail_deliveries", "user_id")
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

    schema.drop_index("mail_deliveries", "user_id")
    schema.drop_index("mail_deliveries", "status", "next_attempt_at")
    op.drop_table("mail_deliveries")
