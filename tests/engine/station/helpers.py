"""A small DSL for Station rule tests: deal a table by role, play days by role name.

Players are named by their role ("analyst", "forger"); a role that occurs twice gets a
numbered second name ("field_agent", "field_agent_2"). Codenames in what the engine reports
are translated back to these names, so tests read like the rules:

    t = Table(9)
    t.op("interrogator", "forger")
    t.order("ringleader", target="analyst", performer="forger")
    p = t.pouch()
    assert p.deaths == {}
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Event
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.roles import ROLE_TABLE
from deaddrop.engine.station.setup import Setup, setup_from_deal, start
from deaddrop.engine.station.state import ABSTAIN, State
from deaddrop.engine.station.views import view

JSON = dict[str, Any]

CODENAMES = (
    "OWL", "RAVEN", "HERON", "WREN", "KESTREL", "FALCON", "SWIFT", "MAGPIE", "PLOVER", "EGRET",
)  # fmt: skip


def role_names(roles: Sequence[str]) -> list[str]:
    """One name per seat: the role, numbered from the second time it occurs."""
    names: list[str] = []
    for role in roles:
        count = sum(1 for earlier in roles[: len(names)] if earlier == role)
        names.append(role if count == 0 else f"{role}_{count + 1}")
    return names


@dataclass(frozen=True)
class Pouch:
    """What one Pouch published, codenames translated to role names."""

    day: int
    cable: JSON
    """The public Morning Cable (S23)."""
    results: dict[str, list[JSON]]
    """Private results by name, from the events addressed to each seat alone (S19)."""
    events: tuple[Event, ...]
    """Every event of the Pouch, untranslated."""

    @property
    def deaths(self) -> dict[str, list[str]]:
        """Name → causes of everyone burned at this Pouch."""
        return {death["codename"]: death["causes"] for death in self.cable["deaths"]}

    @property
    def recalled(self) -> str | None:
        """Who the Tribunal recalled (S21)."""
        recalled: str | None = self.cable["recalled"]
        return recalled

    @property
    def tally(self) -> JSON:
        """Votes per name, abstain included (S21)."""
        tally: JSON = self.cable["tally"]
        return tally

    @property
    def winner(self) -> str | None:
        """station or ring when this Pouch ended the game (S24)."""
        winner: str | None = self.cable["winner"]
        return winner

    def result(self, name: str) -> list[JSON]:
        """Every private entry this player got at this Pouch (empty when none)."""
        return self.results.get(name, [])

    def role_result(self, name: str) -> JSON | None:
        """This player's role result (not a note), or None when there is none."""
        notes = ("interrogation", "safehouse_needed")
        found = [entry for entry in self.result(name) if entry["kind"] not in notes]
        assert len(found) <= 1
        return found[0] if found else None


