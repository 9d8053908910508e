"""Play many games between bots and sum up who wins.

Seating. With P seats and B bots (in the order given), game g seats bot (i + g) mod B at
seat i. Over B consecutive games every bot sits at every seat position equally often, so no
bot profits from its seat (round 1's first seat is drawn by the table's RNG besides, C3).
When B < P a bot holds several seats in some games (3 seats, bots A,B: A B A, then B A B);
when B > P each game seats P of them in turn. Bots are told apart by their place in the list,
so "random,random" is a check that seats are fair. A bot's win rate is its wins over the
games it took part in; `fair_share` is the win rate it would have if every seat were equally
strong (its seats per game over P, averaged).

Seeds. Game g's table seed and each seat's bot seed are drawn from one generator seeded with
the run's seed, so a run is repeatable and runs with different seeds are independent.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from deaddrop.bots.cards.play import DEFAULT_TURN_CAP, play_game
from deaddrop.bots.cards.registry import make_bot
from deaddrop.engine.cards.state import Options, Setup
from deaddrop.engine.core.rng import Rng
from deaddrop.stats import wilson


def seating(bots: int, players: int, game: int) -> list[int]:
    """Which of the bots (by position in the list) sits at each seat in game `game` (from 0)."""
    return [(seat + game) % bots for seat in range(players)]


@dataclass(slots=True)
class BotTally:
    """One bot's totals over a run."""

    bot: str
    """The bot's name."""
    wins: int = 0
    """Games won by one of its seats."""
    games: int = 0
    """Games in which it held at least one seat."""
    seats: int = 0
    """Seats it held, summed over games."""
    failed_grabs: int = 0
    """Grabs that did not match The Drop (C8), summed over its seats."""

    def to_json(self, players: int) -> dict[str, Any]:
        """Its results entry: bot, wins, win_rate, ci95, then the extra counts."""
        low, high = wilson(self.wins, self.games)
        return {
            "bot": self.bot,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "ci95": [low, high],
            "games": self.games,
            "fair_share": self.seats / (players * self.games) if self.games else 0.0,
            "failed_grabs": self.failed_grabs,
        }


@dataclass(slots=True)
class Report:
    """The sum of a run."""

    players: int
    """Seats per game."""
    games: int
    """Games played."""
    seed: int
    """The run's seed."""
    tallies: list[BotTally]
    """One per bot, in the order given."""
    seconds: float = 0.0
    """Wall time spent playing."""
    rounds: int = 0
    """Rounds won by someone, over all games."""
    turns: int = 0
    """Complete turns, over all games."""
    voided_rounds: int = 0
    """Rounds voided by the turn cap (they count for nobody)."""
    abandoned: int = 0
    """Games abandoned after too many voided rounds (no winner)."""
    turn_cap: int | None = DEFAULT_TURN_CAP
    """The turn cap per round."""

    @property
    def games_per_s(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The `simulate --json` object: exactly these top-level keys."""
        return {
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "games_per_s": self.games_per_s,
            "voided_rounds": self.voided_rounds,
            "results": [tally.to_json(self.players) for tally in self.tallies],
        }


def simulate(
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    *,
    options: Options | None = None,
    turn_cap: int | None = DEFAULT_TURN_CAP,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Play `games` games of `players` seats among the named bots and tally them."""
    if not bots:
        raise ValueError("name at least one bot")
    # Tallied by position in the list: "random,random" checks that seats are fair.
    tallies = [BotTally(name) for name in bots]
    report = Report(players, games, seed, tallies, turn_cap=turn_cap)
    rng = Rng.from_seed(seed)
    started = time.perf_counter()
    for game in range(games):
        seats = seating(len(bots), players, game)
        table_seed, rng = rng.next_u64()
        deciders = []
        for index in seats:
            bot_seed, rng = rng.next_u64()
            deciders.append(make_bot(bots[index], bot_seed))
        setup = Setup(players, table_seed, options or Options())
        result = play_game(setup, deciders, turn_cap=turn_cap)
        for index in set(seats):
            tallies[index].games += 1
        for seat, index in enumerate(seats):
            tallies[index].seats += 1
            tallies[index].failed_grabs += result.failed_grabs[seat]
        if result.winner is None:
            report.abandoned += 1
        else:
            tallies[seats[result.winner]].wins += 1
        report.rounds += result.rounds
        report.turns += result.turns
        report.voided_rounds += len(result.voided_rounds)
        if progress is not None:
            progress(game + 1)
    report.seconds = time.perf_counter() - started
    return report
