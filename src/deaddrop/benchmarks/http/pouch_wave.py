"""The Pouch wave: N started games all due at once, resolved by `deaddrop worker --once`.

The games are made by the app's own service functions, as the pages make them (ten accounts
host and join them all, five votes each); then every deadline is moved a second into the past,
as the clock would move it, and the workers are timed from their start to their exit. Each
game must end with exactly one Pouch record, for Day 1, and stand on Day 2.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from time import monotonic

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.benchmarks.http.databases import server_env
from deaddrop.benchmarks.http.seed import Say, create_accounts, far_pouch_time, migrate
from deaddrop.benchmarks.http.servers import pinned
from deaddrop.engine.station import CastVote
from deaddrop.server.accounts.service import find_user
from deaddrop.server.clock import SystemClock
from deaddrop.server.db.engine import create_engine, create_sessionmaker
from deaddrop.server.settings import Settings
from deaddrop.server.station.game.access import access_game_for_host, access_game_for_player
from deaddrop.server.station.game.models import StationGame, StationPouch
from deaddrop.server.station.lobby.service import NewGame, do_create_game, do_join, do_start
from deaddrop.server.station.play.service import do_act

VOTES = 5
_RESOLVED = re.compile(r"Resolved (\d+) Pouch")


@dataclass(frozen=True)
class Wave:
    """One timed wave."""

    games: int
    workers: int
    seconds: float
    resolved: int
    """What the workers said they resolved, summed."""
    exactly_once: bool
    """Every game has one Pouch record (Day 1) and stands on Day 2, and `resolved == games`."""


async def seed_due_games(settings: Settings, games: int, say: Say = print, *, had: int = 0) -> None:
    """Migrate, add `games` started games of ten with five votes each to the `had` games a
    previous call made there, and make them all due.

    Through the service functions the pages call (create, join, start, vote), without the
    HTTP round trips: thousands of games are needed, and the wave measures the worker alone.
    """
    await migrate(settings)
    names = [f"wave{number:05d}" for number in range(10)]
    if not had:
        await create_accounts(settings, len(names), "wave")
    engine = create_engine(settings)
    try:
        sessionmaker = create_sessionmaker(engine)
        for number in range(had, had + games):
            async with sessionmaker() as db:
                await _due_game(db, names, f"Wave {number + 1}")
            if (number + 1) % 500 == 0:
                say(f"  wave: seeded {number + 1} games")
    finally:
        await engine.dispose()
    await _make_due(settings)


async def _due_game(db: AsyncSession, names: list[str], title: str) -> None:
    """One game: the first account hosts, the nine others join, started, five seats vote."""
    users = [user for name in names if (user := await find_user(db, name)) is not None]
    pouch = far_pouch_time(datetime.now(UTC))
    minute = int(pouch[:2]) * 60 + int(pouch[3:])
    game = await do_create_game(db, users[0], NewGame(title, minute, "UTC"))
    for user in users[1:]:
        await do_join(db, game, user)
    clock = SystemClock()
    await do_start(db, await access_game_for_host(db, game.public_id, users[0]), clock)
    for seat in range(VOTES):
        context = await access_game_for_player(db, game.public_id, users[seat])
        await do_act(db, context, CastVote(seat, (seat + 1) % len(users)), clock=clock)


async def _make_due(settings: Settings) -> None:
    engine = create_engine(settings)
    try:
        async with create_sessionmaker(engine)() as db:
            due = datetime.now(UTC) - timedelta(seconds=1)
            await db.execute(update(StationGame).values(deadline=due))
            await db.commit()
    finally:
        await engine.dispose()


def run_workers(
    settings: Settings, var_dir: Path, workers: int, first_core: int | None
) -> tuple[float, int]:
    """Start `workers` × `deaddrop worker --once` at once; (seconds until all exited, resolved)."""
    env = server_env(settings, var_dir)
    cores = os.cpu_count() or 1
    logs = [var_dir / f"worker-{number}.log" for number in range(workers)]
    started = monotonic()
    processes = []
    # Each worker writes its log (a line per Pouch) to a file: through a pipe read one worker
    # after the other, a second worker blocks on its full pipe until the first one exits.
    for number, log in enumerate(logs):
        core = None if first_core is None else (first_core + number) % cores
        command = pinned([sys.executable, "-m", "deaddrop.cli", "worker", "--once"], core)
        with log.open("w", encoding="utf-8") as out:
            processes.append(
                subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
            )
    for process in processes:
        process.wait()
    seconds = monotonic() - started
    outputs = [log.read_text(encoding="utf-8") for log in logs]
    if any(process.returncode for process in processes):
        raise RuntimeError(f"a worker failed:\n{''.join(outputs)}")
    return seconds, sum(int(m.group(1)) for out in outputs for m in _RESOLVED.finditer(out))


async def resolved_exactly_once(settings: Settings, games: int) -> bool:
    """Whether every game has exactly one Pouch record, for Day 1, and stands on Day 2."""
    engine = create_engine(settings)
    try:
        async with create_sessionmaker(engine)() as db:
            records = await db.execute(
                select(StationPouch.game_id, func.count(), func.min(StationPouch.day)).group_by(
                    StationPouch.game_id
                )
            )
            per_game = {game: (count, day) for game, count, day in records}
            days = list(await db.scalars(select(StationGame.day)))
    finally:
        await engine.dispose()
    once = len(per_game) == games and all(v == (1, 1) for v in per_game.values())
    return once and len(days) == games and all(day == 2 for day in days)
