"""The live events journal: every game's audience-tagged events, numbered per stream."""

from __future__ import annotations

from deaddrop.server.db.migrations import numbered, schema

revision, down_revision = numbered(__file__)


upgrade, downgrade = schema.creating(
    schema.Table(
        "live_events",
        schema.string("stream", 64),
        schema.integer("seq"),
        schema.string("kind", 40),
        schema.boolean("public"),
        schema.json("seats"),
        schema.json("payload"),
        schema.created_at(),
        schema.unique("live_events", "stream", "seq"),
    ),
)
