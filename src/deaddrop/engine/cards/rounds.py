"""Starting a game, dealing a round (C2, C3) and ending one (C9, C10, C11)."""

from __future__ import annotations

from deaddrop.engine.cards.deck import Deal, check_deal, check_players, deal_from_rng
from deaddrop.engine.cards.state import ChooseAction, Options, RoundResult, Setup, State
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.core.records import evolve
from deaddrop.engine.core.rng import Rng

_PUBLIC = Audience.everyone()


def check_setup(setup: Setup) -> None:
    """Raise IllegalAction unless the setup can start a game (C2, C3, C8, C11)."""
    if not isinstance(setup, Setup):
        raise IllegalAction("C2", "a game starts from a Setup")
    players = check_players(setup.players)
    if type(setup.seed) is not int:
        raise IllegalAction("C2", "the seed must be an integer")
    if not isinstance(setup.options, Options):
        raise IllegalAction("C11", "the table options must be Options")
    if type(setup.options.grab_face_down) is not bool:
        raise IllegalAction("C8", "grab_face_down must be true or false")
    tokens = setup.options.tokens_to_win
    if type(tokens) is not int or tokens < 1:
        raise IllegalAction("C11", "tokens_to_win must be a positive integer")
    first = setup.first
    if first is not None and (type(first) is not int or first not in range(players)):
        raise IllegalAction("C3", f"the first seat must be a seat from 0 to {players - 1}")
    if type(setup.deals) is not tuple:
        raise IllegalAction("C2", "the given deals are a tuple of Deal")
    for number, deal in enumerate(setup.deals, start=1):
        try:
            check_deal(deal, players)
        except IllegalAction as error:
            raise IllegalAction(error.code, f"round {number}: {error.message}") from None


def start(setup: Setup) -> State:
    """The state at the start of round 1: first seat (C3) and deal (C2) from the seeded RNG."""
    check_setup(setup)
    rng = Rng.from_seed(setup.seed)
    first = setup.first
    if first is None:
        # C3: round 1 starts with a seat drawn by the RNG.
        first, rng = rng.below(setup.players)
    return begin_round(setup, rng, 1, first, (0,) * setup.players, (), ())


def begin_round(
    setup: Setup,
    rng: Rng,
    number: int,
    first: int,
    tokens: tuple[int, ...],
    results: tuple[RoundResult, ...],
    log: tuple[Event, ...],
) -> State:
    """A new round: the given deal for this round if the setup has one, else one from the RNG."""
    if number <= len(setup.deals):
        deal = setup.deals[number - 1]
    else:
        deal, rng = deal_from_rng(rng, setup.players)
    return State(
        setup=setup,
        rng=rng,
        round=number,
        first=first,
        turn=first,
        drop=deal.drop,
        stash=deal.stash,
        hands=deal.hands,
        eliminated=(),
        answers=(),
        tokens=tokens,
        pending=ChooseAction(first),
        winner=None,
        results=results,
        log=log + deal_events(number, first, deal),
    )


def deal_events(number: int, first: int, deal: Deal) -> tuple[Event, ...]:
    """The public layout of a new round, and each hand told to its seat alone (C2, C12)."""
    public = Event(
        "deal",
        {
            "round": number,
            "first": first,
            "stash": deal.stash,
            "hand_sizes": tuple(len(hand) for hand in deal.hands),
        },
        _PUBLIC,
    )
    hands = tuple(
        Event("hand", {"round": number, "seat": seat, "hand": hand}, Audience.only(seat))
        for seat, hand in enumerate(deal.hands)
    )
    return (public, *hands)


def _round_end(result: RoundResult, tokens: tuple[int, ...]) -> Event:
    """C10: after a round every card is revealed in the log."""
    return Event(
        "round_end",
        {
            "round": result.round,
            "winner": result.winner,
            "by": result.by,
            "eliminated": result.eliminated,
            "drop": result.drop,
            "stash": result.stash,
            "hands": result.hands,
            "tokens": tokens,
        },
        _PUBLIC,
    )


def finish_round(
    state: State,
    hands: tuple[tuple[int, ...], ...],
    eliminated: tuple[int, ...],
    winner: int,
    by: str,
    events: tuple[Event, ...],
) -> tuple[State, tuple[Event, ...]]:
    """End the round for its winner (C8 or C9): token, full reveal (C10), game end or new deal."""
    tokens = tuple(n + (seat == winner) for seat, n in enumerate(state.tokens))
    result = RoundResult(
        round=state.round,
        first=state.first,
        winner=winner,
        by=by,
        eliminated=eliminated,
        answers=state.answers,
        drop=state.drop,
        stash=state.stash,
        hands=hands,
    )
    events = (*events, _round_end(result, tokens))
    results = (*state.results, result)
    setup = state.setup
    if tokens[winner] >= setup.options.tokens_to_win:
        # C11: the first to hold tokens_to_win tokens wins the game.
        events = (*events, Event("game_end", {"winner": winner, "tokens": tokens}, _PUBLIC))
        over = evolve(
            state,
            hands=hands,
            eliminated=eliminated,
            tokens=tokens,
            pending=None,
            winner=winner,
            results=results,
            log=state.log + events,
        )
        return over, events
    # C3: each later round starts with the seat after the previous round's first seat.
    first = (state.first + 1) % setup.players
    log = state.log + events
    nxt = begin_round(setup, state.rng, state.round + 1, first, tokens, results, log)
    return nxt, events + nxt.log[len(log) :]
