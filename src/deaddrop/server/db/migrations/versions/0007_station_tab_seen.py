"""Station tab badges: where each player last looked, per tab (`station_tab_seen`)."""

from __future__ import annotations

from alembic import op

from deaddrop.server.db.migrations import schema

revision: str = "0007"
down_revision: str | None = "0006"


def upgrade() -> None:
    """Create `station_tab_seen`."""
    schema.create_with_id(
        "station_tab_seen",
        *schema.game_id("station_tab_seen"),
        *schema.user_id("station_tab_seen"),
        schema.string("tab", 16),
        schema.integer("seq"),
        schema.unique("station_tab_seen", "game_id", "user_id", "tab"),
    )
    schema.index("station_tab_seen", "user_id")


def downgrade() -> None:
    """Drop `station_tab_seen`."""
    schema.drop_index("station_tab_seen", "user_id")
    op.drop_table("station_tab_seen")
