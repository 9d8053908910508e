"""Station stand-ins: `station_standin_options` (auto-pilot per game), `station_standins`, and
`station_bot_pending_posts` (bot posts the rate limit held back).

Revision ID: 0009
Revises: 0008
Created: 2026-12-02 09:50:00.000000
"""

from __future__ import annotations

from alembic import op

from deaddrop.server.db.migrations import schema

revision: str = "0009"
down_revision: str | None = "0008"


def upgrade() -> None:
    """Create `station_standin_options`, `station_standins` and `station_bot_pending_posts`."""
    op.create_table(
        "station_standin_options",
        *schema.game_id("station_standin_options"),
        schema.integer("hours"),
        schema.string("level", 16),
        schema.primary_key("station_standin_options", "game_id"),
    )
    schema.create_with_id(
        "station_standins",
        *schema.game_id("station_standins"),
        schema.integer("seat"),
        schema.string("level", 16),
        schema.integer("from_day"),
        schema.integer("back_day", null=True),
        schema.moment("started_at"),
        schema.moment("ended_at", null=True),
        schema.unique("station_standins", "game_id", "seat", "from_day"),
    )
    schema.create_with_id(
        "station_bot_pending_posts",
        *schema.game_id("station_bot_pending_posts"),
        schema.integer("seat"),
        schema.string("channel", 16),
        schema.text("text"),
        schema.created_at(),
    )
    schema.index("station_bot_pending_posts", "game_id")


def downgrade() -> None:
    """Drop the three tables; a seat a stand-in was playing goes back to its person."""
    op.execute(
        "UPDATE station_seats SET bot_level = NULL "
        "WHERE user_id IS NOT NULL AND bot_level IS NOT NULL"
    )
    schema.drop_index("station_bot_pending_posts", "game_id")
    op.drop_table("station_bot_pending_posts")
    op.drop_table("station_standins")
    op.drop_table("station_standin_options")
