"""Play many Station games between bot levels, one level per side, and sum up who wins.

Seats. Game g's table seed comes from one generator seeded with the run's seed, and the deal
draws from it (S4): which role sits at which join position, and so who is the earliest-joined
Ring heir (S11), changes from game to game. The bots of a day act in an order shuffled every
day, so no seat always sees the others' live votes (S21) before it votes.

Bots. A seat's level is chosen by its faction (the Station's, the Ring's, the Defector's). Each
seat decides from `view(state, seat)` after a JSON round trip and the posts it may read, never
from the state (S42). Each game has its own chat (`chat.SimChat`): a bot's posts go through the
channels' rules and the S43 claim check, and each bot reads exactly what its seat may read.
Every save goes through `apply`, the same checks as a person's.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from itertools import repeat
from multiprocessing import get_context
from typing import Any

from deaddrop.bots.station.base import DayBot
from deaddrop.bots.station.registry import level
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.actions import MarkDone, ResolvePouch
from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.roles import FACTION, LAST_DAY, ROLE_TABLE, Faction
from deaddrop.engine.station.setup import Setup, start
from deaddrop.engine.station.state import State
from deaddrop.engine.station.views import view
from deaddrop.station_sim.chat import SimChat
from deaddrop.stats import wilson

SIDES = ("station", "ring", "defector")


def has_defector(players: int) -> bool:
    """Whether a table of this size deals a Defector (S1: 8 and 10 players)."""
    return "defector" in ROLE_TABLE[players]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one game ended."""

    winner: str
    """station or ring (S24)."""
    defector_won: bool
    """The Defector's personal win (S25)."""
    days: int
    """The day of the last Pouch."""


def seen_by(state: State, seat: int) -> Mapping[str, Any]:
    """What a bot gets: a JSON round-trip copy of the seat's view, nothing shared with the state."""
    loaded: Mapping[str, Any] = json.loads(json.dumps(view(state, seat)))
    return loaded


def play_game(players: int, seed: int, deciders: Mapping[Faction, DayBot]) -> Outcome:
    """One game from a table seed, each seat played by its faction's bot level."""
    state, _ = play_to_end(players, seed, deciders)
    assert state.winner is not None
    return Outcome(state.winner, state.defector_won, state.history[-1].day)


def play_to_end(
    players: int, seed: int, deciders: Mapping[Faction, DayBot]
) -> tuple[State, SimChat]:
    """One whole game: the final state and its chat."""
    rng = Rng.from_seed(seed ^ 0x5EED)  # the bots' and the day order's draws, not the deal's
    names = tuple(f"player{i}" for i in range(1, players + 1))
    state = start(Setup(names, seed))
    chat = SimChat()
    bots: list[tuple[DayBot, Rng]] = []
    for place in state.seats:
        bot_seed, rng = rng.next_u64()
        bots.append((deciders[FACTION[place.role]], Rng.from_seed(bot_seed)))
    while not state.over:
        order, rng = rng.shuffled(state.living())
        for seat in order:
            state = play_seat(state, chat, seat, bots)
        state, _ = apply(state, ResolvePouch())
    return state, chat


def play_seat(state: State, chat: SimChat, seat: int, bots: list[tuple[DayBot, Rng]]) -> State:
    """One bot's day: it decides from its view and posts, posts, then saves (done mark last)."""
    decide, own = bots[seat]
    seen = seen_by(state, seat)
    plan, own = decide(seen, chat.posts_for(state, seat, seen), own)
    bots[seat] = (decide, own)
    for post in plan.posts:
        chat.post(state, seat, Channel(post.channel), post.text)  # S28, S29, S43
    for action in sorted(plan.actions, key=lambda a: isinstance(a, MarkDone)):
        if action.seat != seat:
            raise ValueError(f"a bot saved for another seat: {action!r}")
        state, _ = apply(state, action)  # S42: a bot's save is checked like anyone's
    return state


