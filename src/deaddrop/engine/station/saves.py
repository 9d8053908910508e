"""A day's saves checked at once: the adjudicator's fast path from saves to the Pouch.

`check_saves` checks a day's Operations, votes and whispers, given as plain numbers, and
returns them as a State would hold them (`resolution.Saved`), which `pouch.advance` reads
without a State being made for them alone.
"""

from __future__ import annotations

from collections.abc import Iterable

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.records import builder, evolve
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.claims import check_post_claims
from deaddrop.engine.station.resolution import Saved
from deaddrop.engine.station.roles import INTERROGATOR, WHISPERS_PER_DAY
from deaddrop.engine.station.state import ABSTAIN, Ability, Operation, Order, State, Whisper


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
    would hold them, without the state itself (`pouch.advance` takes them as they are)."""
    operations, votes, whispers = saves
    saved, cast, sent = list(state.operations), list(state.votes), list(state.whispers)
    checked = _check_operations(state, operations, saved)
    checked = _check_votes(state, votes, cast, checked)
    _check_whispers(state, whispers, sent, checked)
    return tuple(saved), tuple(cast), tuple(sent)


def _check_operations(
    state: State, operations: Iterable[tuple[int, Operation | None]], saved: list[Operation | None]
) -> int:
    """Check each (seat, Operation) and save it in `saved`; how many there were."""
    alive, running, table = state.alive, state.winner is None, len(state.alive)
    seats, last_detained = state.seats, state.last_detained
    index = 0
    try:
        for seat, operation in operations:
            if type(operation) is Ability:
                target = operation.target
                # The usual Operation (a living player's own ability on a living player it
                # may name, S9) passes in one test; check_ability_at says why any other fails.
                if not (
                    running
                    and 0 <= seat < table
                    and 0 <= target < table
                    and alive[seat]
                    and alive[target]
                    and seats[seat].role
                    in (A.SELF_AIMING_ROLES if target == seat else A.ABILITY_ROLES)
                    and (target != last_detained or seats[seat].role != INTERROGATOR)
                ):
                    A.check_ability_at(state, seat, target)
            elif operation is None:
                A.check_actor(state, seat)
            elif isinstance(operation, Order):
                A.check_order_at(state, seat, operation.target, operation.performer)
            else:
                A.check_ability_at(state, seat, operation.target)
            saved[seat] = operation
            index += 1
    except IllegalAction as error:
        raise BatchRefused(index, error) from None
    return index


def _check_votes(
    state: State, votes: Iterable[tuple[int, int]], cast: list[int | None], index: int
) -> int:
    """Check each (seat, vote) and save it in `cast`; `index` counts the saves before."""
    alive, running, table = state.alive, state.winner is None, len(state.alive)
    try:
        for seat, choice in votes:
            # The usual vote (a living voter, a living choice or Abstain, S21) passes in one
            # test; check_vote_at says why any other fails.
            if not (
                running
                and 0 <= seat < table
                and alive[seat]
                and (choice == ABSTAIN or (0 <= choice < table and alive[choice]))
            ):
                A.check_vote_at(state, seat, choice)
            cast[seat] = choice
            index += 1
    except IllegalAction as error:
        raise BatchRefused(index, error) from None
    return index


def _check_whispers(
    state: State, whispers: Iterable[tuple[int, int, str]], sent: list[Whisper], index: int
) -> None:
    """Check each (sender, recipient, text) and add its record to `sent`; `index` counts the
    saves before."""
    alive, running, table, day = state.alive, state.winner is None, len(state.alive), state.day
    counts = sent_today(state)
    try:
        for sender, recipient, text in whispers:
            count = counts.get(sender, 0)
            # The usual whisper (a scenario's are all text-less) passes S31 in one test; any
            # other goes through the full checks, which say why it fails, and S43's.
            if text or not (
                running
                and count < WHISPERS_PER_DAY
                and sender != recipient
                and 0 <= sender < table
                and 0 <= recipient < table
                and alive[sender]
                and alive[recipient]
            ):
                check_whisper(state, sender, recipient, text, count)
            counts[sender] = count + 1
            sent.append(whisper_record(day, sender, recipient, text))
            index += 1
    except IllegalAction as error:
        raise BatchRefused(index, error) from None


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
