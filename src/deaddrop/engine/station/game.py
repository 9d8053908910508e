"""`apply(state, action)`: the one transition function of Station, and exact replay."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.core.records import evolve
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.cable import death_json, reveal_json, vote_json
from deaddrop.engine.station.claims import check_post_claims
from deaddrop.engine.station.pouch import resolve_pouch
from deaddrop.engine.station.roles import is_ring
from deaddrop.engine.station.saves import BatchRefused as BatchRefused  # importable from here
from deaddrop.engine.station.saves import check_saves as check_saves
from deaddrop.engine.station.saves import check_whisper, sent_today, whisper_record
from deaddrop.engine.station.saves import with_saves as with_saves
from deaddrop.engine.station.setup import Setup, start
from deaddrop.engine.station.state import (
    ABILITY_ON,
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
    sent = sent_today(state)
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
    check_whisper(state, seat, recipient, text, count)
    sent[seat] = count + 1
    whispers.append(whisper_record(state.day, seat, recipient, text))


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
