"""rich renderables for one seat's view: the table, the menu, the notebook, a round's reveal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.columns import Columns
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from deaddrop.cards_terminal.describe import Names
from deaddrop.engine.cards.actions import Action
from deaddrop.phrasebook.cards import cards, count, option_label

if TYPE_CHECKING:  # the hint needs the master, imported only when a hint is asked for
    from deaddrop.bots.cards.hint import Hint

_DECISIONS = {
    "action": "to take an action",
    "grab": "to grab The Drop or end the turn",
    "give": "to choose a card to give",
    "hand_back": "to hand back one of the shown cards",
}


def _tokens(count: int, needed: int) -> str:
    return "●" * count + "○" * max(0, needed - count)


def table_panel(view: Mapping[str, Any], names: Names) -> Panel:
    """The table as this seat sees it: seats, tokens, hands, The Stash, whose decision it is."""
    needed = view["options"]["tokens_to_win"]
    out = {entry["seat"]: entry["hand"] for entry in view["eliminated"]}
    grid = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    grid.add_column("seat")
    grid.add_column("tokens")
    grid.add_column("cards")
    for seat in range(view["players"]):
        if seat == view["viewer"]:
            held = Text(cards(view["hand"]), style="bold green")
        elif seat in out:
            held = Text(f"out, face up: {cards(out[seat])}", style="red")
        else:
            held = Text(f"{view['hand_sizes'][seat]} hidden", style="dim")
        grid.add_row(names(seat), _tokens(view["tokens"][seat], needed), held)
    pending = view["pending"]
    if pending is None:
        turn = "The game is over."
    else:
        who = names.title(pending["seat"])
        verb = "are" if pending["seat"] == view["viewer"] else "is"
        turn = f"{who} {verb} {_DECISIONS.get(pending['kind'], 'to decide')}."
    body = Table.grid(padding=(0, 1))
    body.add_row(grid)
    body.add_row(Text(f"The Stash: {cards(view['stash'])}", style="bold cyan"))
    body.add_row(Text(turn, style="italic"))
    title = f"Round {view['round']} · first to {count(needed, 'token')} wins"
    return Panel(body, title=title, expand=False)


def menu(options: Sequence[Action], names: Names) -> Columns:
    """The legal options, numbered from 1."""
    items = [f"[bold]{n:>2}[/bold] {option_label(a, names)}" for n, a in enumerate(options, 1)]
    return Columns(items, padding=(0, 3), column_first=True)


def round_table(reveal: Mapping[str, Any], names: Names) -> Table:
    """A finished round with every card face up (C10)."""
    table = Table(title=f"Round {reveal['round']}: every card", show_lines=False)
    table.add_column("seat")
    table.add_column("hand")
    table.add_column("")
    for seat, hand in enumerate(reveal["hands"]):
        note = ""
        if seat == reveal["winner"]:
            note = "wins (grab)" if reveal["by"] == "grab" else "wins (last standing)"
        elif seat in reveal["eliminated"]:
            note = "out"
        table.add_row(names(seat), cards(hand), note)
    table.add_row("The Stash", cards(reveal["stash"]), "")
    table.add_row("The Drop", str(reveal["drop"]), "", style="bold")
    return table


def notebook_panel(drop: Mapping[int, float], hand: Sequence[int], model: str) -> Panel:
    """The seat's exact posterior over The Drop, and the best grab it could make with it."""
    table = Table(box=None, show_header=True, header_style="bold")
    table.add_column("Drop")
    table.add_column("chance", justify="right")
    table.add_column("")
    for value in range(6):
        p = drop.get(value, 0.0)
        table.add_row(str(value), f"{100 * p:5.1f}%", "█" * round(20 * p))
    best: tuple[float, tuple[int, int]] | None = None
    values = sorted(hand)
    for i, a in enumerate(values):
        for b in values[i + 1 :]:
            chance = drop.get(a + b, 0.0)
            if best is None or chance > best[0]:
                best = (chance, (a, b))
    body = Table.grid()
    body.add_row(table)
    if best is not None and best[0] > 0:
        body.add_row(f"Best grab now: {best[1][0]}+{best[1][1]} matches {100 * best[0]:.1f}%")
    else:
        body.add_row("No pair in your hand can match The Drop.")
    return Panel(body, title=f"Notebook (exact posterior, model {model})", expand=False)


def hint_panel(hint: Hint, names: Names) -> Panel:
    """What the master weighed at the person's last decision: The Drop and its top options."""
    drop = Table(box=None, show_header=True, header_style="bold")
    drop.add_column("Drop")
    drop.add_column("chance", justify="right")
    for value, p in enumerate(hint.drop):
        drop.add_row(str(value), f"{100 * p:5.1f}%")
    options = Table(box=None, show_header=True, header_style="bold")
    options.add_column("option")
    options.add_column("expert's score", justify="right")
    options.add_column("rounds won in playouts", justify="right")
    for option in hint.options:
        won = "—" if option.rounds is None else f"{100 * option.rounds:.0f}%"
        options.add_row(option_label(option.action, names), f"{option.score:.3f}", won)
    body = Table.grid()
    body.add_row(f"Round {hint.round}: you chose {option_label(hint.taken, names)}.")
    body.add_row(drop)
    body.add_row(options)
    chosen = hint.options[0].action
    body.add_row(f"The master would {option_label(chosen, names)} ({hint.playouts} playouts each).")
    return Panel(body, title="Hint: what the master weighed", expand=False)
