"""`apply(state, action)`: the one transition function of Station, and exact replay."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.core.records import builder, evolve
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.cable import death_json, reveal_json, vote_json
from deaddrop.engine.station.claims import check_post_claims
from deaddrop.engine.station.pouch import resolve_pouch
from deaddrop.engine.station.resolution import Saved
from deaddrop.engine.station.roles import WHISPERS_PER_DAY, is_ring
from deaddrop.engine.station.setup import Setup, start
from deaddrop.engine.station.state import (
    ABILITY_ON,
    ABSTAIN,
    Death,
    Operation,
    Order,
    State,
    Whisper,
)
from deaddrop.engine.station.victory import check_victory

T = TypeVar("T")
Transition = tuple[State, tuple[Event, ...]]


def apply(state: State, action: A.Action) -> Transition:
    """The next state and the events it produced; IllegalAction when a rule forbids it."""
    if isinstance(action, A.SaveOperation):
        A.check_ability(state, action)
        return _set_operation(state, action.seat, ABILITY_ON[action.target])
    if isinstance(action, A.SaveOrder):
        A.check_order(state, action)
        return _set_operation(state, action.seat, Order(action.target, action.performer))
    if isinstance(action, A.WithdrawOperation):
        A.check_actor(state, action.seat)
        return _set_operation(state, action.seat, None)
    if isinstance(action, A.CastVote):
        A.check_vote(state, action)
        return _set_vote(state, action.seat, action.choice)
    if isinstance(action, A.WithdrawVote):
        A.check_actor(state, action.seat)
        return _set_vote(state, action.seat, None)
    if isinstance(action, A.SendWhisper):
        A.check_whisper(state, action)
        check_post_claims(state, action.text)  # S43: a whisper may carry claims
        return _whisper(state, action)
    if isinstance(action, A.EditFinalCable):
        A.check_final_cable(state, action)
        cables = _with(state.final_cables, action.seat, action.text)
        event = Event("final_cable_saved", {"text": action.text}, Audience.only(action.seat))
        return evolve(state, final_cables=cables), (event,)
    if isinstance(action, A.MarkDone):
        A.check_actor(state, action.seat)
        payload = {
            "day": state.day,
            "codename": state.seats[action.seat].codename,
            "done": action.done,
        }
        marked = evolve(state, done=_with(state.done, action.seat, action.done))
        return marked, (Event("done_marked", payload, Audience.everyone()),)  # public (S41)
    if isinstance(action, A.ResolvePouch):
        A.check_open(state)
        return resolve_pouch(state)
    if isinstance(action, A.RemovePlayer):
        A.check_removal(state, action)
        return _remove(state, action.seat)
    raise TypeError(f"not a Station action: {action!r}")


class BatchRefused(IllegalAction):
    """An action of a batch broke a rule; `index` says which one (nothing was applied)."""

    def __init__(self, index: int, error: IllegalAction) -> None:
        super().__init__(error.code, error.message)
        self.index = index


def apply_day(state: State, actions: Sequence[A.DayAction]) -> State:
    """Apply many day actions at once: the state that applying them one by one would give.

    The adjudicator's fast path: saves during a day never change what another save may name
    (deaths happen only at the Pouch, S8), so each is checked against the day's state, and
    the new state is built once.
    """
    operations = list(state.operations)
    votes = list(state.votes)
    whispers = list(state.whispers)
    done = list(state.done)
    sent = _sent_today(state)
    for index, action in enumerate(actions):
        try:
            if isinstance(action, A.SaveOperation):
                A.check_ability(state, action)
                operations[action.seat] = ABILITY_ON[action.target]
            elif isinstance(action, A.SaveOrder):
                A.check_order(state, action)
                operations[action.seat] = Order(action.target, action.performer)
            elif isinstance(action, A.WithdrawOperation):
                A.check_actor(state, action.seat)
                operations[action.seat] = None
            elif isinstance(action, A.CastVote):
                A.check_vote(state, action)
                votes[action.seat] = action.choice
            elif isinstance(action, A.WithdrawVote):
                A.check_actor(state, action.seat)
                votes[action.seat] = None
            elif isinstance(action, A.MarkDone):
                A.check_actor(state, action.seat)
                done[action.seat] = action.done
            else:
                _send(state, sent, whispers, action.seat, action.recipient, action.text)
        except IllegalAction as error:
            raise BatchRefused(index, error) from None
    return evolve(
        state,
        operations=tuple(operations),
        votes=tuple(votes),
        whispers=tuple(whispers),
        done=tuple(done),  # S41: a batch's done marks count like one-by-one ones
    )


def save_day(
    state: State,
    operations: Iterable[tuple[int, Operation | None]],
    votes: Iterable[tuple[int, int]],
    whispers: Iterable[tuple[int, int, str]],
) -> State:
    """The day's saves in this order, as `apply_day` would give them: each (seat, Operation)
    (None: withdrawn), each (seat, vote), each (sender, recipient, text) whisper.

    The scenario's fast path: plain numbers, no action objects. BatchRefused's index counts
    the saves across the three, in this order.
    """
    return with_saves(state, check_saves(state, (operations, votes, whispers)))


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
    saved, cast, sent_whispers = list(state.operations), list(state.votes), list(state.whispers)
    index, sent = 0, _sent_today(state)
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
        alive, running, table, day = state.alive, state.winner is None, len(state.alive), state.day
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
        for sender, recipient, text in whispers:
            count = sent.get(sender, 0)
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
                _check_whisper(state, sender, recipient, text, count)
            sent[sender] = count + 1
            sent_whispers.append(_whisper_record(day, sender, recipient, text))
            index += 1
    except IllegalAction as error:
        raise BatchRefused(index, error) from None
    return tuple(saved), tuple(cast), tuple(sent_whispers)


_new_whisper = builder(Whisper)

_TEXTLESS: dict[tuple[int, int, int], Whisper] = {}
"""Each text-less whisper (day, sender, recipient) made so far, made once: a record is
immutable, so one is as good as an equal new one (as `ABILITY_ON`), and every whisper of a
scenario has no text. At most 10 days by 10 by 10 seats (S6, S1)."""


def _whisper_record(day: int, sender: int, recipient: int, text: str) -> Whisper:
    """The whisper record of this day, sender, recipient and text; a text-less one made once."""
    if text:
        return _new_whisper(day, sender, recipient, text)
    key = (day, sender, recipient)
    whisper = _TEXTLESS.get(key)
    if whisper is None:
        whisper = _TEXTLESS[key] = _new_whisper(day, sender, recipient, "")
    return whisper


def _sent_today(state: State) -> dict[int, int]:
    """How many whispers each seat has sent today, for a batch to count on from (S31)."""
    sent: dict[int, int] = {}
    for whisper in state.whispers:
        sent[whisper.sender] = sent.get(whisper.sender, 0) + 1
    return sent


def _send(
    state: State,
    sent: dict[int, int],
    whispers: list[Whisper],
    seat: int,
    recipient: int,
    text: str,
) -> None:
    """Check one whisper of a batch and add it; `sent` counts each sender's so far (S31)."""
    count = sent.get(seat, 0)
    _check_whisper(state, seat, recipient, text, count)
    sent[seat] = count + 1
    whispers.append(_whisper_record(state.day, seat, recipient, text))


