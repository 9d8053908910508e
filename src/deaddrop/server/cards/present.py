"""Turn one seat's engine view (C12) into what the table page shows: names, prompts, and the log
in the words of Cards' phrasebook (`deaddrop.phrasebook.cards`, the terminal's too).

Everything here reads `view(state, seat)` only, so a page can never show more than its seat may
see; the server adds names and the options of the prompt the seat must answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deaddrop.bots.cards.hint import Hint
from deaddrop.engine.cards.inference import belief_from_view, drop_distribution
from deaddrop.engine.cards.legal import distinct, pairs
from deaddrop.phrasebook.cards import SeatNames, log_line, option_label
from deaddrop.server.cards.models import CardsSeat

View = Mapping[str, Any]


@dataclass(frozen=True)
class SeatInfo:
    """One seat as the table strip shows it."""

    index: int
    name: str
    """The holder's name; for a bot only its kind ("Expert"), the strip tags it as a bot."""
    you: bool
    bot: bool
    away: bool
    free: bool
    tokens: int
    hand_size: int
    out: bool
    """Eliminated from the current round (C8)."""
    deciding: bool
    """Whose decision the table waits for."""


class Namer(SeatNames):
    """Seat names as one viewer reads them: "You" for their own seat, else the seat's name."""

    def __init__(self, seats: Sequence[CardsSeat], viewer: int | None) -> None:
        super().__init__(viewer)
        self.names = [seat.name or ("Free seat" if seat.is_free else "Guest") for seat in seats]

    def __call__(self, seat: int | None) -> str:
        """The name of a seat at the start of a sentence ("You" for the viewer)."""
        return self.title(seat)

    def other(self, seat: int) -> str:
        """The seat's display name ("Guest", "Free seat" when it has none)."""
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"


def seat_strip(view: View, seats: Sequence[CardsSeat], viewer: int | None) -> list[SeatInfo]:
    """Every seat with its public facts: tokens, hand size, out or in, deciding."""
    pending = view["pending"]
    out_seats = {entry["seat"] for entry in view["eliminated"]}
    namer = Namer(seats, viewer)
    return [
        SeatInfo(
            index=row.seat,
            name=row.bot.capitalize() if row.bot is not None else namer(row.seat),
            you=row.seat == viewer,
            bot=row.bot is not None,
            away=row.away,
            free=row.is_free,
            tokens=view["tokens"][row.seat],
            hand_size=view["hand_sizes"][row.seat],
            out=row.seat in out_seats,
            deciding=pending is not None and pending["seat"] == row.seat,
        )
        for row in seats
    ]


@dataclass(frozen=True)
class Prompt:
    """The decision this seat must make now, with its options (None when not theirs)."""

    kind: str
    """action, give, hand_back or grab (the engine's pending kinds)."""
    hand: list[int]
    """The distinct cards of the hand."""
    living: list[tuple[int, str]]
    """Other seats still in the round: Share Info and Sell Secrets targets (C4, C7)."""
    face_up: list[tuple[int, str, list[int]]]
    """Eliminated seats and their distinct face-up cards (C5)."""
    stash: list[int]
    """Distinct Stash cards (C6)."""
    pairs: list[tuple[int, int]]
    """Pairs the hand can grab with (C8)."""
    other: str
    """The other party: the mover who trades with me, the buyer of my sale."""
    show: list[int]
    """My two shown cards (hand back, C7)."""


def prompt_for(view: View, name: Namer) -> Prompt | None:
    """The prompt of the viewing seat, if the table waits for its decision."""
    pending, seat = view["pending"], view["viewer"]
    if pending is None or seat is None or pending["seat"] != seat:
        return None
    hand = tuple(view["hand"])
    out_seats = [entry["seat"] for entry in view["eliminated"]]
    living = [(s, name(s)) for s in range(view["players"]) if s != seat and s not in out_seats]
    face_up = [
        (entry["seat"], name(entry["seat"]), list(distinct(tuple(entry["hand"]))))
        for entry in view["eliminated"]
    ]
    other = pending.get("mover", pending.get("buyer"))
    return Prompt(
        kind=pending["kind"],
        hand=list(distinct(hand)),
        living=living,
        face_up=face_up,
        stash=list(distinct(tuple(view["stash"]))),
        pairs=list(pairs(hand)),
        other=name(other) if other is not None else "",
        show=list(pending.get("show", [])),
    )


def waiting_for(view: View, name: Namer) -> str:
    """Whose decision the table waits for, in words."""
    pending = view["pending"]
    if pending is None:
        return ""
    who = name(pending["seat"])
    verb = {
        "action": "take an action",
        "grab": "grab The Drop or end the turn",
        "give": f"choose a card to give {name(pending.get('mover'))}",
        "hand_back": "hand back one of the shown cards",
    }[pending["kind"]]
    if who == "You":
        return f"Your turn: {verb}."
    return f"Waiting for {who} to {verb}."


def notebook(view: View) -> list[tuple[int, float]]:
    """The viewer's exact posterior over The Drop (C13's inference, from the view alone)."""
    if view["viewer"] is None or view["pending"] is None:
        return []
    return list(drop_distribution(belief_from_view(view)).items())


def table_context(view: View, seats: Sequence[CardsSeat], mine: CardsSeat | None) -> dict[str, Any]:
    """Everything the table fragment renders, from one seat's view."""
    viewer = view["viewer"]
    name = Namer(seats, viewer)
    log = [
        {"text": log_line(entry, name), "private": not entry["public"], "kind": entry["kind"]}
        for entry in view["log"]
    ]
    rounds = view["rounds"]
    return {
        "view": view,
        "strip": seat_strip(view, seats, viewer),
        "prompt": prompt_for(view, name),
        "waiting": waiting_for(view, name),
        "eliminated": [(name(e["seat"]), e["hand"]) for e in view["eliminated"]],
        "last_round": rounds[-1] if rounds else None,
        "name": name,
        "log": log[::-1],
        "winner": None if view["winner"] is None else name(view["winner"]),
        # C10: a finished round is public, so once the game is over its last Drop is shown.
        "drop": rounds[-1]["drop"] if view["winner"] is not None and rounds else None,
        "notebook": notebook(view) if mine is not None and mine.notebook else None,
        "mine": mine,
    }


def hint_context(hint: Hint | None, name: Namer) -> dict[str, Any] | None:
    """The master's hint on my last decision, in words for the finished table's notebook."""
    if hint is None:
        return None
    return {
        "round": hint.round,
        "taken": option_label(hint.taken, name.obj),
        "drop": list(enumerate(hint.drop)),
        "options": [
            {
                "label": option_label(o.action, name.obj),
                "score": o.score,
                "rounds": o.rounds,
            }
            for o in hint.options
        ],
        "playouts": hint.playouts,
    }
