"""`deaddrop station …`: adjudicate scenarios, benchmark the Pouch, write random games, simulate,
weigh the balance at every table size, and time the bot levels."""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from deaddrop.commands.json_input import JsonInputError, read_json
from deaddrop.engine.station.pouch import advance
from deaddrop.engine.station.scenario import (
    ScenarioError,
    adjudicate,
    export_scenario,
    run_scenario,
)
from deaddrop.engine.station.state import State

BIRD_PLAYERS = [f"player{i}" for i in range(1, 11)]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `station adjudicate`, `bench`, `random-games`, `simulate`, `balance`, `bench-bots`."""
    station = commands.add_parser("station", help="Station: the hidden-role game")
    sub = station.add_subparsers(dest="station_command", required=True, metavar="COMMAND")

    adjudicate_cmd = sub.add_parser("adjudicate", help="adjudicate a scenario file (or -)")
    adjudicate_cmd.add_argument("file", help="a scenario JSON file, or - for standard input")
    adjudicate_cmd.set_defaults(handler=run_adjudicate)

    bench = sub.add_parser("bench", help="adjudicate every scenario in DIR and print speed")
    bench.add_argument("directory", type=Path)
    bench.add_argument("--rounds", type=int, default=5)
    bench.add_argument("--seconds", type=float, default=1.0, help="length of one round")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(handler=run_bench)

    games = sub.add_parser("random-games", help="write random legal games as scenario files")
    games.add_argument("directory", type=Path)
    games.add_argument("--games", type=int, default=20)
    games.add_argument("--players", type=int, default=10, choices=range(6, 11))
    games.add_argument("--seed", type=int, default=1)
    games.set_defaults(handler=run_random_games)

    simulate = sub.add_parser("simulate", help="bot levels play many games; win rates and speed")
    simulate.add_argument("--players", type=int, default=8, choices=range(6, 11))
    simulate.add_argument("--station", default="random", metavar="BOT", help="the Station's level")
    simulate.add_argument("--ring", default="random", metavar="BOT", help="the Ring's level")
    simulate.add_argument(
        "--defector", default=None, metavar="BOT", help="the Defector's level (default: --station)"
    )
    simulate.add_argument("--games", type=_positive, default=100)
    _add_run_options(simulate)
    simulate.set_defaults(handler=run_simulate)
    _register_balance(sub)


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options `simulate` and `balance` share: the seed, JSON, jobs and a plot."""
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--jobs", type=_positive, default=1, help=JOBS_HELP)
    parser.add_argument(
        "--plot", type=Path, metavar="FILE", help="also draw the win rates (.png or .svg)"
    )


