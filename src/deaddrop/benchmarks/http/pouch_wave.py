"""The Pouch wave: N started games all due at once, resolved by `deaddrop worker --once`.

The games are made through the app as players make them (ten accounts host and join them all,
five votes each); then every deadline is moved a second into the past, as the clock would
move it, and the workers are timed from their start to their exit. Each game must end with
exactly one Pouch record, for Day 1, and stand on Day 2.
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

from litestar.testing import AsyncTestClient
from sqlalchemy import func, select, update

from deaddrop.benchmarks.http.browser import Browser, seeding_app
from deaddrop.benchmarks.http.databases import server_env
from deaddrop.benchmarks.http.seed import Say, create_accounts, migrate, start_game
from deaddrop.benchmarks.http.servers import pinned
from deaddrop.server.app import create_app
from deaddrop.server.db.engine import create_engine, create_sessionmaker
from deaddrop.server.settings import Settings
from deaddrop.server.station.game.models import StationGame, StationPouch

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


async def seed_due_games(settings: Settings, games: int, say: Say = print) -> None:
    """Migrate, make `games` started games of ten with five votes each, make them all due."""
    await migrate(settings)
    names = await create_accounts(settings, 10, "wave")
    app = seeding_app(create_app(settings, pouch_runner=False, mailer=False))
    async with AsyncTestClient(app) as client:
        people = [Browser(client) for _ in range(10)]
        for browser, name in zip(people, names, strict=True):
            await browser.log_in(name)
        for number in range(games):
            game_id = await start_game(people, f"Wave {number + 1}")
            roster = (await people[0].get(f"/api/games/{game_id}")).json()["view"]["roster"]
            for seat in range(VOTES):
                vote = {"vote": roster[(seat + 1) % len(roster)]["codename"]}
                await people[seat].script(f"/api/games/{game_id}/vote", vote)
            if (number + 1) % 200 == 0:
                say(f"  wave: seeded {number + 1}/{games} games")
    await _make_due(settings)


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
    started = monotonic()
    processes = []
    for number in range(workers):
        core = None if first_core is None else (first_core + number) % cores
        command = pinned([sys.executable, "-m", "deaddrop.cli", "worker", "--once"], core)
        processes.append(
            subprocess.Popen(
                command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
            )
        )
    outputs = [process.communicate()[0] for process in processes]
    seconds = monotonic() - started
    for number, output in enumerate(outputs):  # the runner logs every Pouch: kept, not shown
        (var_dir / f"worker-{number}.log").write_text(output, encoding="utf-8")
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
