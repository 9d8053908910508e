"""Subcommands for cards (being built; see the open issues)."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add nothing yet."""