def _check_whisper(state: State, seat: int, recipient: int, text: str, count: int) -> None:
    """S31 for a seat that sent `count` whispers today, then the claims of its text (S43)."""
    A.check_whisper_at(state, seat, recipient, text, count)
    check_post_claims(state, text)  # S43: a whisper may carry claims


def replay(setup: Setup, log: Iterable[A.Action]) -> State:
    """Rebuild a game from its setup and action log, exactly."""
    state = start(setup)
    for action in log:
        state, _ = apply(state, action)
    return state


def _with(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of a tuple with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])


def ring_audience(state: State) -> Audience:
    """The living Ring members: who may see the current order (S10)."""
    return Audience.only(
        *(s.index for s in state.seats if state.alive[s.index] and is_ring(s.role))
    )


def operation_json(state: State, operation: Operation | None) -> dict[str, str] | None:
    """A saved Operation as JSON, codenames for seats."""
    seats = state.seats
    if operation is None:
        return None
    if isinstance(operation, Order):
        return {
            "order_target": seats[operation.target].codename,
            "performer": seats[operation.performer].codename,
        }
    return {"target": seats[operation.target].codename}


def _set_operation(state: State, seat: int, operation: Operation | None) -> Transition:
    """Save the seat's Operation (S7: only the last saved one counts)."""
    previous = state.operations[seat]
    payload = {
        "day": state.day,
        "codename": state.seats[seat].codename,
        "operation": operation_json(state, operation),
    }
    # S10: all living Ring members see the current order, so its changes go to them.
    involves_order = isinstance(previous, Order) or isinstance(operation, Order)
    audience = ring_audience(state) if involves_order else Audience.only(seat)
    new_state = evolve(state, operations=_with(state.operations, seat, operation))
    return new_state, (Event("operation_saved", payload, audience),)


