"""The simulator's and the bench's output: a progress bar on stderr, tables on stdout."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from deaddrop.cards_sim.bench import Figures
from deaddrop.cards_sim.simulate import Report, simulate
from deaddrop.engine.cards.state import Options
from deaddrop.progress import progress_bar


def run_with_progress(
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: Options,
    turn_cap: int,
    *,
    show: bool = True,
) -> Report:
    """Run the simulation, with a progress bar on stderr when `show`."""
    if not show:
        return simulate(players, bots, games, seed, options=options, turn_cap=turn_cap)
    progress = progress_bar()
    with progress:
        task = progress.add_task(f"{players} players: {','.join(bots)}", total=games)

        def advance(done: int) -> None:
            progress.update(task, completed=done)

        return simulate(
            players, bots, games, seed, options=options, turn_cap=turn_cap, progress=advance
        )


def print_report(report: Report, console: Console | None = None) -> None:
    """The results table and the run's totals."""
    console = console or Console()
    table = Table(
        title=f"{report.games} games, {report.players} players, seed {report.seed}",
        title_justify="left",
    )
    for column in ("bot", "games", "wins", "win rate", "95% CI", "fair share"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    table.add_column("failed\ngrabs", justify="right")
    for entry in report.to_json()["results"]:
        low, high = entry["ci95"]
        table.add_row(
            entry["bot"],
            str(entry["games"]),
            str(entry["wins"]),
            f"{100 * entry['win_rate']:.1f}%",
            f"{100 * low:.1f}–{100 * high:.1f}%",
            f"{100 * entry['fair_share']:.1f}%",
            str(entry["failed_grabs"]),
        )
    console.print(table)
    games = max(1, report.games)
    console.print(
        f"rounds/game {report.rounds / games:.2f} · turns/game {report.turns / games:.1f} · "
        f"voided rounds {report.voided_rounds} (turn cap {report.turn_cap}) · "
        f"abandoned games {report.abandoned} · {report.games_per_s:.1f} games/s",
        highlight=False,
    )


def print_bench(figures: Sequence[Figures], runs: int, seconds: float) -> None:
    """The bench figures, one column per player count."""
    console = Console()
    table = Table(title="Cards bench (medians; figures, not pass/fail)", title_justify="left")
    table.add_column("figure")
    for f in figures:
        table.add_column(f"{f.players} players", justify="right")
    table.add_row("random-bot games/s", *(f"{f.random_games_per_s:,.0f}" for f in figures))
    table.add_row(
        "  same, engine alone (no views)", *(f"{f.engine_games_per_s:,.0f}" for f in figures)
    )
    for model in figures[0].updates_per_s if figures else ():
        table.add_row(
            f"posterior updates/s ({model})", *(f"{f.updates_per_s[model]:,.0f}" for f in figures)
        )
    table.add_row("expert decision, median ms", *(f"{f.expert_median_ms:.2f}" for f in figures))
    table.add_row("expert decision, p99 ms", *(f"{f.expert_p99_ms:.2f}" for f in figures))
    table.add_row("expert decisions timed", *(str(f.expert_decisions) for f in figures))
    for name in figures[0].searchers if figures else ():
        for column, label in ((0, "median ms"), (1, "p99 ms"), (3, "p99 CPU ms")):
            table.add_row(
                f"{name} decision, {label}",
                *(f"{f.searchers[name][column]:.2f}" for f in figures),
            )
        table.add_row(f"{name} decisions timed", *(str(f.searchers[name][2]) for f in figures))
    console.print(table)
    console.print(
        f"{runs} runs of {seconds:g} s per throughput figure; one core; "
        "a view per decision is included in games/s.",
        highlight=False,
    )
