"""Mail: the players' opt-in preferences and the delivery ledger (`mail_deliveries`)."""

from __future__ import annotations

from deaddrop.server.db.migrations import numbered, schema

revision, down_revision = numbered(__file__)


TABLES = [
    schema.Table(
        "mail_deliveries",
        *schema.game_id("mail_deliveries"),
        schema.integer("day"),
        *schema.user_id("mail_deliveries"),
        schema.string("kind", 10),
        schema.string("status", 10),
        schema.integer("attempts"),
        schema.string("claimed_by", 64),
        schema.moment("claimed_at"),
        schema.moment("next_attempt_at", null=True),
        schema.moment("sent_at", null=True),
        schema.text("last_error", null=True),
        schema.created_at(),
        schema.unique("mail_deliveries", "game_id", "day", "user_id", "kind"),
        indexes=[schema.Index("status", "next_attempt_at"), schema.Index("user_id")],
    ),
]


def upgrade() -> None:
    """Create `mail_deliveries`; add `users.mail_digests` and `users.mail_reminders` (off)."""
    schema.create_tables(TABLES)
    schema.add_columns(
        "users",
        schema.false_for_existing_rows("mail_digests"),
        schema.false_for_existing_rows("mail_reminders"),
    )


def downgrade() -> None:
    """Drop the preferences and `mail_deliveries`."""
    schema.drop_columns("users", "mail_reminders", "mail_digests")
    schema.drop_tables(TABLES)
