"""Cards tables: tables, their seats (people, guests, bots) and their action logs."""

from __future__ import annotations

from deaddrop.server.db.migrations import numbered, schema

revision, down_revision = numbered(__file__)


upgrade, downgrade = schema.creating(
    schema.Table(
        "cards_tables",
        schema.string("public_id", 32),
        schema.string("invite_token", 32),
        schema.boolean("public"),
        schema.string("status", 10),
        schema.integer("players"),
        schema.boolean("grab_face_down"),
        schema.integer("tokens_to_win"),
        schema.integer("turn_seconds", null=True),
        schema.integer("seed"),
        schema.integer("version"),
        schema.moment("due_at", null=True),
        schema.integer("winner", null=True),
        *schema.created_and_updated(),
        schema.integer("row_version"),
        schema.unique("cards_tables", "invite_token"),
        schema.unique("cards_tables", "public_id"),
        indexes=[schema.Index("status", "due_at"), schema.Index("status", "public")],
    ),
    schema.Table(
        "cards_actions",
        schema.integer("table_id"),
        schema.integer("seq"),
        schema.json("action"),
        schema.boolean("auto"),
        schema.created_at(),
        schema.references("cards_actions", "table_id", "cards_tables"),
        key=("table_id", "seq"),
    ),
    schema.Table(
        "cards_seats",
        schema.integer("table_id"),
        schema.integer("seat"),
        schema.string("bot", 20, null=True),
        schema.integer("user_id", null=True),
        schema.string("guest_key", 64, null=True),
        schema.string("name", 80),
        schema.boolean("away"),
        schema.boolean("notebook"),
        schema.references("cards_seats", "table_id", "cards_tables"),
        schema.references("cards_seats", "user_id", "users", ondelete="SET NULL"),
        schema.unique("cards_seats", "table_id", "seat"),
        indexes=[schema.Index("guest_key"), schema.Index("user_id")],
    ),
)
