"""Write the Station golden playthroughs: every seat's view (and a spectator's) after each Pouch.

Three scripted games (6, 8 and 10 players, fixed seeds) are played through the engine, and
what each viewer may see after every Pouch is written, pretty-printed with sorted keys, to
tests/golden/station/*.txt. A change in what anyone sees then shows up as a changed line in
review; tests/engine/station/test_golden.py fails until the files are regenerated with

    python tools/golden_station.py
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from deaddrop.engine.station import actions as A
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.roles import is_ring
from deaddrop.engine.station.setup import Setup, start
from deaddrop.engine.station.state import ABSTAIN, State
from deaddrop.engine.station.views import view

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "golden" / "station"

Step = tuple[str, ...]
"""One saved action, by role name: ("op", who, target), ("order", who, target, performer),
("vote", who, choice | "abstain"), ("unvote", who), ("withdraw", who),
("whisper", sender, recipient, text), ("cable", who, text)."""


@dataclass(frozen=True)
class Script:
    """A scripted game: the table, its seed, what each day saves, and how it must end."""

    name: str
    players: int
    seed: int
    days: tuple[tuple[Step, ...], ...]
    winner: str
    defector_won: bool


SIX = Script(
    name="station-6p",
    players=6,
    seed=6006,
    days=(
        (
            ("op", "analyst", "forger"),
            ("op", "forger", "safehouse_keeper"),
            ("op", "field_agent", "analyst"),
            ("op", "field_agent_2", "field_agent_2"),
            ("whisper", "analyst", "field_agent", "My first reading came back bad. Keep it quiet."),
            ("whisper", "forger", "ringleader", "Shall I muddy the water tonight?"),
            ("cable", "analyst", "If I burn: look at my first reading."),
            ("vote", "analyst", "forger"),
            ("vote", "field_agent", "forger"),
            ("vote", "forger", "field_agent"),
            ("vote", "ringleader", "field_agent"),
            ("vote", "safehouse_keeper", "abstain"),
        ),
        (
            ("order", "ringleader", "analyst", "forger"),
            ("op", "safehouse_keeper", "analyst"),
            ("op", "analyst", "ringleader"),
            ("op", "field_agent", "forger"),
            ("whisper", "field_agent", "safehouse_keeper", "Please keep our reader safe tonight."),
            ("vote", "analyst", "forger"),
            ("vote", "safehouse_keeper", "forger"),
            ("vote", "field_agent", "forger"),
            ("vote", "field_agent_2", "analyst"),
            ("unvote", "field_agent_2"),
            ("vote", "ringleader", "analyst"),
        ),
        (
            ("order", "ringleader", "safehouse_keeper", "ringleader"),
            ("op", "safehouse_keeper", "analyst"),
            ("op", "analyst", "field_agent_2"),
            ("cable", "safehouse_keeper", "Nothing to add."),
            ("vote", "analyst", "ringleader"),
            ("vote", "field_agent", "ringleader"),
            ("vote", "field_agent_2", "ringleader"),
        ),
    ),
    winner="station",
    defector_won=False,
)

EIGHT = Script(
    name="station-8p",
    players=8,
    seed=8008,
    days=(
        (
            ("op", "defector", "analyst"),
            ("op", "watcher", "analyst"),
            ("op", "analyst", "field_agent"),
            ("op", "field_agent", "defector"),
            ("whisper", "defector", "field_agent", "Vote for me. Trust me."),
            ("whisper", "defector", "watcher", "Vote for me too."),
            ("whisper", "watcher", "analyst", "Someone visited you last night?"),
            ("vote", "defector", "defector"),
            ("vote", "field_agent", "defector"),
            ("vote", "ringleader", "defector"),
            ("vote", "analyst", "abstain"),
        ),
        (
            ("order", "ringleader", "watcher", "forger"),
            ("op", "forger", "analyst"),
            ("op", "analyst", "forger"),
            ("op", "safehouse_keeper", "analyst"),
            ("op", "watcher", "field_agent_2"),
            ("cable", "watcher", "I saw nobody at my door. Ask the reader."),
            ("vote", "ringleader", "field_agent_2"),
            ("vote", "forger", "field_agent_2"),
            ("vote", "field_agent", "field_agent_2"),
            ("vote", "analyst", "forger"),
        ),
        (
            ("order", "ringleader", "analyst", "ringleader"),
            ("op", "safehouse_keeper", "field_agent"),
            ("op", "analyst", "ringleader"),
            ("whisper", "analyst", "safehouse_keeper", "RAVEN? Or the other one?"),
            ("vote", "analyst", "forger"),
            ("vote", "safehouse_keeper", "forger"),
            ("vote", "ringleader", "field_agent"),
            ("vote", "forger", "field_agent"),
        ),
    ),
    winner="ring",
    defector_won=True,
)

TEN = Script(
    name="station-10p",
    players=10,
    seed=10010,
    days=(
        (
            ("op", "interrogator", "honeytrap"),
            ("op", "honeytrap", "analyst"),
            ("op", "analyst", "ringleader"),
            ("op", "defector", "watcher"),
            ("op", "watcher", "watcher"),
            ("op", "shadow", "defector"),
            ("op", "field_agent", "ringleader"),
            ("op", "forger", "shadow"),
            ("whisper", "ringleader", "honeytrap", "Keep the reader busy tonight."),
            ("whisper", "honeytrap", "forger", "On it."),
            ("whisper", "field_agent", "analyst", "Who did you read?"),
            ("cable", "ringleader", "Long live the Station."),
            ("vote", "analyst", "ringleader"),
            ("vote", "watcher", "ringleader"),
            ("vote", "shadow", "ringleader"),
            ("vote", "field_agent", "ringleader"),
            ("vote", "interrogator", "ringleader"),
            ("vote", "forger", "watcher"),
        ),
        (
            ("order", "heir", "analyst", "partner"),
            ("op", "interrogator", "heir"),
            ("op", "shadow", "partner"),
            ("op", "watcher", "analyst"),
            ("op", "analyst", "heir"),
            ("op", "safehouse_keeper", "field_agent"),
            ("whisper", "defector", "shadow", "I am the one you want."),
            ("vote", "defector", "defector"),
            ("vote", "heir", "defector"),
            ("vote", "partner", "defector"),
            ("vote", "shadow", "defector"),
        ),
        (
            ("op", "heir", "safehouse_keeper"),
            ("op", "safehouse_keeper", "watcher"),
            ("op", "interrogator", "partner"),
            ("op", "shadow", "heir"),
            ("op", "watcher", "safehouse_keeper"),
            ("op", "field_agent", "partner"),
            ("whisper", "partner", "heir", "They are onto me."),
            ("vote", "watcher", "partner"),
            ("vote", "shadow", "partner"),
            ("vote", "field_agent", "partner"),
            ("vote", "interrogator", "partner"),
        ),
        (
            ("order", "heir", "watcher", "heir"),
            ("op", "safehouse_keeper", "watcher"),
            ("op", "interrogator", "field_agent"),
            ("vote", "watcher", "heir"),
            ("vote", "shadow", "heir"),
            ("vote", "interrogator", "heir"),
        ),
    ),
    winner="station",
    defector_won=True,
)

SCRIPTS = (SIX, EIGHT, TEN)


class Table:
    """Role names for the seats of a dealt game (a second Field Agent is field_agent_2)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.names: list[str] = []
        for seat in state.seats:
            count = sum(1 for name in self.names if name.removesuffix("_2") == seat.role)
            self.names.append(seat.role if count == 0 else f"{seat.role}_{count + 1}")

    def seat(self, name: str) -> int:
        """A seat by role name, or the Ring heir and partner (the heir joined first)."""
        if name in ("heir", "partner"):
            heirs = [s.index for s in self.state.seats if s.role in ("forger", "honeytrap")]
            return heirs[0] if name == "heir" else heirs[1]
        return self.names.index(name)

    def label(self, seat: int | None) -> str:
        """CODENAME (role) of a seat, or the spectator."""
        if seat is None:
            return "spectator"
        return f"{self.state.seats[seat].codename} ({self.names[seat]})"


