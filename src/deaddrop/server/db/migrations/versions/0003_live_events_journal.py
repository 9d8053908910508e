"""The live events journal: every game's audience-tagged events, numbered per stream.

Revision ID: 0003
Revises: 0002
Created: 2026-11-29 12:21:40.172465
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create `live_events`."""
    op.create_table(
        "live_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("stream", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_events")),
        sa.UniqueConstraint("stream", "seq", name=op.f("uq_live_events_stream_seq")),
    )


def downgrade() -> None:
    """Drop `live_events`."""
    op.drop_table("live_events")
