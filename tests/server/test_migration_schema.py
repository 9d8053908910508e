"""`schema.creating`: a migration that declares its tables once gets an upgrade and a downgrade."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext

from deaddrop.server.db.migrations import schema

PARENTS = schema.Table("parents", schema.string("name", 20), indexes=[schema.Index("name")])
CHILDREN = schema.Table(
    "children",
    schema.integer("parent_id"),
    schema.integer("seq"),
    schema.references("children", "parent_id", "parents"),
    key=("parent_id", "seq"),
)


def _schema(connection: sa.Connection) -> list[tuple[str, str]]:
    rows = connection.exec_driver_sql("SELECT type, name FROM sqlite_master ORDER BY name")
    return [(kind, name) for kind, name in rows]


def test_the_downgrade_drops_what_the_upgrade_made_and_both_can_run_again() -> None:
    upgrade, downgrade = schema.creating(PARENTS, CHILDREN)
    engine = sa.create_engine("sqlite://")
    with engine.begin() as connection, Operations.context(MigrationContext.configure(connection)):
        upgrade()
        made = _schema(connection)
        downgrade()
        assert _schema(connection) == []
        upgrade()  # the same declared columns again: Alembic copies them
        assert _schema(connection) == made
    assert made == [
        ("table", "children"),
        ("index", "ix_parents_name"),
        ("table", "parents"),
        ("index", "sqlite_autoindex_children_1"),
    ]
