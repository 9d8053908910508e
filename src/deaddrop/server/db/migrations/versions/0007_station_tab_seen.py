"""Station tab badges: where each player last looked, per tab (`station_tab_seen`)."""

from __future__ import annotations

from deaddrop.server.db.migrations import numbered, schema

revision, down_revision = numbered(__file__)


upgrade, downgrade = schema.creating(
    schema.Table(
        "station_tab_seen",
        *schema.game_id("station_tab_seen"),
        *schema.user_id("station_tab_seen"),
        schema.string("tab", 16),
        schema.integer("seq"),
        schema.unique("station_tab_seen", "game_id", "user_id", "tab"),
        indexes=[schema.Index("user_id")],
    ),
)
