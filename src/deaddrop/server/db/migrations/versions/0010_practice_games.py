"""Practice games: a Station game of one person and bots (`station_games.practice`), and guest
accounts that practise before signing up (`users.guest`)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"


def upgrade() -> None:
    """Add `station_games.practice` and `users.guest`, both false for every existing row."""
    with op.batch_alter_table("station_games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("practice", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("guest", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    """Drop both columns (guest accounts become plain accounts without a usable password)."""
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("guest")
    with op.batch_alter_table("station_games", schema=None) as batch_op:
        batch_op.drop_column("practice")
