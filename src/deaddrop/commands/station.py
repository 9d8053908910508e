"""`deaddrop station …`: adjudicate scenarios, benchmark the Pouch, write random games."""

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
from deaddrop.engine.station.state import StationState

BIRD_PLAYERS = [f"player{i}" for i in range(1, 11)]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `station adjudicate`, `station bench` and `station random-games`."""
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
    """Adjudicate every scenario in rounds; print the median round's games/s and Pouches/s."""
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
    game_rates, pouch_rates = [], []
    for _ in range(args.rounds):
        passes, began = 0, time.perf_counter()
        while True:
            for scenario in scenarios:
                with contextlib.suppress(ScenarioError):
                    adjudicate(scenario)
            passes += 1
            elapsed = time.perf_counter() - began
            if elapsed >= args.seconds:
                break
        game_rates.append(passes * len(scenarios) / elapsed)
        pouch_rates.append(passes * pouches_per_pass / elapsed)
    games, pouches = statistics.median(game_rates), statistics.median(pouch_rates)
    if args.json:
        print(json.dumps({"games_per_s": round(games, 1), "pouches_per_s": round(pouches, 1)}))
        return 0
    alone = statistics.median(_pouch_alone_rates(scenarios, args.rounds, args.seconds))
    print(f"{len(scenarios)} scenarios, {pouches_per_pass} Pouches a pass, {args.rounds} rounds")
    print(f"games/s                     median {games:10,.0f}   rounds {_span(game_rates)}")
    print(f"Pouches/s                   median {pouches:10,.0f}   rounds {_span(pouch_rates)}")
    print(f"Pouches/s, resolution alone median {alone:10,.0f}   ({alone / pouches:.1f}x)")
    return 0


def _pouch_alone_rates(scenarios: list[Any], rounds: int, seconds: float) -> list[float]:
    """Pouches/s of the resolution alone, on the states each scenario reaches at its deadlines."""
    deadlines: list[StationState] = []
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
