"""The home page's list of my games, each with what it is waiting for."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import State
from deaddrop.engine.station.options import operation_options
from deaddrop.engine.station.roles import MAX_PLAYERS, MIN_PLAYERS
from deaddrop.server.accounts.models import User
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.game.store import load_state

LIST_MAX = 50
_ORDER = {"running": 0, "paused": 1, "lobby": 2, "over": 3}
_WINNERS = {"station": "the Station won", "ring": "the Ring won"}


@dataclass(frozen=True)
class GameSummary:
    """One line of "My games"."""

    title: str
    """The game's title."""
    url: str
    """Where to go: the lobby, or the game's first tab."""
    status: str
    """lobby, running, paused or over."""
    waiting_for: str
    """What the game waits for, from this person's point of view."""
    needs_me: bool
    """Whether it waits for something from this person."""
    practice: bool = False
    """A practice game against bots (marked "Practice" in the list)."""


async def my_games(db: AsyncSession, user: User) -> list[GameSummary]:
    """The games this person holds a seat in: running first, then paused, lobbies, finished."""
    rows = (
        await db.execute(
            select(StationGame, StationSeat.seat)
            .join(StationSeat, StationSeat.game_id == StationGame.id)
            .where(StationSeat.user_id == user.id)
            .order_by(StationGame.updated_at.desc())
            .limit(LIST_MAX)
        )
    ).all()
    summaries = [
        replace(await _summary(db, user, game, seat), practice=game.practice) for game, seat in rows
    ]
    return sorted(summaries, key=lambda s: _ORDER.get(s.status, 9))


async def _summary(
    db: AsyncSession, user: User, game: StationGame, seat: int | None
) -> GameSummary:
    if game.status == "lobby" or seat is None:
        return _lobby(user, game)
    state = await load_state(db, game)
    url = f"/games/{game.public_id}/cable"
    if state.over:
        winner = _WINNERS.get(state.winner or "", "it ended")
        return GameSummary(game.title, url, "over", f"Over: {winner}.", False)
    if game.status == "paused":
        return GameSummary(game.title, url, "paused", "Paused by the host.", False)
    waiting, needs_me = _waiting(state, seat)
    when = _when(game.deadline, user.time_zone)
    return GameSummary(game.title, url, "running", f"Day {state.day}: {waiting}{when}", needs_me)


def _lobby(user: User, game: StationGame) -> GameSummary:
    url = f"/games/{game.public_id}/lobby"
    joined = game.lobby_size
    if user.id != game.host_id:
        text = f"In the lobby: waiting for the host to start ({joined} joined)."
    elif joined < MIN_PLAYERS:
        text = f"In the lobby: waiting for players ({joined} joined, {MIN_PLAYERS} needed)."
    else:
        text = f"In the lobby: ready for you to start ({joined} of at most {MAX_PLAYERS})."
    return GameSummary(game.title, url, "lobby", text, user.id == game.host_id and joined >= 6)


def _waiting(state: State, seat: int) -> tuple[str, bool]:
    """What this seat still has to save today (S7: unsaved means No action or Abstain)."""
    if not state.alive[seat]:
        return "you are burned; the Pouch goes on without you", False
    options = operation_options(state, seat)
    missing = []
    can_operate = options.ability_targets or options.order_targets
    if can_operate and state.operations[seat] is None:
        missing.append("your Operation")
    if state.votes[seat] is None:
        missing.append("your vote")
    if missing:
        return "waiting for " + " and ".join(missing), True
    return "your saves are in; waiting for the Pouch", False


def _when(deadline: datetime | None, zone_name: str) -> str:
    if deadline is None:
        return "."
    try:
        zone = ZoneInfo(zone_name)
    except (KeyError, ValueError):
        zone = ZoneInfo("UTC")
    local = deadline.astimezone(zone)
    return f" (Pouch {local:%a} {local.day} {local:%b}, {local:%H:%M} {local.tzname()})."
