"""Station stand-ins: `station_standin_options` (auto-pilot per game), `station_standins`, and
`station_bot_pending_posts` (bot posts the rate limit held back).

Revision ID: 0009
Revises: 0008
Created: 2026-12-02 09:50:00.000000
"""

from __future__ import annotations

from alembic import op

from deaddrop.server.db.migrations import numbered, schema

revision, down_revision = numbered(__file__)


TABLES = [
    schema.Table(
        "station_standin_options",
        *schema.game_id("station_standin_options"),
        schema.integer("hours"),
        schema.string("level", 16),
        key=("game_id",),
    ),
    schema.Table(
        "station_standins",
        *schema.game_id("station_standins"),
        schema.integer("seat"),
        schema.string("level", 16),
        schema.integer("from_day"),
        schema.integer("back_day", null=True),
        schema.moment("started_at"),
        schema.moment("ended_at", null=True),
        schema.unique("station_standins", "game_id", "seat", "from_day"),
    ),
    schema.Table(
        "station_bot_pending_posts",
        *schema.game_id("station_bot_pending_posts"),
        schema.integer("seat"),
        schema.string("channel", 16),
        schema.text("text"),
        schema.created_at(),
        indexes=[schema.Index("game_id")],
    ),
]


def upgrade() -> None:
    """Create the three tables."""
    schema.create_tables(TABLES)


def downgrade() -> None:
    """Drop the three tables; a seat a stand-in was playing goes back to its person."""
    op.execute(
        "UPDATE station_seats SET bot_level = NULL "
        "WHERE user_id IS NOT NULL AND bot_level IS NOT NULL"
    )
    schema.drop_tables(TABLES)
