"""Station chat: the messages of the Floor, the Ring Channel, the Archive and interrogations."""

from __future__ import annotations

from alembic import op

from deaddrop.server.db.migrations import schema

revision: str = "0005"
down_revision: str | None = "0004"


def upgrade() -> None:
    """Create `station_messages`."""
    schema.create_with_id(
        "station_messages",
        *schema.game_id("station_messages"),
        schema.string("channel", 16),
        schema.integer("day"),
        schema.integer("seat"),
        schema.text("text"),
        schema.created_at(),
    )
    schema.index(
        "station_messages", "game_id", "channel", "id", name="ix_station_messages_game_channel_id"
    )
    schema.index(
        "station_messages",
        "game_id",
        "seat",
        "created_at",
        name="ix_station_messages_game_seat_created",
    )


def downgrade() -> None:
    """Drop `station_messages`."""
    schema.drop_index("station_messages", name="ix_station_messages_game_seat_created")
    schema.drop_index("station_messages", name="ix_station_messages_game_channel_id")
    op.drop_table("station_messages")
