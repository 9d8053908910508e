"""Accounts and the key-value table behind sessions and throttles."""

from __future__ import annotations

from deaddrop.server.db.migrations import numbered, schema

revision, down_revision = numbered(__file__)


upgrade, downgrade = schema.creating(
    schema.Table(
        "users",
        schema.string("username", 30),
        schema.string("display_name", 50),
        schema.string("email", 254, null=True),
        schema.string("time_zone", 64),
        schema.string("password_hash", 255),
        schema.integer("auth_epoch"),
        *schema.created_and_updated(),
        schema.unique("users", "username"),
    ),
    schema.Table(
        "kv_entries",
        schema.string("namespace", 40),
        schema.string("key", 200),
        schema.binary("value"),
        schema.moment("expires_at", null=True),
        key=("namespace", "key"),
        indexes=[schema.Index("expires_at")],
    ),
)
