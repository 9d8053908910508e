"""How fast the expert decides a day, on views of expert games (`python -m` this module).

It records every (view, posts) a seat decided from in games where every seat is the `expert`
(S42: nothing else), then times a whole day decision of the `expert` level on each, beside the
`heuristic` level on the same views (the baseline): median and p99 per table size, wall-clock
and CPU (the machine may be shared, so CPU time is the steadier figure).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from deaddrop.bots.station import expert, heuristic
from deaddrop.bots.station.base import DayBot
from deaddrop.bots.station.belief_bench import Seen, game_views
from deaddrop.engine.core.rng import Rng


def day_timings(views: Sequence[Seen], bot: DayBot) -> dict[str, float]:
    """Median and p99 in milliseconds, wall-clock and CPU, of one day decision per view."""
    wall: list[float] = []
    cpu: list[float] = []
    for index, (seen, posts) in enumerate(views):
        w0, c0 = time.perf_counter(), time.process_time()
        bot(seen, posts, Rng.from_seed(index))
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return {
        "median_ms": round(1000 * statistics.median(wall), 2),
        "p99_ms": round(1000 * _percentile(wall, 0.99), 2),
        "cpu_median_ms": round(1000 * statistics.median(cpu), 2),
        "cpu_p99_ms": round(1000 * _percentile(cpu, 0.99), 2),
    }


def _percentile(xs: Sequence[float], q: float) -> float:
    """The q-th quantile by nearest rank."""
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def expert_views(players: int, at_least: int) -> list[Seen]:
    """The (view, posts) of living seats in expert games at one size, until there are enough."""
    views: list[Seen] = []
    seed = 2000 * players
    while len(views) < at_least:
        recorded, _ = game_views(players, seed, expert.plan_day)
        views.extend((seen, posts) for seen, posts in recorded if not seen["over"])
        seed += 1
    return views


def main(argv: Sequence[str] | None = None) -> None:
    """Print the expert's day-decision timings at each size, the heuristic's beside them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 10])
    parser.add_argument("--views", type=int, default=300, help="views per size (at least)")
    args = parser.parse_args(argv)
    levels: dict[str, DayBot] = {"expert": expert.plan_day, "heuristic": heuristic.plan_day}
    for players in args.sizes:
        views = expert_views(players, args.views)
        line: dict[str, object] = {"players": players, "views": len(views)}
        for name, bot in levels.items():
            line |= {f"{name}_{k}": v for k, v in day_timings(views, bot).items()}
        print(line, flush=True)


if __name__ == "__main__":
    main()
