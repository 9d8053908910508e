"""How fast the belief is, on views of simulated games (`python -m` this module).

It records every (view, posts) a seat decided from in games between the `random` and the
`heuristic` bots (S42: nothing else), then times `belief_of` on each: median and p99 per table
size, wall-clock and CPU, beside the brute-force enumeration it is checked against (the
baseline, at the sizes where it is fast enough to run).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deaddrop.bots.station import heuristic, random_bot
from deaddrop.bots.station.base import DayBot, DayPlan
from deaddrop.bots.station.belief import belief_with
from deaddrop.bots.station.belief_brute import brute_posterior
from deaddrop.bots.station.belief_exact import exact_posterior
from deaddrop.bots.station.known import Known, read
from deaddrop.bots.station.likelihood import DEFAULT
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.claims import Post
from deaddrop.engine.station.roles import Faction
from deaddrop.station_sim.simulate import play_to_end, seen_by

Seen = tuple[Mapping[str, Any], list[Post]]


def game_views(players: int, seed: int, bot: DayBot) -> tuple[list[Seen], dict[str, str]]:
    """Every (view, posts) a seat decided from, every day, then every seat's view at the end;
    and the game's true roles (for checks only: no belief ever sees them before S26)."""
    got: list[Seen] = []

    def recording(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
        got.append((seen, list(posts)))
        return bot(seen, posts, rng)

    state, chat = play_to_end(players, seed, dict.fromkeys(Faction, recording))
    for seat in range(players):
        seen = seen_by(state, seat)
        got.append((seen, list(chat.posts_for(state, seat, seen))))
    return got, {seat.codename: seat.role for seat in state.seats}


def mixed_views(players: int, games: int, first_seed: int = 0) -> list[Seen]:
    """The views of `games` games, heuristic and random bots in turn."""
    views: list[Seen] = []
    for g in range(games):
        bot = heuristic.plan_day if g % 2 else random_bot.plan_day
        views.extend(game_views(players, first_seed + g, bot)[0])
    return views


def timings(knowns: Sequence[Known], belief: Callable[[Known], object]) -> dict[str, float]:
    """Median and p99 in milliseconds, wall-clock and CPU, of one belief per Known."""
    wall: list[float] = []
    cpu: list[float] = []
    for known in knowns:
        w0, c0 = time.perf_counter(), time.process_time()
        belief(known)
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return {
        "median_ms": 1000 * statistics.median(wall),
        "p99_ms": 1000 * _p99(wall),
        "cpu_median_ms": 1000 * statistics.median(cpu),
        "cpu_p99_ms": 1000 * _p99(cpu),
    }


def _p99(xs: Sequence[float]) -> float:
    """The 99th percentile (nearest rank)."""
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> None:
    """Print the belief's timings at each table size, the brute force beside it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 10])
    parser.add_argument("--views", type=int, default=300, help="views per size (at least)")
    parser.add_argument("--brute-up-to", type=int, default=8, help="largest size for brute force")
    args = parser.parse_args(argv)
    for players in args.sizes:
        views: list[Seen] = []
        seed = 1000 * players
        while len(views) < args.views:
            views.extend(mixed_views(players, 2, seed))
            seed += 2
        knowns = [read(seen, posts) for seen, posts in views]
        line = {"players": players, "views": len(knowns)}
        exact = timings(knowns, lambda k: belief_with(k, DEFAULT, exact_posterior))
        line |= {f"exact_{k}": round(v, 2) for k, v in exact.items()}
        if players <= args.brute_up_to:
            brute = timings(knowns, lambda k: belief_with(k, DEFAULT, brute_posterior))
            line |= {f"brute_{k}": round(v, 2) for k, v in brute.items()}
        print(line, flush=True)


if __name__ == "__main__":
    main()
