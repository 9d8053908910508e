"""Station chat: the messages of the Floor, the Ring Channel, the Archive and interrogations."""

from __future__ import annotations

from deaddrop.server.db.migrations import numbered, schema

revision, down_revision = numbered(__file__)


upgrade, downgrade = schema.creating(
    schema.Table(
        "station_messages",
        *schema.game_id("station_messages"),
        schema.string("channel", 16),
        schema.integer("day"),
        schema.integer("seat"),
        schema.text("text"),
        schema.created_at(),
        indexes=[
            schema.Index("game_id", "channel", "id", name="ix_station_messages_game_channel_id"),
            schema.Index(
                "game_id", "seat", "created_at", name="ix_station_messages_game_seat_created"
            ),
        ],
    ),
)
