"""A person plays seat 0 in a terminal against bots: the loop, the prompt and the summary."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.rule import Rule

from deaddrop.bots.cards.play import Decider, Table
from deaddrop.bots.cards.registry import make_bot
from deaddrop.cards_terminal.describe import Names, command_for
from deaddrop.cards_terminal.parse import ParseError, parse_action
from deaddrop.cards_terminal.parse import __doc__ as COMMANDS_HELP
from deaddrop.cards_terminal.render import (
    hint_panel,
    menu,
    notebook_panel,
    round_table,
    table_panel,
)
from deaddrop.engine.cards.actions import Action
from deaddrop.engine.cards.legal import legal_actions_for_view
from deaddrop.engine.cards.state import Options, Setup
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.phrasebook.cards import log_line

PERSON = 0
"""The person's seat."""


class Quit(Exception):
    """The person left (quit, or the input ended)."""


Notebook = Callable[[Mapping[str, Any]], tuple[dict[int, float], str]]
"""From a view, the posterior over The Drop and the model's name."""


def exact_notebook() -> Notebook | None:
    """The exact posterior of `engine.cards.inference`, or None if it is not installed."""
    try:
        from deaddrop.engine.cards.inference import (
            CONSISTENT,
            belief_from_view,
            drop_distribution,
        )
    except ImportError:
        return None

    def posterior(view: Mapping[str, Any]) -> tuple[dict[int, float], str]:
        # CONSISTENT: bots choose with a purpose, so seen choices only need to be legal.
        return drop_distribution(belief_from_view(view, CONSISTENT)), CONSISTENT

    return posterior


class TerminalPerson:
    """The person at seat 0: shows what the seat saw, lists the options, reads a choice."""

    def __init__(
        self,
        console: Console,
        read: Callable[[str], str],
        names: Names,
        notebook: Notebook | None = None,
        echo: bool = False,
    ) -> None:
        self.console = console
        self.read = read
        self.names = names
        self.notebook = notebook
        self.echo = echo  # print what was typed when input is not a terminal (a transcript)
        self._seen = 0
        self.last_decision: tuple[Mapping[str, Any], Action] | None = None
        """The view of the person's last main action or grab, and what they chose (a hint's)."""

    def catch_up(self, view: Mapping[str, Any]) -> None:
        """Print the log entries this seat has not been shown yet, with round reveals."""
        log = view["log"]
        reveals = {reveal["round"]: reveal for reveal in view["rounds"]}
        for entry in log[self._seen :]:
            if entry["kind"] == "deal":
                self.console.print(Rule(f"Round {entry['round']}"))
            self.console.print(log_line(entry, self.names), markup=False, highlight=False)
            if entry["kind"] == "round_end" and entry["round"] in reveals:
                self.console.print(round_table(reveals[entry["round"]], self.names))
        self._seen = len(log)

    def choose(self, view: Mapping[str, Any]) -> Action:
        """Show the table and the options, and read until a well-formed choice is typed."""
        self.catch_up(view)
        self.console.print(table_panel(view, self.names))
        if self.notebook is not None:
            drop, model = self.notebook(view)
            self.console.print(notebook_panel(drop, view["hand"], model))
        options = legal_actions_for_view(view)
        self.console.print(menu(options, self.names))
        while True:
            try:
                text = self.read("Your choice (number, command, help or quit): ")
            except EOFError:
                raise Quit from None
            if self.echo:
                self.console.print(text, markup=False, highlight=False)
            word = text.strip().lower()
            if word in ("quit", "exit", "q"):
                raise Quit
            if word in ("help", "h", "?"):
                self._help(options)
                continue
            try:
                action = parse_action(text, view["viewer"], options)
            except ParseError as error:
                self.console.print(f"[red]Not understood:[/red] {error}", highlight=False)
                continue
            if view["pending"]["kind"] in ("action", "grab"):
                self.last_decision = (view, action)
            return action

    def refused(self, error: IllegalAction) -> None:
        """The engine refused the choice: say why (the rule and its message)."""
        self.console.print(f"[red]Refused by rule {error.code}:[/red] {error.message}")

    def _help(self, options: Sequence[Action]) -> None:
        self.console.print((COMMANDS_HELP or "").strip(), markup=False, highlight=False)
        examples = ", ".join(command_for(option) for option in options[:4])
        self.console.print(f"For example: {examples}", markup=False, highlight=False)


def seat_bots(players: int, bots: Sequence[str]) -> dict[int, str]:
    """The bot at each seat from 1 on: the names given, in turn (cyclically)."""
    return {seat: bots[(seat - 1) % len(bots)] for seat in range(1, players)}


def play_in_terminal(
    console: Console,
    players: int,
    bots: Sequence[str],
    seed: int,
    *,
    options: Options,
    notebook: bool = False,
    read: Callable[[str], str] | None = None,
) -> int:
    """Play one game with a person at seat 0; 0 once it is over, 1 if the person left."""
    seats = seat_bots(players, bots)
    names = Names(PERSON, seats)
    posterior = exact_notebook() if notebook else None
    if notebook and posterior is None:
        console.print("[yellow]--notebook needs exact inference, which is not installed.[/]")
    person = TerminalPerson(
        console,
        read or console.input,
        names,
        posterior,
        echo=read is None and not sys.stdin.isatty(),
    )
    deciders: list[Decider] = [person]
    deciders += [make_bot(seats[seat], seed * 31 + seat) for seat in range(1, players)]
    setup = Setup(players, seed, options)
    opponents = ", ".join(f"{names(s)}" for s in range(1, players))
    console.print(f"[bold]Dead Drop: Cards[/bold] · seed {seed} · you are seat 0 · {opponents}")
    table = Table(setup, deciders)
    try:
        table.run()
    except Quit:
        console.print("You left the game.")
        return 1
    final = table.view(PERSON)
    person.catch_up(final)
    tokens = ", ".join(f"{names(s)} {n}" for s, n in enumerate(final["tokens"]))
    console.print(f"[bold]Final tokens:[/bold] {tokens}")
    if table.voided_rounds:
        console.print(f"Voided rounds (turn cap): {', '.join(map(str, table.voided_rounds))}")
    if posterior is not None:
        offer_hint(console, person, names)
    return 0


def offer_hint(console: Console, person: TerminalPerson, names: Names) -> None:
    """After the game: on "hint", show what the master weighed at the person's last decision."""
    if person.last_decision is None:
        return
    try:
        text = person.read("Type hint to see what the master weighed at your last decision: ")
    except EOFError:
        return
    if text.strip().lower() != "hint":
        return
    from deaddrop.bots.cards.hint import hint_at  # the master's search, only when asked

    console.print(hint_panel(hint_at(*person.last_decision), names))
