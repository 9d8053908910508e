"""The live events journal: every game's audience-tagged events, numbered per stream."""

from __future__ import annotations

from alembic import op

from deaddrop.server.db.migrations import schema

revision: str = "0003"
down_revision: str | None = "0002"


def upgrade() -> None:
    """Create `live_events`."""
    schema.create_with_id(
        "live_events",
        schema.string("stream", 64),
        schema.integer("seq"),
        schema.string("kind", 40),
        schema.boolean("public"),
        schema.json("seats"),
        schema.json("payload"),
        schema.created_at(),
        schema.unique("live_events", "stream", "seq"),
    )


def downgrade() -> None:
    """Drop `live_events`."""
    op.drop_table("live_events")
