"""Speed figures for Cards: random games/s, posterior updates/s, bots' decision times.

Benchmarks print figures; they never pass or fail on time (DESIGN.md).
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deaddrop.bots.cards.base import CardsBot
from deaddrop.bots.cards.play import Table, play_game
from deaddrop.bots.cards.random_bot import RandomBot
from deaddrop.bots.cards.registry import make_bot
from deaddrop.engine.cards.actions import Action
from deaddrop.engine.cards.state import Setup
from deaddrop.engine.core.rng import Rng
from deaddrop.stats import percentile


def random_games_per_s(players: int, seconds: float, runs: int, seed: int = 1) -> list[float]:
    """Games/s of random bots (view per decision included), one figure per run of `seconds`."""

    def games() -> Iterator[int]:
        rng = Rng.from_seed(seed)
        while True:
            table_seed, rng = rng.next_u64()
            play_game(
                Setup(players, table_seed), [RandomBot(table_seed + s) for s in range(players)]
            )
            yield 1

    return _rates(games(), seconds, runs)


def engine_games_per_s(players: int, seconds: float, runs: int, seed: int = 1) -> list[float]:
    """Games/s of uniformly random play on the state itself, no views: the engine alone."""
    import random

    from deaddrop.engine.cards.legal import legal_actions
    from deaddrop.engine.cards.rounds import start
    from deaddrop.engine.cards.rules import apply

    def games() -> Iterator[int]:
        pick = random.Random(seed)
        while True:
            state = start(Setup(players, pick.getrandbits(32)))
            while state.pending is not None:
                options = legal_actions(state)
                state, _ = apply(state, options[pick.randrange(len(options))])
            yield 1

    return _rates(games(), seconds, runs)


def _rates(work: Iterator[int], seconds: float, runs: int) -> list[float]:
    """Units of `work` per second (each step yields how many it did), one figure per run."""
    out: list[float] = []
    for _ in range(runs):
        done, started = 0, time.perf_counter()
        while True:
            done += next(work)
            elapsed = time.perf_counter() - started
            if elapsed >= seconds:
                break
        out.append(done / elapsed)
    return out


def _round_logs(players: int, games: int, seed: int) -> list[tuple[int, list[Mapping[str, Any]]]]:
    """(seat, entries) of every round of random games, as each seat's view logged them."""
    out: list[tuple[int, list[Mapping[str, Any]]]] = []
    for game in range(games):
        bots = [RandomBot(seed + game * players + s) for s in range(players)]
        table = Table(Setup(players, seed + game), bots)
        table.run()
        for seat in range(players):
            log = table.view(seat)["log"]
            starts = [i for i, entry in enumerate(log) if entry["kind"] == "deal"]
            for begin, end in zip(starts, [*starts[1:], len(log)], strict=True):
                out.append((seat, log[begin:end]))
    return out


def posterior_updates_per_s(
    players: int, seconds: float, runs: int, model: str, seed: int = 1
) -> list[float]:
    """Log entries folded into a seat's exact posterior per second, one figure per run."""
    from deaddrop.engine.cards.inference import empty_belief, update

    rounds = _round_logs(players, 20, seed)

    def updates() -> Iterator[int]:
        for seat, entries in itertools.cycle(rounds):
            belief = empty_belief(seat, players, model)
            for entry in entries:
                belief = update(belief, (entry,))
            yield len(entries)

    return _rates(updates(), seconds, runs)


class _Timed:
    """A bot whose every decision is timed: wall time, and the thread's CPU time if asked."""

    def __init__(self, bot: CardsBot, times: list[float], cpu: list[float] | None) -> None:
        self.bot, self.times, self.cpu = bot, times, cpu

    def choose(self, view: Mapping[str, Any]) -> Action:
        started, cpu_started = time.perf_counter(), time.thread_time()
        action = self.bot.choose(view)
        self.times.append(time.perf_counter() - started)
        if self.cpu is not None:
            self.cpu.append(time.thread_time() - cpu_started)
        return action