def _set_vote(state: State, seat: int, choice: int | None) -> Transition:
    """Save or withdraw a vote; votes are public and shown live (S21)."""
    payload = {
        "day": state.day,
        "voter": state.seats[seat].codename,
        "vote": vote_json(state.seats, choice),
    }
    new_state = evolve(state, votes=_with(state.votes, seat, choice))
    return new_state, (Event("vote", payload, Audience.everyone()),)


def _whisper(state: State, action: A.SendWhisper) -> Transition:
    """S31: the Floor shows who whispered to whom at once; the text only the two see."""
    whisper = Whisper(state.day, action.seat, action.recipient, action.text)
    names = {
        "day": state.day,
        "sender": state.seats[action.seat].codename,
        "recipient": state.seats[action.recipient].codename,
    }
    events = (
        Event("whisper_announced", names, Audience.everyone()),
        Event(
            "whisper", {**names, "text": action.text}, Audience.only(action.seat, action.recipient)
        ),
    )
    return evolve(state, whispers=(*state.whispers, whisper)), events


def _remove(state: State, seat: int) -> Transition:
    """S40: burned at once with cause removed, published on the Floor; S24 checked at once."""
    death = Death(seat, state.day, ("removed",), state.final_cables[seat])
    alive = _with(state.alive, seat, False)
    winner = check_victory(state.seats, alive, last_pouch=False)
    interrogation = state.interrogation
    if winner is not None or (interrogation is not None and seat in interrogation):
        interrogation = None  # S14: the chat closes when a participant is burned
    new_state = evolve(
        state,
        alive=alive,
        interrogation=interrogation,
        order_holder=None if winner is not None else state.order_holder,
        deaths=(*state.deaths, death),
        winner=winner,
    )
    payload = {"day": state.day, **death_json(state.seats, death)}
    events: list[Event] = [Event("player_removed", payload, Audience.everyone())]
    # S8: saved Operations and votes that named the removed player no longer stand; their
    # owners (and, for the order, the Ring) are told, like any other change of a save.
    for other, operation in enumerate(state.operations):
        if operation is not None and (other == seat or _names(operation, seat)):
            new_state, cleared = _set_operation(new_state, other, None)
            events.extend(cleared)
    for voter, vote in enumerate(state.votes):
        if vote is not None and (voter == seat or vote == seat):
            new_state, cleared = _set_vote(new_state, voter, None)
            events.extend(cleared)
    if winner is not None:
        events.append(Event("game_over", reveal_json(new_state), Audience.everyone()))
    return new_state, tuple(events)


def _names(operation: Operation | None, seat: int) -> bool:
    """Whether a saved Operation names this seat as target or performer."""
    if operation is None:
        return False
    if isinstance(operation, Order):
        return seat in (operation.target, operation.performer)
    return operation.target == seat
