"""A Cards table as the hosting layer sees it: its engine state from storage (its action log
replayed through the engine protocol, cached: server/hosting/states.py), its journal stream,
its writer lock and its writes (server/hosting/transaction.py)."""

from __future__ import annotations

import asyncio

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.cards import ENGINE, Action, Options, Setup, State, action_from_json
from deaddrop.server.cards.models import CardsAction, CardsTable
from deaddrop.server.cards.refusals import from_illegal
from deaddrop.server.hosting.states import ActionLog, StateCache, Stored, replay_log
from deaddrop.server.hosting.transaction import GameWrite, Hosted

STATES: StateCache[State] = StateCache(128)
"""The newest committed state of the tables played lately."""
_LOG = ActionLog(CardsAction.action, CardsAction.table_id, CardsAction.seq)
CARDS: Hosted[State, Action] = Hosted(ENGINE, STATES, from_illegal)
"""Cards as the hosting layer sees it."""


def stream_of(table: CardsTable) -> str:
    """The journal stream of a table."""
    return CARDS.stream(table.public_id)


def write_to(db: AsyncSession, table: CardsTable) -> GameWrite[State, Action]:
    """A write to `table` in `db`'s transaction (journaled, committed, woken as one)."""
    return GameWrite(db, CARDS, table.public_id, table)


def setup_of(table: CardsTable) -> Setup:
    """The engine setup a table plays."""
    options = Options(grab_face_down=table.grab_face_down, tokens_to_win=table.tokens_to_win)
    return Setup(players=table.players, seed=table.seed, options=options)


async def load_actions(db: AsyncSession, table: CardsTable) -> list[Action]:
    """The table's action log."""
    rows = await db.scalars(
        select(CardsAction.action).where(CardsAction.table_id == table.id).order_by(CardsAction.seq)
    )
    return [action_from_json(row) for row in rows]


async def load_state(db: AsyncSession, table: CardsTable) -> State:
    """The engine state at the table's version (replayed, cached: server/hosting/states.py)."""

    stored = Stored(table.id, table.public_id, table.version)
    return await replay_log(db, ENGINE, STATES, _LOG, stored, setup_of(table))


def writer_lock(public_id: str) -> asyncio.Lock:
    """This process's lock for writing one table (server/hosting/writers.py)."""
    return CARDS.writer_lock(public_id)