@dataclass(slots=True)
class Report:
    """The sum of a run; every figure comes from these exact counts."""

    players: int
    games: int
    bots: dict[str, str | None]
    """The level of each side; the Defector's is None at a table without one."""
    station_wins: int = 0
    ring_wins: int = 0
    defector_wins: int = 0
    total_days: int = 0
    day10_games: int = 0
    """Games that reached the Day 10 Pouch."""
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The `station simulate --json` object: exactly these keys."""
        games = self.games
        station_ci, ring_ci = wilson(self.station_wins, games), wilson(self.ring_wins, games)
        return {
            "players": self.players,
            "games": games,
            "bots": dict(self.bots),
            "wins": {"station": self.station_wins, "ring": self.ring_wins},
            "defector_wins": self.defector_wins,
            "win_rate": {"station": self.station_wins / games, "ring": self.ring_wins / games},
            "ci95": {"station": list(station_ci), "ring": list(ring_ci)},
            "mean_days": self.total_days / games,
            "day10_share": self.day10_games / games,
            "games_per_s": games / self.seconds if self.seconds > 0 else 0.0,
        }


Levels = tuple[str, str, str | None]
"""The Station's, the Ring's and the Defector's level names (None: the Station's)."""


def deciders_for(levels: Levels) -> Mapping[Faction, DayBot]:
    """Each faction's bot: the Defector plays its own level or else the Station's."""
    station, ring, defector = levels
    return {
        Faction.STATION: level(station),
        Faction.RING: level(ring),
        Faction.NEUTRAL: level(defector or station),
    }


def _play_one(players: int, seed: int, levels: Levels) -> Outcome:
    """One game in a worker process (a top-level function, so that it can be sent there)."""
    return play_game(players, seed, deciders_for(levels))


def process_pool(jobs: int) -> ProcessPoolExecutor | None:
    """A pool of `jobs` worker processes, or None to play in this one (jobs <= 1).

    Workers are spawned, not forked: a progress bar's thread may be running here.
    """
    return ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) if jobs > 1 else None


def outcomes(
    players: int, seeds: Sequence[int], levels: Levels, pool: Executor | None
) -> Iterator[Outcome]:
    """Each table seed's game, in the seeds' order, in this process or in the pool's.

    A game depends on its seed and the levels alone, so the outcomes are the same either way.
    """
    if pool is None:
        deciders = deciders_for(levels)
        for seed in seeds:
            yield play_game(players, seed, deciders)
        return
    chunk = max(1, len(seeds) // 32)  # small enough to show progress, big enough to pay
    yield from pool.map(_play_one, repeat(players), seeds, repeat(levels), chunksize=chunk)


def simulate(
    players: int,
    games: int,
    seed: int,
    station: str,
    ring: str,
    defector: str | None = None,
    *,
    jobs: int = 1,
    pool: Executor | None = None,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Play `games` games at `players` seats in `jobs` processes (or in `pool`'s); UnknownLevel
    for a level that does not exist.

    The Defector plays the Station's level unless `defector` names one; a Defector level for a
    table without a Defector is a ValueError. The report's counts do not depend on `jobs`.
    """
    if games < 1:
        raise ValueError("play at least one game")
    if defector is not None and not has_defector(players):
        raise ValueError(f"a table of {players} has no Defector (only 8 and 10 players do)")
    defector_level = (defector or station) if has_defector(players) else None
    levels = (station, ring, defector_level)
    deciders_for(levels)  # an unknown level is refused here, before any game is played
    report = Report(players, games, {"station": station, "ring": ring, "defector": defector_level})
    rng = Rng.from_seed(seed)
    seeds = []
    for _ in range(games):
        table_seed, rng = rng.next_u64()
        seeds.append(table_seed)
    started = time.perf_counter()
    own = process_pool(jobs) if pool is None else None
    try:
        report = _tally(report, outcomes(players, seeds, levels, pool or own), progress)
    finally:
        if own is not None:
            own.shutdown()
    report.seconds = time.perf_counter() - started
    return report


def _tally(
    report: Report, played: Iterator[Outcome], progress: Callable[[int], None] | None
) -> Report:
    """Add every outcome to the report's counts, calling `progress` after each game."""
    for game, outcome in enumerate(played):
        if outcome.winner == "station":
            report.station_wins += 1
        else:
            report.ring_wins += 1
        report.defector_wins += outcome.defector_won
        report.total_days += outcome.days
        report.day10_games += outcome.days == LAST_DAY
        if progress is not None:
            progress(game + 1)
    return report