def decision_times(
    name: str, players: int, games: int, seed: int = 1, cpu: list[float] | None = None
) -> list[float]:
    """Seconds per decision of one bot `name`, the other seats played by OTHERS[name] in turn.

    With `cpu`, each decision's CPU time is appended to it too: on a loaded machine the wall
    time measures the queue for the cores as much as the bot, its CPU time the bot's work.
    """
    times: list[float] = []
    others = OTHERS.get(name, ("expert",))
    for game in range(games):
        timed_seat = game % players
        deciders: list[Any] = []
        for seat in range(players):
            if seat == timed_seat:
                deciders.append(_Timed(make_bot(name, seed + game), times, cpu))
            else:
                other = others[seat % len(others)]
                deciders.append(make_bot(other, seed + game * players + seat))
        play_game(Setup(players, seed + game), deciders)
    return times


OTHERS: dict[str, tuple[str, ...]] = {
    "expert": ("heuristic", "random"),
    "master": ("expert", "heuristic"),
    "ismcts": ("expert", "heuristic"),
}
"""Who sits with the timed bot: the search bots are timed against the expert first."""
SEARCHERS = ("master", "ismcts")
"""The search bots whose decision times the bench prints beside the expert's."""


def expert_decision_times(players: int, games: int, seed: int = 1) -> list[float]:
    """Seconds per expert decision, over games of one expert against heuristic and random."""
    return decision_times("expert", players, games, seed)


@dataclass(slots=True)
class Figures:
    """One player count's figures."""

    players: int
    """Seats per game."""
    random_games_per_s: float
    """Median over runs."""
    engine_games_per_s: float
    """Median over runs, random play on the state without views."""
    updates_per_s: dict[str, float]
    """Median posterior updates/s by inference model."""
    expert_median_ms: float
    """Median expert decision time."""
    expert_p99_ms: float
    """99th-percentile expert decision time."""
    expert_decisions: int
    """Expert decisions timed."""
    searchers: dict[str, tuple[float, float, int, float]]
    """Each search bot's median ms, p99 ms, decisions timed and p99 of CPU ms."""

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON."""
        return {
            "players": self.players,
            "random_games_per_s": self.random_games_per_s,
            "engine_games_per_s": self.engine_games_per_s,
            "posterior_updates_per_s": self.updates_per_s,
            "expert_decision_ms": {"median": self.expert_median_ms, "p99": self.expert_p99_ms},
            "expert_decisions": self.expert_decisions,
            "search_decision_ms": {
                name: {"median": median, "p99": p99, "decisions": n, "p99_cpu": p99_cpu}
                for name, (median, p99, n, p99_cpu) in self.searchers.items()
            },
        }


def _summary(times: list[float]) -> tuple[float, float, int]:
    ordered = sorted(times)
    return 1000 * statistics.median(ordered), 1000 * percentile(ordered, 99), len(ordered)


def _search_summary(name: str, players: int, games: int) -> tuple[float, float, int, float]:
    """A search bot's median ms, p99 ms, decisions timed and p99 of its CPU ms."""
    cpu: list[float] = []
    median, p99, timed = _summary(decision_times(name, players, games, cpu=cpu))
    return median, p99, timed, 1000 * percentile(sorted(cpu), 99)


def bench(
    players: Sequence[int],
    seconds: float,
    runs: int,
    expert_games: int,
    models: Sequence[str],
    search_games: int = 4,
) -> list[Figures]:
    """Every figure for each player count."""
    out: list[Figures] = []
    for count in players:
        games = statistics.median(random_games_per_s(count, seconds, runs))
        engine = statistics.median(engine_games_per_s(count, seconds, runs))
        updates = {
            model: statistics.median(posterior_updates_per_s(count, seconds, runs, model))
            for model in models
        }
        expert = _summary(expert_decision_times(count, expert_games))
        searchers = {name: _search_summary(name, count, search_games) for name in SEARCHERS}
        out.append(Figures(count, games, engine, updates, *expert, searchers))
    return out
