"""One bot level on every side at every table size (6-10): the game's balance as bots play it.

`deaddrop station balance` runs the simulator (`simulate.simulate`) once per size with the same
level for the Station, the Ring and, at 8 and 10, the Defector, and prints one table.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from deaddrop.engine.station.roles import ROLE_TABLE
from deaddrop.progress import progress_bar
from deaddrop.station_sim.simulate import has_defector, process_pool, simulate

SIZES = tuple(sorted(ROLE_TABLE))
"""Every table size the rules deal (S1): 6 to 10 players."""


def balance(
    bot: str,
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """The `simulate --json` object of each table size, `bot` on every side.

    `progress(players, done)` is called after each game. UnknownLevel for a level that does
    not exist, before any game is played.
    """
    results = []
    pool = process_pool(jobs)  # one pool for every size: workers start once
    try:
        for players in SIZES:
            defector = bot if has_defector(players) else None

            def advance(done: int, players: int = players) -> None:
                if progress is not None:
                    progress(players, done)

            report = simulate(players, games, seed, bot, bot, defector, pool=pool, progress=advance)
            results.append(report.to_json())
    finally:
        if pool is not None:
            pool.shutdown()
    return results


def balance_with_progress(
    bot: str, games: int, seed: int, *, show: bool, jobs: int = 1
) -> list[dict[str, Any]]:
    """`balance`, with a rich progress bar on stderr when `show` (stdout is a terminal)."""
    if not show:
        return balance(bot, games, seed, jobs=jobs)
    bar = progress_bar()
    with bar:
        task = bar.add_task(f"{bot} on every side", total=games * len(SIZES))

        def advance(players: int, done: int) -> None:
            played = SIZES.index(players) * games + done
            bar.update(task, completed=played, description=f"{bot}, {players} players")

        return balance(bot, games, seed, jobs=jobs, progress=advance)


def show_progress() -> bool:
    """Whether to draw a progress bar: only for a person watching (stdout is a terminal)."""
    return sys.stdout.isatty()


def wide_console() -> Console:
    """stdout: the terminal's width, or wide enough for a whole row in a pipe or a file."""
    return Console(width=None if sys.stdout.isatty() else 160)


COLUMNS = (
    "players",
    "games",
    "Station\nwins",
    "Station rate\n[95% interval]",
    "Ring\nwins",
    "Ring rate\n[95% interval]",
    "Defector's\nown wins",
    "mean\ndays",
    "reach\nDay 10",
    "games/s",
)


def _rate(result: dict[str, Any], side: str) -> str:
    low, high = result["ci95"][side]
    return f"{result['win_rate'][side]:.1%} [{100 * low:.1f}, {100 * high:.1f}]"


def balance_row(result: dict[str, Any]) -> list[str]:
    """One table size's figures, as the table prints them."""
    games = result["games"]
    defector = "—"
    if result["bots"]["defector"] is not None:
        defector = f"{result['defector_wins']} ({result['defector_wins'] / games:.1%})"
    return [
        str(result["players"]),
        str(games),
        str(result["wins"]["station"]),
        _rate(result, "station"),
        str(result["wins"]["ring"]),
        _rate(result, "ring"),
        defector,
        f"{result['mean_days']:.2f}",
        f"{result['day10_share']:.1%}",
        f"{result['games_per_s']:,.1f}",
    ]


def print_balance(
    bot: str, seed: int, results: Sequence[dict[str, Any]], console: Console | None = None
) -> None:
    """The table: one row per table size."""
    console = console or wide_console()
    table = Table(
        title=f"{bot} on every side, {results[0]['games']} games a size, seed {seed}",
        title_justify="left",
    )
    for column in COLUMNS:
        table.add_column(column, justify="right")
    for result in results:
        table.add_row(*balance_row(result))
    console.print(table)
