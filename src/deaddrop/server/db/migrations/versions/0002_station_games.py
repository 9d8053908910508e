"""Station games: games, seats and former holders, the action log, Pouches, announcements."""

from __future__ import annotations

from alembic import op

from deaddrop.server.db.migrations import schema

revision: str = "0002"
down_revision: str | None = "0001"


def upgrade() -> None:
    """Create the six `station_*` tables."""
    schema.create_with_id(
        "station_games",
        schema.string("public_id", 32),
        schema.string("invite_token", 32),
        schema.string("spectator_token", 32, null=True),
        schema.integer("host_id"),
        schema.string("title", 80),
        schema.string("status", 10),
        schema.integer("pouch_minute"),
        schema.string("time_zone", 64),
        schema.integer("day_minutes"),
        schema.boolean("early_pouch"),
        schema.json("setup", null=True),
        schema.integer("version"),
        schema.integer("table_version"),
        schema.integer("day"),
        schema.moment("deadline", null=True),
        schema.integer("day_extended_seconds"),
        schema.integer("paused_remaining_seconds", null=True),
        schema.moment("pause_ends_at", null=True),
        schema.string("winner", 10, null=True),
        schema.integer("lobby_size"),
        schema.created_at(),
        schema.moment("started_at", null=True),
        schema.moment("ended_at", null=True),
        schema.moment("updated_at"),
        schema.integer("row_version"),
        schema.references("station_games", "host_id", "users"),
        schema.unique("station_games", "invite_token"),
        schema.unique("station_games", "public_id"),
        schema.unique("station_games", "spectator_token"),
    )
    schema.index("station_games", "host_id")
    schema.index("station_games", "status", "deadline")
    op.create_table(
        "station_actions",
        *schema.game_id("station_actions"),
        schema.integer("seq"),
        schema.integer("day"),
        schema.json("action"),
        *schema.user_id("station_actions", optional=True),
        schema.created_at(),
        schema.primary_key("station_actions", "game_id", "seq"),
    )
    schema.create_with_id(
        "station_announcements",
        *schema.game_id("station_announcements"),
        schema.integer("day"),
        schema.string("kind", 20),
        schema.text("text"),
        schema.created_at(),
    )
    schema.index("station_announcements", "game_id")
    schema.create_with_id(
        "station_pouches",
        *schema.game_id("station_pouches"),
        schema.integer("day"),
        schema.integer("seq"),
        schema.moment("deadline"),
        schema.boolean("early"),
        schema.string("runner", 64),
        schema.moment("resolved_at"),
        schema.unique("station_pouches", "game_id", "day"),
    )
    schema.create_with_id(
        "station_seat_holders",
        *schema.game_id("station_seat_holders"),
        schema.integer("seat"),
        *schema.user_id("station_seat_holders"),
        schema.integer("from_day"),
        schema.integer("until_day"),
        schema.moment("replaced_at"),
    )
    schema.index("station_seat_holders", "game_id")
    schema.create_with_id(
        "station_seats",
        *schema.game_id("station_seats"),
        *schema.user_id("station_seats"),
        schema.integer("seat", null=True),
        schema.integer("first_full_day"),
        schema.moment("joined_at"),
        schema.unique("station_seats", "game_id", "seat"),
        schema.unique("station_seats", "game_id", "user_id"),
    )
    schema.index("station_seats", "user_id")


def downgrade() -> None:
    """Drop them, children first."""
    schema.drop_index("station_seats", "user_id")
    op.drop_table("station_seats")
    schema.drop_index("station_seat_holders", "game_id")
    op.drop_table("station_seat_holders")
    op.drop_table("station_pouches")
    schema.drop_index("station_announcements", "game_id")
    op.drop_table("station_announcements")
    op.drop_table("station_actions")
    schema.drop_index("station_games", "status", "deadline")
    schema.drop_index("station_games", "host_id")
    op.drop_table("station_games")
