"""`access_*`: the only way a request gets hold of a Cards table (DESIGN.md).

A table someone may not see answers 404, exactly as a table that does not exist: an outsider
learns nothing of a private table, not even that it exists.
"""

from __future__ import annotations

from dataclasses import dataclass

from litestar.exceptions import NotFoundException
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from deaddrop.server.cards.identity import Who
from deaddrop.server.cards.models import CardsSeat, CardsTable

NOT_FOUND = "There is no such table, or you are not seated at it."


@dataclass
class TableContext:
    """A table as one person may reach it."""

    table: CardsTable
    """The table row."""
    seats: list[CardsSeat]
    """Every seat, in seat order."""
    mine: CardsSeat | None
    """The seat this person holds; None for a watcher of a public table."""

    @property
    def seat(self) -> int | None:
        """The engine seat index of this person, or None."""
        return None if self.mine is None else self.mine.seat


async def _table_by(
    db: AsyncSession, column: InstrumentedAttribute[str], value: str
) -> CardsTable | None:
    if not value or len(value) > 64:
        return None
    return await db.scalar(select(CardsTable).where(column == value))


async def seats_of(db: AsyncSession, table: CardsTable, *, fresh: bool = False) -> list[CardsSeat]:
    """The table's seats in order; `fresh` reloads seats this session read before."""
    query = select(CardsSeat).where(CardsSeat.table_id == table.id).order_by(CardsSeat.seat)
    if fresh:
        query = query.execution_options(populate_existing=True)
    rows = await db.scalars(query)
    return list(rows)


async def _context(db: AsyncSession, table: CardsTable, who: Who) -> TableContext:
    seats = await seats_of(db, table)
    mine = next((seat for seat in seats if who.known and who.holds(seat)), None)
    return TableContext(table, seats, mine)


async def access_table_for_seat(db: AsyncSession, table_id: str, who: Who) -> TableContext:
    """The table for someone holding one of its seats; else 404."""
    table = await _table_by(db, CardsTable.public_id, table_id)
    if table is None:
        raise NotFoundException(NOT_FOUND)
    context = await _context(db, table, who)
    if context.mine is None:
        raise NotFoundException(NOT_FOUND)
    return context


async def access_table_for_watcher(db: AsyncSession, table_id: str, who: Who) -> TableContext:
    """The table for a seat holder, or for anyone when the table is public; else 404."""
    table = await _table_by(db, CardsTable.public_id, table_id)
    if table is None:
        raise NotFoundException(NOT_FOUND)
    context = await _context(db, table, who)
    # C12: a private table shows nothing to someone without a seat.
    if context.mine is None and not table.public:
        raise NotFoundException(NOT_FOUND)
    return context


async def access_table_by_invite(db: AsyncSession, token: str, who: Who) -> TableContext:
    """The table an invite link names (to take a free seat); else 404."""
    table = await _table_by(db, CardsTable.invite_token, token)
    if table is None:
        raise NotFoundException("This invitation is not valid. Ask your friend for a new link.")
    return await _context(db, table, who)
