"""Station bot seats: a seat may be a bot with a level; `station_bot_decisions`."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from deaddrop.server.db.migrations import numbered, schema

revision, down_revision = numbered(__file__)


def upgrade() -> None:
    """A seat without an account holds a bot of a level; create `station_bot_decisions`."""
    with op.batch_alter_table("station_seats", schema=None) as batch_op:
        batch_op.alter_column("user_id", existing_type=sa.Integer(), nullable=True)
        batch_op.add_column(schema.string("bot_level", 16, null=True))
    schema.create_with_id(
        "station_bot_decisions",
        *schema.game_id("station_bot_decisions"),
        schema.integer("day"),
        schema.integer("seat"),
        schema.string("fingerprint", 64),
        schema.string("runner", 64),
        schema.moment("claimed_at"),
        schema.moment("done_at", null=True),
        schema.unique("station_bot_decisions", "game_id", "day", "seat", "fingerprint"),
    )


def downgrade() -> None:
    """Drop `station_bot_decisions` and the bot seats (their rows), then the column."""
    op.drop_table("station_bot_decisions")
    op.execute("DELETE FROM station_seats WHERE user_id IS NULL")
    with op.batch_alter_table("station_seats", schema=None) as batch_op:
        batch_op.drop_column("bot_level")
        batch_op.alter_column("user_id", existing_type=sa.Integer(), nullable=False)