class Table:
    """A game dealt by role in a fixed join order, driven by role names."""

    def __init__(self, roles: int | Sequence[str], seed: int = 0) -> None:
        dealt = list(ROLE_TABLE[roles]) if isinstance(roles, int) else list(roles)
        self.names = role_names(dealt)
        self.codenames = CODENAMES[: len(dealt)]
        self.setup: Setup = setup_from_deal(list(zip(self.codenames, dealt, strict=True)), seed)
        self.state: State = start(self.setup)
        self.log: list[A.Action] = []
        self.events: list[Event] = []
        self._by_codename = dict(zip(self.codenames, self.names, strict=True))

    # --- names and seats -------------------------------------------------------------------

    def seat(self, name: str) -> int:
        """The seat of a player named by role."""
        return self.names.index(name)

    def codename(self, name: str) -> str:
        """The codename a player named by role was dealt."""
        return self.codenames[self.seat(name)]

    def named(self, value: Any) -> Any:
        """A JSON value with every codename replaced by the player's role name."""
        if isinstance(value, str):
            return self._by_codename.get(value, value)
        if isinstance(value, list):
            return [self.named(item) for item in value]
        if isinstance(value, Mapping):
            return {self.named(key): self.named(item) for key, item in value.items()}
        return value

    def alive(self, name: str) -> bool:
        """Whether a player still lives."""
        return self.state.alive[self.seat(name)]

    # --- actions ---------------------------------------------------------------------------

    def do(self, action: A.Action) -> tuple[Event, ...]:
        """Apply an action, keep it in the log, return its events."""
        self.state, events = apply(self.state, action)
        self.log.append(action)
        self.events.extend(events)
        return events

    def op(self, who: str, target: str) -> None:
        """Save `who`'s own ability aimed at `target` (S9)."""
        self.do(A.SaveOperation(self.seat(who), self.seat(target)))

    def order(self, who: str, *, target: str, performer: str) -> None:
        """The order-holder files the Ring order (S10)."""
        self.do(A.SaveOrder(self.seat(who), self.seat(target), self.seat(performer)))

    def withdraw(self, who: str) -> None:
        """Back to No action (S7)."""
        self.do(A.WithdrawOperation(self.seat(who)))

    def vote(self, who: str, choice: str) -> None:
        """Vote for a player by name, or "abstain" (S21)."""
        target = ABSTAIN if choice == "abstain" else self.seat(choice)
        self.do(A.CastVote(self.seat(who), target))

    def votes(self, choice: str, *voters: str) -> None:
        """Several players vote the same way."""
        for voter in voters:
            self.vote(voter, choice)

    def unvote(self, who: str) -> None:
        """Withdraw a vote (S7)."""
        self.do(A.WithdrawVote(self.seat(who)))

    def whisper(self, sender: str, recipient: str, text: str = "") -> tuple[Event, ...]:
        """Send a whisper (S31)."""
        return self.do(A.SendWhisper(self.seat(sender), self.seat(recipient), text))

    def final_cable(self, who: str, text: str) -> None:
        """Replace a player's Final Cable (S32)."""
        self.do(A.EditFinalCable(self.seat(who), text))

    def remove(self, who: str) -> tuple[Event, ...]:
        """The host removes a player (S40)."""
        return self.do(A.RemovePlayer(self.seat(who)))

    def pouch(self) -> Pouch:
        """Resolve the day (S20) and translate what it published."""
        day = self.state.day
        events = self.do(A.ResolvePouch())
        cables = [event for event in events if event.kind == "morning_cable"]
        assert len(cables) == 1 and cables[0].audience.public
        results: dict[str, list[JSON]] = {}
        for event in events:
            if event.kind == "private_results":
                assert not event.audience.public and len(event.audience.seats) == 1
                (seat,) = event.audience.seats
                results[self.names[seat]] = self.named(event.payload["results"])
        return Pouch(day, self.named(cables[0].payload), results, events)

    def skip(self, days: int = 1) -> list[Pouch]:
        """Let days pass with nothing saved."""
        return [self.pouch() for _ in range(days)]

    def refused(self, action: A.Action | Callable[[], object]) -> str:
        """The rule id an illegal action is refused with; the game must not change."""
        before, log = self.state, len(self.log)
        with pytest.raises(IllegalAction) as caught:
            if callable(action):
                action()
            else:
                self.do(action)
        assert self.state == before and len(self.log) == log
        return caught.value.code

    # --- what people see ---------------------------------------------------------------------

    def view(self, who: str | None) -> JSON:
        """The view of a player by name, or of a spectator (None)."""
        return view(self.state, None if who is None else self.seat(who))

    def view_text(self, who: str | None) -> str:
        """The view as the JSON text a client would receive."""
        return json.dumps(self.view(who), sort_keys=True)

    def options(self, who: str) -> JSON:
        """The seat's legal choices today, as names."""
        options: JSON = self.named(self.view(who)["me"]["options"])
        return options


def names_of(table: Table, seats: Iterable[int]) -> list[str]:
    """Role names of some seats."""
    return [table.names[seat] for seat in seats]


# A six-player deal in join order (S1, S2): the Ring first, then the Station.
SIX = [
    ("OWL", "ringleader"),
    ("RAVEN", "forger"),
    ("HERON", "analyst"),
    ("WREN", "safehouse_keeper"),
    ("KITE", "field_agent"),
    ("LARK", "field_agent"),
]
