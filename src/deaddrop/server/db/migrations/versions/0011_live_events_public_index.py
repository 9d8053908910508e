"""The journal's events by stream, audience and seq (`live_events (stream, public, seq)`): a
page with no known position counts a stream's public events from this index alone, and reads
only the events that are not public (station/tabs/positions.py)."""

from __future__ import annotations

from deaddrop.server.db.migrations import numbered, schema

revision, down_revision = numbered(__file__)


def upgrade() -> None:
    """Index `live_events` by (stream, public, seq)."""
    schema.index("live_events", "stream", "public", "seq")


def downgrade() -> None:
    """Drop the index."""
    schema.drop_index("live_events", "stream", "public", "seq")
