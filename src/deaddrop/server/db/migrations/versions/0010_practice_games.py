"""Practice games: a Station game of one person and bots (`station_games.practice`), and guest
accounts that practise before signing up (`users.guest`)."""

from __future__ import annotations

from deaddrop.server.db.migrations import numbered, schema

revision, down_revision = numbered(__file__)


def upgrade() -> None:
    """Add `station_games.practice` and `users.guest`, both false for every existing row."""
    schema.add_columns("station_games", schema.false_for_existing_rows("practice"))
    schema.add_columns("users", schema.false_for_existing_rows("guest"))


def downgrade() -> None:
    """Drop both columns (guest accounts become plain accounts without a usable password)."""
    schema.drop_columns("users", "guest")
    schema.drop_columns("station_games", "practice")
