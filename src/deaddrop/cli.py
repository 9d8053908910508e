"""`deaddrop …`: the command line. Each game registers its own subcommands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from deaddrop.commands import bench as bench_commands
from deaddrop.commands import cards as cards_commands
from deaddrop.commands import serve as serve_commands
from deaddrop.commands import station as station_commands
from deaddrop.commands import worker as worker_commands

Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]
REGISTRARS: tuple[Registrar, ...] = (
    serve_commands.register,
    worker_commands.register,
    station_commands.register,
    cards_commands.register,
    bench_commands.register,
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every game's subcommands."""
    parser = argparse.ArgumentParser(prog="deaddrop", description="Dead Drop: two spy games.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in REGISTRARS:
        register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its handler returns the process exit status."""
    args = build_parser().parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
