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
        schema.moment("created_at"),
        schema.moment("updated_at"),
        schema.integer("row_version"),
        schema.unique("cards_tables", "invite_token"),
        schema.unique("cards_tables", "public_id"),
    )
    with op.batch_alter_table("cards_tables", schema=None) as batch_op:
        batch_op.create_index("ix_cards_tables_status_due_at", ["status", "due_at"], unique=False)
        batch_op.create_index("ix_cards_tables_status_public", ["status", "public"], unique=False)

    op.create_table(
        "cards_actions",
        schema.integer("table_id"),
        schema.integer("seq"),
        schema.json("action"),
        schema.boolean("auto"),
        schema.moment("created_at"),
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
