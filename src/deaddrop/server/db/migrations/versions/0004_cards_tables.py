"""Cards tables: tables, their seats (people, guests, bots) and their action logs."""

from __future__ import annotations

from alembic import op

from deaddrop.server.db.migrations import schema

revision: str = "0004"
down_revision: str | None = "0003"


def upgrade() -> None:
    """Create `cards_tables`, `cards_actions` and `cards_seats`."""
    schema.create_with_id(
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
    )
    schema.index("cards_tables", "status", "due_at")
    schema.index("cards_tables", "status", "public")
    op.create_table(
        "cards_actions",
        schema.integer("table_id"),
        schema.integer("seq"),
        schema.json("action"),
        schema.boolean("auto"),
        schema.created_at(),
        schema.references("cards_actions", "table_id", "cards_tables"),
        schema.primary_key("cards_actions", "table_id", "seq"),
    )
    schema.create_with_id(
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
    )
    schema.index("cards_seats", "guest_key")
    schema.index("cards_seats", "user_id")


def downgrade() -> None:
    """Drop the Cards tables."""
    schema.drop_index("cards_seats", "user_id")
    schema.drop_index("cards_seats", "guest_key")
    op.drop_table("cards_seats")
    op.drop_table("cards_actions")
    schema.drop_index("cards_tables", "status", "public")
    schema.drop_index("cards_tables", "status", "due_at")
    op.drop_table("cards_tables")
