"""Play a game of Cards among deciders (bots or a person), each given only its seat's view.

The driver is shared by the simulator, the terminal and the web: it asks the seat in
`state.pending` for a decision, showing it `view(state, seat)` and nothing else (C13), applies
the answer and keeps going until the game ends.

Two things are the driver's own, not the engine's:

- A turn cap. Bots that never grab could play a round forever, so a round that reaches
  `turn_cap` complete turns is voided: it counts for nobody, the event `round_void` is logged
  for everyone, and a fresh round is dealt from the game's RNG with the next first seat (C3).
  A voided game is no longer an engine replay (`replayable` turns False); it is still a
  finished game. `void_cap` voided rounds abandon the game (no winner), so a run always ends.
- Per-seat logs kept as the game goes, so a view costs the same at turn 5 and turn 500; a
  test checks they equal `view(state, seat)` exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, Protocol

from deaddrop.engine.cards.actions import Action, EndTurn, Grab
from deaddrop.engine.cards.rounds import begin_round, start
from deaddrop.engine.cards.rules import apply
from deaddrop.engine.cards.state import ChooseAction, Setup, State
from deaddrop.engine.cards.views import log_entry, view
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Audience, Event

DEFAULT_TURN_CAP = 300
"""Complete turns after which a round is voided (random 4-player rounds average ~15)."""
DEFAULT_VOID_CAP = 20
"""Voided rounds after which a game is abandoned without a winner."""

# A copy of the state without its log, built positionally: `dataclasses.replace` was the
# largest single cost of random play, and `view` reads the log only to filter it.
_STATE_FIELDS = [f.name for f in fields(State)]
_LOG_INDEX = _STATE_FIELDS.index("log")
_state_values = attrgetter(*_STATE_FIELDS)


def _without_log(state: State) -> State:
    values = list(_state_values(state))
    values[_LOG_INDEX] = ()
    return State(*values)


class Decider(Protocol):
    """Anything that answers a view with an action: a bot, or a person's front."""

    def choose(self, view: Mapping[str, Any]) -> Action:
        """One action for the seat whose decision it is."""
        ...


class Refusable(Protocol):
    """A decider that may submit illegal actions (a person) and wants to hear why."""

    def refused(self, error: IllegalAction) -> None:
        """Told why its last action was refused; it will be asked again."""
        ...


@dataclass(slots=True)
class GameResult:
    """How a driven game went: the winner and the counts the simulator reports."""

    state: State
    """The final state."""
    actions: list[Action]
    """Every action applied, in order (an engine replay only when `replayable`)."""
    winner: int | None
    """The seat that won the game (C11), or None if it was abandoned."""
    rounds: int
    """Rounds finished with a winner."""
    voided_rounds: list[int] = field(default_factory=list)
    """Round numbers voided by the turn cap."""
    turns: int = 0
    """Complete turns played (a turn ends with a grab or its end)."""
    failed_grabs: list[int] = field(default_factory=list)
    """Failed grabs per seat (C8)."""

    @property
    def replayable(self) -> bool:
        """Whether `replay(setup, actions)` rebuilds the final state (no round was voided)."""
        return not self.voided_rounds


class Table:
    """A game being played: the state, each seat's log so far, and the counts."""

    def __init__(
        self,
        setup: Setup,
        deciders: Sequence[Decider],
        *,
        turn_cap: int | None = DEFAULT_TURN_CAP,
        void_cap: int = DEFAULT_VOID_CAP,
    ) -> None:
        if len(deciders) != setup.players:
            raise ValueError(f"{setup.players} seats need {setup.players} deciders")
        self.state = start(setup)
        self.deciders = list(deciders)
        self.turn_cap = turn_cap
        self.void_cap = void_cap
        self.actions: list[Action] = []
        self.voided_rounds: list[int] = []
        self.turns = 0
        self.round_turns = 0
        self.failed_grabs = [0] * setup.players
        self.abandoned = False
        self._logs: list[list[dict[str, Any]]] = [[] for _ in range(setup.players)]
        self._record(self.state.log)

    @property
    def over(self) -> bool:
        """Whether the game has ended (won, or abandoned after too many voided rounds)."""
        return self.state.pending is None or self.abandoned

    def view(self, seat: int) -> dict[str, Any]:
        """`view(state, seat)` exactly, with the log kept incrementally (C12)."""
        out = view(_without_log(self.state), seat)
        out["log"] = list(self._logs[seat])
        return out

    def step(self) -> None:
        """Ask the seat that must decide, apply its answer (asking again after a refusal)."""
        pending = self.state.pending
        if pending is None or self.abandoned:
            raise ValueError("the game is over")
        if type(pending) is ChooseAction and self._stuck():
            self._void_round()
            return
        seat = pending.seat
        decider = self.deciders[seat]
        while True:
            action = decider.choose(self.view(seat))
            try:
                state, events = apply(self.state, action)
            except IllegalAction as error:
                refused = getattr(decider, "refused", None)
                if refused is None:
                    raise  # a bot that breaks the rules is a bug, not a move
                refused(error)
                continue
            break
        self.state = state
        self.actions.append(action)
        if isinstance(action, Grab | EndTurn):
            self.turns += 1
            self.round_turns += 1
        self._record(events)

    def run(self) -> GameResult:
        """Play until the game ends and sum it up."""
        while not self.over:
            self.step()
        return self.result()

    def result(self) -> GameResult:
        """The counts so far (final once `over`)."""
        return GameResult(
            state=self.state,
            actions=self.actions,
            winner=self.state.winner,
            rounds=len(self.state.results),
            voided_rounds=list(self.voided_rounds),
            turns=self.turns,
            failed_grabs=list(self.failed_grabs),
        )

    def _record(self, events: Sequence[Event]) -> None:
        """Add new events to the logs of the seats in their audience; count what matters."""
        logs = self._logs
        for event in events:
            entry = log_entry(event)
            audience = event.audience
            if audience.public:
                for log in logs:
                    log.append(entry)
            else:
                for seat in audience.seats:
                    logs[seat].append(entry)
            if event.kind == "eliminated":
                self.failed_grabs[event.payload["seat"]] += 1
            elif event.kind == "deal":
                self.round_turns = 0

    def _stuck(self) -> bool:
        return self.turn_cap is not None and self.round_turns >= self.turn_cap

    def _void_round(self) -> None:
        """The turn cap: void this round for everyone and deal the next one (C3, C10)."""
        state = self.state
        self.voided_rounds.append(state.round)
        if len(self.voided_rounds) >= self.void_cap:
            self.abandoned = True
            return
        void = Event(
            "round_void",
            {"round": state.round, "turns": self.round_turns},
            Audience.everyone(),
        )
        log = (*state.log, void)
        first = (state.first + 1) % state.setup.players
        self.state = begin_round(
            state.setup, state.rng, state.round + 1, first, state.tokens, state.results, log
        )
        self._record(self.state.log[len(state.log) :])


def play_game(
    setup: Setup,
    deciders: Sequence[Decider],
    *,
    turn_cap: int | None = DEFAULT_TURN_CAP,
    void_cap: int = DEFAULT_VOID_CAP,
) -> GameResult:
    """Play a whole game among the deciders (seat i is deciders[i]) and sum it up."""
    return Table(setup, deciders, turn_cap=turn_cap, void_cap=void_cap).run()