def _register_balance(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `station balance` and `station bench-bots`."""
    balance = sub.add_parser("balance", help="one bot level on every side at 6 to 10 players")
    balance.add_argument("--bots", required=True, metavar="BOT", help="the level of every seat")
    balance.add_argument("--games", type=_positive, required=True, help="games a table size")
    _add_run_options(balance)
    balance.set_defaults(handler=run_balance)

    bench = sub.add_parser("bench-bots", help="each bot level's decision time and games/s")
    bench.add_argument("--players", type=int, default=10, choices=range(6, 11))
    bench.add_argument("--games", type=_positive, default=20, help="games a level a round")
    bench.add_argument("--rounds", type=_positive, default=3)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument(
        "--levels", metavar="A,B,...", help="levels to time (default: every level, random first)"
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(handler=run_bench_bots)


JOBS_HELP = "processes to play games in (the results do not depend on it)"


def _positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def run_adjudicate(args: argparse.Namespace) -> int:
    """Print the adjudication; exit 2 with one line on stderr for an invalid scenario."""
    try:
        scenario = read_json(args.file)
    except JsonInputError as error:
        print(f"scenario: {error}", file=sys.stderr)
        return 2
    try:
        result = adjudicate(scenario)
    except ScenarioError as error:
        print(error.line, file=sys.stderr)
        return 2
    print(json.dumps(result, indent=1))
    return 0


def _pouches(scenario: Any) -> int:
    """How many Pouches a scenario resolves (0 when it is invalid)."""
    try:
        return len(run_scenario(scenario)[0].history)
    except ScenarioError:
        return 0


def run_bench(args: argparse.Namespace) -> int:
    """Adjudicate every scenario in rounds, by the engine and by the plain adjudicator in turn;
    print the median round's games/s and Pouches/s of each."""
    from deaddrop.benchmarks.plain_station import PlainRefusal, adjudicate_plain

    files = sorted(args.directory.glob("*.json"))
    if not files:
        print(f"no scenario files in {args.directory}", file=sys.stderr)
        return 2
    try:
        scenarios = [read_json(str(path)) for path in files]  # parsed once
    except JsonInputError as error:
        print(f"scenario: {error}", file=sys.stderr)
        return 2
    pouches_per_pass = sum(_pouches(s) for s in scenarios)
    game_rates, plain_rates = [], []
    for _ in range(args.rounds):  # in turn, so that a busy moment weighs on both alike
        game_rates.append(_round_rate(adjudicate, ScenarioError, scenarios, args.seconds))
        plain_rates.append(_round_rate(adjudicate_plain, PlainRefusal, scenarios, args.seconds))
    games, plain = statistics.median(game_rates), statistics.median(plain_rates)
    pouches = games * pouches_per_pass / len(scenarios)
    if args.json:
        result = {
            "games_per_s": round(games, 1),
            "pouches_per_s": round(pouches, 1),
            "plain_games_per_s": round(plain, 1),
            "engine_to_plain": round(games / plain, 3),
        }
        print(json.dumps(result))
        return 0
    alone = statistics.median(_pouch_alone_rates(scenarios, args.rounds, args.seconds))
    print(f"{len(scenarios)} scenarios, {pouches_per_pass} Pouches a pass, {args.rounds} rounds")
    print(f"games/s                     median {games:10,.0f}   rounds {_span(game_rates)}")
    print(f"Pouches/s                   median {pouches:10,.0f}")
    print(f"Pouches/s, resolution alone median {alone:10,.0f}   ({alone / pouches:.1f}x)")
    print(f"plain adjudicator, games/s  median {plain:10,.0f}   rounds {_span(plain_rates)}")
    print(f"the engine's rate is {games / plain:.2f}x the plain adjudicator's")
    return 0


def _round_rate(
    adjudicator: Any, refusal: type[Exception], scenarios: list[Any], seconds: float
) -> float:
    """Games/s of one round of about `seconds`: whole passes over every scenario."""
    passes, began = 0, time.perf_counter()
    while True:
        for scenario in scenarios:
            with contextlib.suppress(refusal):
                adjudicator(scenario)
        passes += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return passes * len(scenarios) / elapsed


def _pouch_alone_rates(scenarios: list[Any], rounds: int, seconds: float) -> list[float]:
    """Pouches/s of the resolution alone, on the states each scenario reaches at its deadlines."""
    deadlines: list[State] = []
    for scenario in scenarios:
        with contextlib.suppress(ScenarioError):
            run_scenario(scenario, deadlines=deadlines)
    rates = []
    for _ in range(rounds):
        count, began = 0, time.perf_counter()
        while time.perf_counter() - began < seconds:
            for state in deadlines:
                advance(state)
            count += len(deadlines)
        rates.append(count / (time.perf_counter() - began))
    return rates


def _span(rates: list[float]) -> str:
    """The lowest and highest round, for a feel of the noise."""
    return f"{min(rates):,.0f} … {max(rates):,.0f}"


def run_random_games(args: argparse.Namespace) -> int:
    """Play random legal games and write each as a scenario file with its adjudication."""
    from deaddrop.bots.station.random_bot import random_game

    args.directory.mkdir(parents=True, exist_ok=True)
    for number in range(args.games):
        seed = args.seed + number
        state, _ = random_game(BIRD_PLAYERS[: args.players], seed)
        scenario = export_scenario(state, name=f"random {args.players}-player game, seed {seed}")
        scenario["expect"] = adjudicate(scenario)
        path = args.directory / f"random-{args.players}p-{seed:05d}.json"
        path.write_text(json.dumps(scenario, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.games} games to {args.directory}")
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    """Play bot levels against each other; print the results, or one JSON object (--json)."""
    from deaddrop.bots.station.registry import UnknownLevel
    from deaddrop.station_sim.plot import plot_format, plot_win_rates
    from deaddrop.station_sim.simulate import simulate

    try:
        if args.plot is not None:
            plot_format(args.plot)  # refused before any game is played
        report = simulate(
            args.players,
            args.games,
            args.seed,
            args.station,
            args.ring,
            args.defector,
            jobs=args.jobs,
        )
    except (UnknownLevel, ValueError) as error:
        print(f"station simulate: {error}", file=sys.stderr)
        return 2
    if args.plot is not None:
        try:
            plot_win_rates([report.to_json()], args.plot)
        except OSError as error:
            print(f"station simulate: --plot: {error.strerror}: {args.plot}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(report.to_json()))
        return 0
    for line in _simulate_lines(report.to_json()):
        print(line)
    return 0


def _simulate_lines(result: dict[str, Any]) -> list[str]:
    """The report in words: each side's wins with its interval, the Defector, length, speed."""
    games, bots = result["games"], result["bots"]
    levels = f"Station {bots['station']}, Ring {bots['ring']}"
    if bots["defector"] is not None:
        levels += f", Defector {bots['defector']}"
    lines = [f"{result['players']} players, {games} games ({levels})"]
    lines.append(f"{'side':<9}{'wins':>7}{'win rate':>10}   95% interval")
    for side in ("station", "ring"):
        low, high = result["ci95"][side]
        rate = result["win_rate"][side]
        wins = result["wins"][side]
        lines.append(f"{side.title():<9}{wins:>7}{rate:>10.1%}   {low:.1%} – {high:.1%}")
    if bots["defector"] is not None:
        share = result["defector_wins"] / games
        lines.append(f"Defector's own wins (S25): {result['defector_wins']} ({share:.1%})")
    lines.append(f"mean game length: {result['mean_days']:.2f} days")
    lines.append(f"games reaching the Day 10 Pouch: {result['day10_share']:.1%}")
    lines.append(f"games/s: {result['games_per_s']:,.1f}")
    return lines


def run_balance(args: argparse.Namespace) -> int:
    """Play one level on every side at every table size; print the table or one JSON object."""
    from deaddrop.bots.station.registry import UnknownLevel, level
    from deaddrop.station_sim import balance
    from deaddrop.station_sim.plot import plot_format, plot_win_rates

    try:
        level(args.bots)
        if args.plot is not None:
            plot_format(args.plot)  # refused before any game is played
    except (UnknownLevel, ValueError) as error:
        print(f"station balance: {error}", file=sys.stderr)
        return 2
    show = balance.show_progress() and not args.json
    results = balance.balance_with_progress(
        args.bots, args.games, args.seed, show=show, jobs=args.jobs
    )
    if args.plot is not None:
        try:
            plot_win_rates(results, args.plot)
        except OSError as error:
            print(f"station balance: --plot: {error.strerror}: {args.plot}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps({"bots": args.bots, "seed": args.seed, "sizes": results}))
    else:
        balance.print_balance(args.bots, args.seed, results)
    return 0


def run_bench_bots(args: argparse.Namespace) -> int:
    """Time every seat-day's bot call of each level; print the table or one JSON object."""
    from deaddrop.bots.station.registry import UnknownLevel
    from deaddrop.station_sim.bench_bots import bench_bots, bench_lines, default_levels

    levels = args.levels.split(",") if args.levels else default_levels()
    try:
        benches = bench_bots(levels, args.players, args.games, args.seed, args.rounds)
    except UnknownLevel as error:
        print(f"station bench-bots: {error}", file=sys.stderr)
        return 2
    results = [bench.to_json() for bench in benches]
    if args.json:
        print(json.dumps({"levels": results}))
        return 0
    for line in bench_lines(results):
        print(line)
    return 0
