"""Play a game record through the engine and describe the outcome (scenarios/cards/README.md)."""

from __future__ import annotations

from typing import Any

from deaddrop.engine.cards.actions import (
    Action,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    ShareInfo,
    SwapStash,
)
from deaddrop.engine.cards.record import Record, RecordError, RecordTurn, parse_record
from deaddrop.engine.cards.rounds import start
from deaddrop.engine.cards.rules import apply
from deaddrop.engine.cards.state import ChooseHandBack, Setup, State
from deaddrop.engine.core.errors import IllegalAction


def replay_record(data: object) -> dict[str, Any]:
    """The outcome JSON of a record document; RecordError (one line) if it is invalid."""
    record = parse_record(data)
    return outcome(play_record(record), len(record.rounds))


def play_record(record: Record) -> State:
    """The state after every recorded turn, each round starting from its recorded deal."""
    return _play(record)[0]


def record_game(record: Record) -> tuple[Setup, tuple[Action, ...]]:
    """The record as a game: its setup (with the recorded deals) and its action log."""
    return record.setup, _play(record)[1]


def _play(record: Record) -> tuple[State, tuple[Action, ...]]:
    state = start(record.setup)
    log: list[Action] = []
    for number, rnd in enumerate(record.rounds, start=1):
        if number > 1 and state.winner is not None:
            raise RecordError(
                "C11", f"the game was over after round {number - 1}", f"round {number}"
            )
        if state.round != number:
            # C10: a new round is dealt only once the previous one has ended.
            raise RecordError("C10", f"round {number - 1} has not ended", f"round {number}")
        for index, turn in enumerate(rnd.turns, start=1):
            where = f"round {number}, turn {index}: seat {turn.seat}"
            if state.round != number or state.pending is None:
                raise RecordError("C10", f"round {number} is over", where)
            try:
                state = play_turn(state, turn, log)
            except IllegalAction as error:
                raise RecordError(error.code, error.message, where) from None
    return state, tuple(log)


def play_turn(state: State, turn: RecordTurn, log: list[Action]) -> State:
    """The state after one recorded turn (its action, any second decision, grab or not).

    Each engine action applied is appended to `log`.
    """

    def step(state: State, action: Action) -> State:
        state, _ = apply(state, action)
        log.append(action)
        return state

    seat = turn.seat
    if turn.kind == "swap_stash":
        state = step(state, SwapStash(seat, _card(turn.give), _card(turn.take)))
    elif turn.kind == "share_info":
        target, give = _card(turn.target), _card(turn.give)
        if target in state.eliminated:
            # C5: the received card is the face-up card picked from the eliminated seat.
            state = step(state, ShareInfo(seat, target, give, _card(turn.take)))
        else:
            state = step(state, ShareInfo(seat, target, give))
            state = step(state, GiveCard(target, _card(turn.take)))
    else:
        state = step(state, SellSecrets(seat, _card(turn.target), _pair(turn.show)))
        if isinstance(state.pending, ChooseHandBack):
            if turn.hand_back is None:
                raise IllegalAction("C7", "the answer is yes: hand_back must name a shown card")
            state = step(state, HandBack(seat, turn.hand_back))
        elif turn.hand_back is not None:
            raise IllegalAction("C7", "the answer is no: hand_back must be absent")
    if turn.grab is not None:
        return step(state, Grab(seat, turn.grab))
    return step(state, EndTurn(seat))


def _card(value: int | None) -> int:
    assert value is not None  # parse_record fills every field the action's kind needs
    return value


def _pair(value: tuple[int, int] | None) -> tuple[int, int]:
    assert value is not None  # parse_record fills every field the action's kind needs
    return value


def outcome(state: State, rounds: int | None = None) -> dict[str, Any]:
    """The README's outcome JSON for the first `rounds` rounds (default: every round begun)."""
    if rounds is None:
        rounds = len(state.results) + (state.pending is not None)
    out: list[dict[str, Any]] = []
    for index in range(rounds):
        if index < len(state.results):
            result = state.results[index]
            out.append(
                _round_outcome(
                    result.winner,
                    result.by,
                    result.eliminated,
                    result.answers,
                    result.hands,
                    result.stash,
                )
            )
        else:
            hands, stash = state.hands, state.stash
            out.append(_round_outcome(None, None, state.eliminated, state.answers, hands, stash))
    return {"rounds": out, "tokens": list(state.tokens), "winner": state.winner}


def _round_outcome(
    winner: int | None,
    by: str | None,
    eliminated: tuple[int, ...],
    answers: tuple[str, ...],
    hands: tuple[tuple[int, ...], ...],
    stash: tuple[int, ...],
) -> dict[str, Any]:
    return {
        "winner": winner,
        "by": by,
        "eliminated": list(eliminated),
        "answers": list(answers),
        "hands": [sorted(hand) for hand in hands],
        "stash": sorted(stash),
    }