def action_of(table: Table, step: Step) -> A.Action:
    """The engine action a script step stands for."""
    kind, who, *rest = step
    seat = table.seat(who)
    if kind == "op":
        return A.SaveOperation(seat, table.seat(rest[0]))
    if kind == "order":
        return A.SaveOrder(seat, table.seat(rest[0]), table.seat(rest[1]))
    if kind == "vote":
        return A.CastVote(seat, ABSTAIN if rest[0] == "abstain" else table.seat(rest[0]))
    if kind == "unvote":
        return A.WithdrawVote(seat)
    if kind == "withdraw":
        return A.WithdrawOperation(seat)
    if kind == "whisper":
        return A.SendWhisper(seat, table.seat(rest[0]), rest[1])
    if kind == "cable":
        return A.EditFinalCable(seat, rest[0])
    raise ValueError(f"unknown step {step!r}")


def describe(table: Table, step: Step) -> str:
    """One line of the day's saves, with codenames."""
    kind, who, *rest = step
    actor = table.label(table.seat(who))
    if kind == "op":
        return f"{actor} saves an Operation on {table.label(table.seat(rest[0]))}"
    if kind == "order":
        target, performer = (table.label(table.seat(name)) for name in rest)
        return f"{actor} files the Ring order: {target}, performed by {performer}"
    if kind == "vote":
        choice = "Abstain" if rest[0] == "abstain" else table.label(table.seat(rest[0]))
        return f"{actor} votes {choice}"
    if kind == "unvote":
        return f"{actor} withdraws their vote"
    if kind == "withdraw":
        return f"{actor} withdraws their Operation"
    if kind == "whisper":
        return f"{actor} whispers to {table.label(table.seat(rest[0]))}: {rest[1]!r}"
    return f"{actor} sets their Final Cable: {rest[0]!r}"


