"""Accounts and the key-value table behind sessions and throttles."""

from __future__ import annotations

from alembic import op

from deaddrop.server.db.migrations import schema

revision: str = "0001"
down_revision: str | None = None


def upgrade() -> None:
    """Create `users` and `kv_entries`."""
    schema.create_with_id(
        "users",
        schema.string("username", 30),
        schema.string("display_name", 50),
        schema.string("email", 254, null=True),
        schema.string("time_zone", 64),
        schema.string("password_hash", 255),
        schema.integer("auth_epoch"),
        *schema.created_and_updated(),
        schema.unique("users", "username"),
    )
    op.create_table(
        "kv_entries",
        schema.string("namespace", 40),
        schema.string("key", 200),
        schema.binary("value"),
        schema.moment("expires_at", null=True),
        schema.primary_key("kv_entries", "namespace", "key"),
    )
    schema.index("kv_entries", "expires_at")


def downgrade() -> None:
    """Drop both tables."""
    schema.drop_index("kv_entries", "expires_at")
    op.drop_table("kv_entries")
    op.drop_table("users")
