"""`deaddrop cards …`: the card game from the command line.

Each subcommand is one `_add_*` function that adds its parser to the `cards` group and one
`run_*` handler returning the exit status; `register` lists them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TypeAlias

from deaddrop.commands.json_input import JsonInputError, read_json
from deaddrop.engine.cards.record_play import replay_record
from deaddrop.engine.core.errors import IllegalAction

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

EXIT_INVALID = 2
"""Exit status for an invalid record (scenarios/cards/README.md)."""


def register(commands: Subparsers) -> None:
    """Add the `cards` group and its subcommands."""
    cards = commands.add_parser("cards", help="Cards: the deduction card game")
    sub = cards.add_subparsers(dest="cards_command", required=True, metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(sub)


def _add_replay(sub: Subparsers) -> None:
    replay = sub.add_parser(
        "replay", help="play a game record (FILE or - for stdin) and print its outcome"
    )
    replay.add_argument("file", metavar="FILE", help="a game record JSON file, or - for stdin")
    replay.set_defaults(handler=run_replay)


def _players(text: str) -> int:
    value = int(text)
    if value not in (2, 3, 4):
        raise argparse.ArgumentTypeError("Cards is for 2 to 4 players (C2)")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _add_play(sub: Subparsers) -> None:
    play = sub.add_parser("play", help="play seat 0 against bots in this terminal")
    play.add_argument("--players", type=_players, default=3, help="2 to 4 seats (default 3)")
    play.add_argument(
        "--bots",
        default="heuristic",
        help="bots for seats 1, 2, … in turn: random, heuristic, ismcts, expert, master "
        "(default heuristic)",
    )
    play.add_argument("--seed", type=int, default=None, help="the game's seed (default: random)")
    play.add_argument(
        "--notebook", action="store_true", help="show your exact posterior over The Drop"
    )
    play.add_argument(
        "--grab-face-down", action="store_true", help="a grabbed pair stays hidden (C8)"
    )
    play.add_argument("--tokens", type=_positive, default=3, help="tokens to win (default 3)")
    play.set_defaults(handler=run_play)


def _add_simulate(sub: Subparsers) -> None:
    simulate = sub.add_parser("simulate", help="bots play many games; win rates and speed")
    simulate.add_argument("--players", type=_players, default=3, help="2 to 4 seats")
    simulate.add_argument(
        "--bots", default="expert,heuristic,random", help="comma-separated bots, seated in turn"
    )
    simulate.add_argument("--games", type=_positive, default=100)
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument("--grab-face-down", action="store_true", help="table option (C8)")
    simulate.add_argument("--tokens", type=_positive, default=3, help="tokens to win")
    simulate.add_argument(
        "--turn-cap", type=_positive, default=None, help="turns after which a round is voided"
    )
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    simulate.set_defaults(handler=run_simulate)


def _add_bench(sub: Subparsers) -> None:
    bench = sub.add_parser("bench", help="print Cards speed figures (never a pass/fail)")
    bench.add_argument("--players", default="2,3,4", help="player counts, e.g. 2,3,4")
    bench.add_argument("--runs", type=_positive, default=5, help="runs per figure (median)")
    bench.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    bench.add_argument("--expert-games", type=_positive, default=20, help="games timing the expert")
    bench.add_argument(
        "--search-games", type=_positive, default=4, help="games timing master and ismcts"
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(handler=run_bench)


SUBCOMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    _add_replay,
    _add_play,
    _add_simulate,
    _add_bench,
)
"""Every `cards` subcommand, in help order."""


def run_replay(args: argparse.Namespace) -> int:
    """Print the record's outcome JSON (exit 0), or one error line on stderr (exit 2)."""
    try:
        data = read_json(args.file)
    except JsonInputError as error:
        print(f"record: {error} (record)", file=sys.stderr)
        return EXIT_INVALID
    try:
        result = replay_record(data)
    except IllegalAction as error:  # a RecordError: one line naming round, turn and rule
        print(error, file=sys.stderr)
        return EXIT_INVALID
    print(json.dumps(result, indent=1))
    return 0


def _bot_names(text: str) -> list[str] | None:
    """The bot names of --bots, or None after printing why they are refused."""
    from deaddrop.bots.cards.registry import expert_available, parse_bot_names

    try:
        names = parse_bot_names(text)
    except ValueError as error:
        print(f"--bots: {error}", file=sys.stderr)
        return None
    if "expert" in names and not expert_available():
        print("--bots: the expert bot is not installed yet", file=sys.stderr)
        return None
    return names


def run_play(args: argparse.Namespace) -> int:
    """Play a game in the terminal: 0 when it is over, 1 if the person left, 2 on bad input."""
    import random

    from rich.console import Console

    from deaddrop.cards_terminal.session import play_in_terminal
    from deaddrop.engine.cards.state import Options

    bots = _bot_names(args.bots)
    if bots is None:
        return EXIT_INVALID
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    options = Options(grab_face_down=args.grab_face_down, tokens_to_win=args.tokens)
    return play_in_terminal(
        Console(), args.players, bots, seed, options=options, notebook=args.notebook
    )


def run_simulate(args: argparse.Namespace) -> int:
    """Play bots against each other and print the results table, or one JSON object."""
    from deaddrop.bots.cards.play import DEFAULT_TURN_CAP
    from deaddrop.cards_sim.report import print_report, run_with_progress
    from deaddrop.engine.cards.state import Options

    bots = _bot_names(args.bots)
    if bots is None:
        return EXIT_INVALID
    options = Options(grab_face_down=args.grab_face_down, tokens_to_win=args.tokens)
    turn_cap = args.turn_cap or DEFAULT_TURN_CAP
    report = run_with_progress(
        args.players, bots, args.games, args.seed, options, turn_cap, show=not args.json
    )
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print_report(report)
    return 0


def run_bench(args: argparse.Namespace) -> int:
    """Print random games/s, posterior updates/s and expert decision times side by side."""
    from deaddrop.cards_sim.bench import bench
    from deaddrop.cards_sim.report import print_bench

    try:
        players = [_players(part) for part in args.players.split(",")]
    except (ValueError, argparse.ArgumentTypeError):
        print("--players: a comma-separated list of 2, 3 and 4", file=sys.stderr)
        return EXIT_INVALID
    from deaddrop.engine.cards.inference import MODELS

    figures = bench(players, args.seconds, args.runs, args.expert_games, MODELS, args.search_games)
    if args.json:
        print(json.dumps({"figures": [f.to_json() for f in figures]}))
    else:
        print_bench(figures, args.runs, args.seconds)
    return 0