def play(script: Script) -> tuple[State, str]:
    """Play a script: the final state, and every viewer's view after each Pouch as text."""
    players = tuple(f"player{i + 1}" for i in range(script.players))
    state = start(Setup(players, script.seed))
    table = Table(state)
    lines = [
        f"# Station golden playthrough: {script.name} ({script.players} players, seed "
        f"{script.seed})",
        "# Every viewer's view after each Pouch. Regenerate: python tools/golden_station.py",
        "",
        "## The table (join order)",
    ]
    for seat in state.seats:
        side = "ring" if is_ring(seat.role) else seat.faction.value
        lines.append(f"- seat {seat.index}: {table.label(seat.index)}, {side}")
    for number, steps in enumerate(script.days, start=1):
        if state.over:
            raise ValueError(f"{script.name}: the game ended before day {number}")
        lines += ["", f"## Day {number}: saves"]
        for step in steps:
            state, _ = apply(state, action_of(table, step))
            lines.append(f"- {describe(table, step)}")
        state, _ = apply(state, A.ResolvePouch())
        table.state = state
        for viewer in [None, *range(len(state.seats))]:
            lines += ["", f"## After Day {number}'s Pouch: view of {table.label(viewer)}"]
            lines.append(json.dumps(view(state, viewer), indent=2, sort_keys=True))
    if (state.winner, state.defector_won) != (script.winner, script.defector_won):
        raise ValueError(
            f"{script.name}: ended {state.winner!r} (Defector won: {state.defector_won}),"
            f" not {script.winner!r} ({script.defector_won})"
        )
    return state, "\n".join(lines) + "\n"


def render_all() -> dict[str, str]:
    """File name → text of every golden playthrough."""
    return {f"{script.name}.txt": play(script)[1] for script in SCRIPTS}


def main(argv: Sequence[str] = ()) -> int:
    """Write the golden files."""
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, text in render_all().items():
        (GOLDEN_DIR / name).write_text(text, encoding="utf-8")
        print(f"wrote {GOLDEN_DIR / name} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
