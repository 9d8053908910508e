"""${message}"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from deaddrop.server.db.migrations import numbered
${imports if imports else ""}
revision, down_revision = numbered(__file__)


def upgrade() -> None:
    """Apply this migration."""
    ${upgrades if upgrades else "pass"}


def downgrade() -> None:
    """Revert this migration."""
    ${downgrades if downgrades else "pass"}
