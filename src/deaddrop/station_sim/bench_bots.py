"""How long each Station bot level takes to decide one seat's day, and games/s with each.

`deaddrop station bench-bots` plays the same games (the simulator's table seeds) with every
seat on one level, a level at a time, round after round (so that a machine's slow moment falls
on every level alike). The decision time is measured around the bot call alone: the view's
JSON copy, the chat and the engine's checks are outside it, and are in games/s.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deaddrop.bots.station.base import DayBot, DayPlan
from deaddrop.bots.station.registry import LEVELS, level
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.claims import Post
from deaddrop.engine.station.roles import Faction
from deaddrop.station_sim.simulate import play_game
from deaddrop.stats import percentile


def default_levels() -> list[str]:
    """Every registered level, `random` (the cheapest, the baseline) first."""
    return sorted(LEVELS, key=lambda name: (name != "random", list(LEVELS).index(name)))


def timed(
    bot: DayBot, seconds: list[float], clock: Callable[[], float] = time.perf_counter
) -> DayBot:
    """The level, appending the duration of each of its calls to `seconds`."""

    def decide(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
        began = clock()
        answer = bot(seen, posts, rng)
        seconds.append(clock() - began)
        return answer

    return decide


@dataclass
class LevelBench:
    """One level's figures over every round."""

    level: str
    players: int
    games: int
    """Games a round."""
    decisions: list[float] = field(default_factory=list)
    """Seconds of every seat-day's bot call, every round."""
    round_rates: list[float] = field(default_factory=list)
    """Games/s of each round."""

    def to_json(self) -> dict[str, Any]:
        """The `bench-bots --json` object of this level (times in milliseconds)."""
        ordered = sorted(self.decisions)
        return {
            "level": self.level,
            "players": self.players,
            "games": self.games,
            "rounds": len(self.round_rates),
            "seat_days": len(self.decisions) // max(1, len(self.round_rates)),
            "decision_ms": {
                "median": 1000 * statistics.median(ordered),
                "p99": 1000 * percentile(ordered, 99),
            },
            "games_per_s": statistics.median(self.round_rates),
            "games_per_s_rounds": list(self.round_rates),
        }


def _table_seeds(games: int, seed: int) -> list[int]:
    """The simulator's table seeds for a run of `games` from `seed`."""
    rng, seeds = Rng.from_seed(seed), []
    for _ in range(games):
        table_seed, rng = rng.next_u64()
        seeds.append(table_seed)
    return seeds


def bench_bots(
    levels: Sequence[str], players: int, games: int, seed: int, rounds: int
) -> list[LevelBench]:
    """Every level's figures; UnknownLevel for a level that does not exist, before any game."""
    bots = {name: level(name) for name in levels}
    seeds = _table_seeds(games, seed)
    benches = {name: LevelBench(name, players, games) for name in levels}
    for _ in range(rounds):
        for name, bot in bots.items():
            bench = benches[name]
            deciders = dict.fromkeys(Faction, timed(bot, bench.decisions))
            began = time.perf_counter()
            for table_seed in seeds:
                play_game(players, table_seed, deciders)
            bench.round_rates.append(games / (time.perf_counter() - began))
    return list(benches.values())


def bench_lines(results: Sequence[dict[str, Any]]) -> list[str]:
    """The table: a row per level, each beside the first (the baseline)."""
    first = results[0]
    base_median, base_rate = first["decision_ms"]["median"], first["games_per_s"]
    lines = [
        f"{first['players']} players, {first['games']} games a round, {first['rounds']} rounds;"
        f" decision time per seat-day, around the bot call alone",
        f"{'level':<11}{'seat-days':>10}{'median ms':>11}{'p99 ms':>9}"
        f"{'games/s':>10}   {'rounds (games/s)':<20}vs {first['level']}",
    ]
    for result in results:
        times, rate = result["decision_ms"], result["games_per_s"]
        spread = f"{min(result['games_per_s_rounds']):,.1f} … "
        spread += f"{max(result['games_per_s_rounds']):,.1f}"
        ratio = times["median"] / base_median if base_median > 0 else float("nan")
        lines.append(
            f"{result['level']:<11}{result['seat_days']:>10}{times['median']:>11.3f}"
            f"{times['p99']:>9.3f}{rate:>10,.1f}   {spread:<20}"
            f"{ratio:.1f}x the time, {rate / base_rate:.2f}x the games/s"
        )
    return lines
