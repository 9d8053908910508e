"""What the migrations build tables from, named by the project's conventions (`pk_<table>`,
`uq_<table>_<columns>`, `fk_<table>_<column>_<target>`, `ix_<table>_<columns>`), so that each
migration reads as the schema it makes. Released migrations call these: what a call produces
must never change (add a new helper instead); `tests/server/test_migrations.py` checks the
result against the models.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op


def integer(name: str, *, null: bool = False) -> sa.Column[Any]:
    """An integer column."""
    return sa.Column(name, sa.Integer(), nullable=null)


def string(name: str, length: int, *, null: bool = False) -> sa.Column[Any]:
    """A string column of at most `length` characters."""
    return sa.Column(name, sa.String(length=length), nullable=null)


def text(name: str, *, null: bool = False) -> sa.Column[Any]:
    """A text column of any length."""
    return sa.Column(name, sa.Text(), nullable=null)


def boolean(name: str, *, null: bool = False) -> sa.Column[Any]:
    """A yes/no column."""
    return sa.Column(name, sa.Boolean(), nullable=null)


def json(name: str, *, null: bool = False) -> sa.Column[Any]:
    """A JSON column."""
    return sa.Column(name, sa.JSON(), nullable=null)


def binary(name: str, *, null: bool = False) -> sa.Column[Any]:
    """A bytes column."""
    return sa.Column(name, sa.LargeBinary(), nullable=null)


def moment(name: str, *, null: bool = False) -> sa.Column[Any]:
    """An aware UTC time (`UTCDateTime` in the models)."""
    return sa.Column(name, sa.DateTime(timezone=True), nullable=null)


def false_for_existing_rows(name: str) -> sa.Column[Any]:
    """A yes/no column added to a table with rows: each of them gets false."""
    return sa.Column(name, sa.Boolean(), server_default=sa.false(), nullable=False)


def created_at() -> sa.Column[Any]:
    """When the row was written."""
    return moment("created_at")


def created_and_updated() -> tuple[sa.Column[Any], sa.Column[Any]]:
    """When the row was written, and when it last changed."""
    return moment("created_at"), moment("updated_at")


def game_id(table: str) -> tuple[sa.Column[Any], sa.ForeignKeyConstraint]:
    """The Station game the row belongs to (`game_id`); the game's deletion takes the row."""
    return integer("game_id"), references(table, "game_id", "station_games")


def user_id(table: str, *, optional: bool = False) -> tuple[sa.Column[Any], Any]:
    """The account the row belongs to (`user_id`): the account's deletion takes the row, or,
    where `optional`, only empties the column."""
    ondelete = "SET NULL" if optional else "CASCADE"
    return integer("user_id", null=optional), references(
        table, "user_id", "users", ondelete=ondelete
    )


def primary_key(table: str, *columns: str) -> sa.PrimaryKeyConstraint:
    """The table's primary key over `columns`."""
    return sa.PrimaryKeyConstraint(*columns, name=_named(f"pk_{table}"))


def unique(table: str, *columns: str) -> sa.UniqueConstraint:
    """A unique constraint over `columns`."""
    return sa.UniqueConstraint(*columns, name=_named(f"uq_{table}_{'_'.join(columns)}"))


def references(
    table: str, column: str, target: str, *, ondelete: str = "CASCADE"
) -> sa.ForeignKeyConstraint:
    """`column` refers to a row of `target` (by its id); deleting that row does `ondelete`."""
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], name=_named(f"fk_{table}_{column}_{target}"), ondelete=ondelete
    )


def create_with_id(table: str, *items: Any) -> None:
    """Create a table whose primary key is an integer `id`, its first column."""
    op.create_table(table, integer("id"), *items, primary_key(table, "id"))


def index(table: str, *columns: str, name: str | None = None) -> None:
    """Create an index over `columns`; `name` only where an old one breaks the convention."""
    op.create_index(name or _index_name(table, columns), table, list(columns), unique=False)


def drop_index(table: str, *columns: str, name: str | None = None) -> None:
    """Drop the index `index` made over `columns`."""
    op.drop_index(name or _index_name(table, columns), table_name=table)


def add_columns(table: str, *columns: sa.Column[Any]) -> None:
    """Add `columns` to a table (SQLite copies the table in batch mode)."""
    with op.batch_alter_table(table, schema=None) as batch_op:
        for column in columns:
            batch_op.add_column(column)


def drop_columns(table: str, *names: str) -> None:
    """Drop the columns `names` from a table, in that order."""
    with op.batch_alter_table(table, schema=None) as batch_op:
        for name in names:
            batch_op.drop_column(name)


class Index:
    """An index a `Table` has over `columns`; `name` only where an old one breaks the convention."""

    def __init__(self, *columns: str, name: str | None = None) -> None:
        self.columns = columns
        self.name = name


class Table:
    """A table a migration creates: its columns and constraints (`items`), its primary key
    (`key`, an integer `id` column put first by default) and its indexes. Creating it again
    (down and up in one process) is safe: Alembic copies columns that a table already holds."""

    def __init__(
        self,
        name: str,
        *items: Any,
        key: tuple[str, ...] = ("id",),
        indexes: Sequence[Index] = (),
    ) -> None:
        self.name = name
        self.items = items
        self.key = key
        self.indexes = indexes


def create_tables(tables: Sequence[Table]) -> None:
    """Create `tables` in their order (parents first), each followed by its indexes."""
    for table in tables:
        if table.key == ("id",):
            create_with_id(table.name, *table.items)
        else:
            op.create_table(table.name, *table.items, primary_key(table.name, *table.key))
        for each in table.indexes:
            index(table.name, *each.columns, name=each.name)


def drop_tables(tables: Sequence[Table]) -> None:
    """Drop what `create_tables` made, in reverse order (children first)."""
    for table in reversed(tables):
        for each in reversed(table.indexes):
            drop_index(table.name, *each.columns, name=each.name)
        op.drop_table(table.name)


def creating(*tables: Table) -> tuple[Callable[[], None], Callable[[], None]]:
    """The `upgrade` and `downgrade` of a migration that only creates `tables`."""

    def upgrade() -> None:
        create_tables(tables)

    def downgrade() -> None:
        drop_tables(tables)

    return upgrade, downgrade


def _named(name: str) -> sa.schema.conv:
    # What `op.f` gives, without needing a running migration: a `Table` is declared at import.
    return sa.schema.conv(name)


def _index_name(table: str, columns: tuple[str, ...]) -> str:
    return f"ix_{table}_{'_'.join(columns)}"
