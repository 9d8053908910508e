"""`deaddrop cards …`: the card game from the command line.

Each subcommand is one `_add_*` function that adds its parser to the `cards` group and one
`run_*` handler returning the exit status; `register` lists them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeAlias

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


SUBCOMMANDS: tuple[Callable[[Subparsers], None], ...] = (_add_replay,)
"""Every `cards` subcommand, in help order."""


def read_json(source: str) -> Any:
    """Parse JSON from a path, or from standard input when the source is "-"."""
    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    return json.loads(text)


def run_replay(args: argparse.Namespace) -> int:
    """Print the record's outcome JSON (exit 0), or one error line on stderr (exit 2)."""
    try:
        data = read_json(args.file)
    except OSError as error:
        print(f"record: cannot read {args.file}: {error.strerror} (record)", file=sys.stderr)
        return EXIT_INVALID
    except (ValueError, RecursionError) as error:
        print(f"record: not valid JSON: {error} (record)", file=sys.stderr)
        return EXIT_INVALID
    try:
        result = replay_record(data)
    except IllegalAction as error:  # a RecordError: one line naming round, turn and rule
        print(error, file=sys.stderr)
        return EXIT_INVALID
    print(json.dumps(result, indent=1))
    return 0
