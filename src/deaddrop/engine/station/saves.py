"""A day's saves checked at once, as plain numbers rather than action objects.

`check_saves` checks a day's Operations, votes and whispers in save order and returns them as
a State would hold them (`resolution.Saved`), which `pouch.advance` reads without a State being
made for them alone; `BatchRefused` says which save a rule refused.
"""

from __future__ import annotations

from collections.abc import Iterable

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.records import builder, evolve
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.claims import check_post_claims
from deaddrop.engine.station.resolution import Saved
from deaddrop.engine.station.state import Operation, Order, State, Whisper


class BatchRefused(IllegalAction):
    """An action of a batch broke a rule; `index` says which one (nothing was applied)."""

    def __init__(self, index: int, error: IllegalAction) -> None:
        super().__init__(error.code, error.message)
        self.index = index


def with_saves(state: State, saved: Saved) -> State:
    """The state with the day's saves that `check_saves` gave."""
    operations, votes, whispers = saved
    return evolve(state, operations=operations, votes=votes, whispers=whispers)


DayInput = tuple[
    Iterable[tuple[int, Operation | None]],
    Iterable[tuple[int, int]],
    Iterable[tuple[int, int, str]],
]
"""What `save_day` takes after the state: operations, votes and whispers, in save order."""


def check_saves(state: State, saves: DayInput) -> Saved:
    """`save_day`'s checks: the day's Operations, votes and whispers once saved, as the state
    would hold them, without the state itself (`pouch.advance` takes them as they are).

    Each save goes through its rule's own check, which says why it fails: a scenario's usual
    day takes the one-pass path of `usual_day.py` instead, and comes here only when unusual.
    """
    operations, votes, whispers = saves
    saved, cast, sent = list(state.operations), list(state.votes), list(state.whispers)
    index, counts = 0, sent_today(state)
    try:
        for seat, operation in operations:
            if operation is None:
                A.check_actor(state, seat)
            elif isinstance(operation, Order):
                A.check_order_at(state, seat, operation.target, operation.performer)
            else:
                A.check_ability_at(state, seat, operation.target)
            saved[seat] = operation
            index += 1
        for seat, choice in votes:
            A.check_vote_at(state, seat, choice)
            cast[seat] = choice
            index += 1
        for sender, recipient, text in whispers:
            count = counts.get(sender, 0)
            check_whisper(state, sender, recipient, text, count)
            counts[sender] = count + 1
            sent.append(whisper_record(state.day, sender, recipient, text))
            index += 1
    except IllegalAction as error:
        raise BatchRefused(index, error) from None
    return tuple(saved), tuple(cast), tuple(sent)


_new_whisper = builder(Whisper)

_TEXTLESS: dict[tuple[int, int, int], Whisper] = {}
"""Each text-less whisper (day, sender, recipient) made so far, made once: a record is
immutable, so one is as good as an equal new one (as `ABILITY_ON`), and every whisper of a
scenario has no text. At most 10 days by 10 by 10 seats (S6, S1)."""


def whisper_record(day: int, sender: int, recipient: int, text: str) -> Whisper:
    """The whisper record of this day, sender, recipient and text; a text-less one made once."""
    if text:
        return _new_whisper(day, sender, recipient, text)
    key = (day, sender, recipient)
    whisper = _TEXTLESS.get(key)
    if whisper is None:
        whisper = _TEXTLESS[key] = _new_whisper(day, sender, recipient, "")
    return whisper


def sent_today(state: State) -> dict[int, int]:
    """How many whispers each seat has sent today, for a batch to count on from (S31)."""
    sent: dict[int, int] = {}
    for whisper in state.whispers:
        sent[whisper.sender] = sent.get(whisper.sender, 0) + 1
    return sent


def check_whisper(state: State, seat: int, recipient: int, text: str, count: int) -> None:
    """S31 for a seat that sent `count` whispers today, then the claims of its text (S43)."""
    A.check_whisper_at(state, seat, recipient, text, count)
    check_post_claims(state, text)  # S43: a whisper may carry claims
