"""What every open page of a game needs to know after a batch of its journal, read once per
batch in this process (`Batch.once`), never once per reader: who still holds each seat, the
game's status and spectator link, and each new Floor message with its place in the panel."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.state import State
from deaddrop.server.live.fanout import Batch, patiently
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.turns import Turns
from deaddrop.server.station.chat.channels import PAGE
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.game.store import load_state

Sessions = async_sessionmaker[AsyncSession]
T = TypeVar("T")


@dataclass(frozen=True)
class Reads:
    """How live pages read the database: the app's sessions, taking turns (`fanout.Turns`)."""

    sessions: Sessions
    turns: Turns

    @contextlib.asynccontextmanager
    async def session(self, *, shared: bool = False) -> AsyncIterator[AsyncSession]:
        """A short session in a turn of its own, or of the game's (`shared`)."""
        async with self.turns.reading(shared=shared), self.sessions() as db:
            yield db


@dataclass(frozen=True)
class GameNow:
    """A game as it stands after a batch (`status` None: the game is gone)."""

    status: str | None
    spectator_token: str | None = None
    holders: tuple[tuple[int, int | None], ...] = ()
    """(seat row id, the user holding it) for every seat row."""

    def still_theirs(self, context: GameContext) -> bool:
        """Whether the page's reader may still read it: the seat is still theirs (S40), the
        spectator link it came through still open."""
        if self.status is None:
            return False
        if context.seat_row is None:
            token = context.game.spectator_token
            return token is not None and self.spectator_token == token
        holder = dict(self.holders).get(context.seat_row.id)
        return context.user is not None and holder == context.user.id


@dataclass(frozen=True)
class FloorPost:
    """A new Floor message (S28: public) and how an open Floor panel takes it: appended,
    appended with the oldest shown one dropped (`older`: the new first message), or, where
    the panel changes shape (its first message, its first page-back link), re-rendered."""

    message: StationMessage
    state: State
    fits: bool
    older: int | None


async def game_now(reads: Reads, game_id: int) -> GameNow:
    """The game's status, link and seat holders, in one short session."""
    async with reads.session(shared=True) as db:
        game = await db.get(StationGame, game_id)
        if game is None:
            return GameNow(None)
        seats = await db.execute(
            select(StationSeat.id, StationSeat.user_id).where(StationSeat.game_id == game_id)
        )
        holders = tuple((row.id, row.user_id) for row in seats)
        return GameNow(game.status, game.spectator_token, holders)


def is_floor_post(row: LiveEvent) -> bool:
    """Whether a journal row is a message on the Floor (public by S28)."""
    return row.kind == "message" and row.public and row.payload.get("channel") == "floor"


async def floor_post(reads: Reads, game_id: int, message_id: int) -> FloorPost | None:
    """A Floor message and its place in the panel, in one short session (None: gone)."""
    async with reads.session(shared=True) as db:
        message = await db.get(StationMessage, message_id)
        game = await db.get(StationGame, game_id)
        if message is None or game is None:
            return None
        state = await load_state(db, game)
        # The panel shows the newest PAGE messages (chat/channels.history): count back from
        # this one to see whether the panel only grows, or also drops its oldest.
        newest = list(
            await db.scalars(
                select(StationMessage.id)
                .where(
                    StationMessage.game_id == game_id,
                    StationMessage.channel == Channel.FLOOR.value,
                    StationMessage.id <= message_id,
                )
                .order_by(StationMessage.id.desc())
                .limit(PAGE + 2)
            )
        )
    shown = len(newest)
    if shown == 1 or shown == PAGE + 1:  # the panel's first message, its first back link
        return FloorPost(message, state, fits=False, older=None)
    return FloorPost(message, state, fits=True, older=newest[PAGE - 1] if shown > PAGE else None)


async def read_once(batch: Batch, key: Hashable, what: str, read: Callable[[], Awaitable[T]]) -> T:
    """`read()` once per batch for every page of this process (`Batch.once`), tried again
    while it fails (`fanout.patiently`)."""
    return await batch.once(key, lambda: patiently(what, read))


async def now_of(batch: Batch, reads: Reads, game_id: int) -> GameNow:
    """The game after this batch, read once for every page of this process."""
    return await read_once(
        batch, ("station-now", game_id), f"game {game_id} now", lambda: game_now(reads, game_id)
    )


async def floor_post_of(
    batch: Batch, reads: Reads, game_id: int, message_id: int
) -> FloorPost | None:
    """A Floor message of this batch, read once for every page of this process."""
    return await read_once(
        batch,
        ("station-floor", message_id),
        f"floor post {message_id}",
        lambda: floor_post(reads, game_id, message_id),
    )
