"""A Cards table's engine state from storage (its action log replayed through the engine
protocol, cached: server/hosting/states.py), its journal stream and its writer lock."""

from __future__ import annotations

import asyncio

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.cards import ENGINE, Action, Options, Setup, State, action_from_json
from deaddrop.server.cards.models import CardsAction, CardsTable
from deaddrop.server.hosting import writers
from deaddrop.server.hosting.states import ActionLog, StateCache, Stored, replay_log
from deaddrop.server.live import journal

STATES: StateCache[State] = StateCache(128)
"""The newest committed state of the tables played lately."""
_LOG = ActionLog(CardsAction.action, CardsAction.table_id, CardsAction.seq)


def stream_of(table: CardsTable) -> str:
    """The journal stream of a table."""
    return journal.stream_name("cards", table.public_id)


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
    return writers.writer_lock("cards", public_id)
