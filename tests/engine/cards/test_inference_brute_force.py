"""An independent referee for `inference.py`: the posterior by enumerating whole histories.

Every physical shuffle of the cards the seat cannot see (C2), and every sequence of the other
seats' decisions, is played through the real engine (`apply`); the histories whose every step
shows the seat the same log entries and the same pending decision as the real game are kept,
weighted by their exact probability (fractions). Each decision of another seat weighs
1/len(legal_actions) under UNIFORM; under CONSISTENT it weighs 1/(how many legal options the
seat could not tell from it), so a choice the seat sees weighs 1. Nothing here uses
`inference`'s code.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from typing import Any

import pytest

from deaddrop.engine.cards import (
    DECK,
    HAND_SIZES,
    Action,
    ChooseGive,
    ChooseHandBack,
    Deal,
    EndTurn,
    GiveCard,
    HandBack,
    Options,
    SellSecrets,
    Setup,
    ShareInfo,
    State,
    apply,
    legal_actions,
    log_entry,
    pending_view,
    start,
    view,
)
from deaddrop.engine.cards.inference import CONSISTENT, UNIFORM, belief_from_view

Posterior = dict[tuple[int, tuple[tuple[int, ...], ...]], Fraction]


@dataclass(frozen=True)
class Game:
    """A real game cut off a few decisions into a round, and the seat that watches it."""

    setup: Setup
    """Given deals for every round played, and a fixed first seat."""
    actions: tuple[Action, ...]
    """Every decision taken, in order."""
    round_start: int
    """How many of `actions` came before the current round's deal."""
    seat: int
    """The seat whose posterior is checked."""
    state: State
    """The real state after `actions`."""


def random_deal(rng: random.Random, players: int) -> Deal:
    """A uniformly shuffled deal (C2)."""
    cards = list(DECK)
    rng.shuffle(cards)
    size = HAND_SIZES[players]
    hands = tuple(
        tuple(cards[1 + players + i * size : 1 + players + (i + 1) * size]) for i in range(players)
    )
    return Deal.of(cards[0], tuple(cards[1 : 1 + players]), hands)


def _pick(rng: random.Random, options: tuple[Action, ...], grab_rate: float, sales: bool) -> Action:
    """A random option; grabs are rarer so that rounds last a few turns; sales maybe favoured."""
    if isinstance(options[0], EndTurn) and rng.random() > grab_rate:
        return options[0]
    offers = [option for option in options if isinstance(option, SellSecrets)]
    if sales and offers and rng.random() < 0.6:
        return rng.choice(offers)
    return rng.choice(options)


def random_game(players: int, seed: int, rounds: int = 1, sales: bool = False) -> Game:
    """A random game cut off 1–10 decisions into round `rounds` (sales favoured if asked)."""
    rng = random.Random(f"{players}-{seed}-{rounds}-{sales}")
    deals = tuple(random_deal(rng, players) for _ in range(rounds))
    face_down = rng.random() < (0.6 if sales else 0.3)
    options = Options(grab_face_down=face_down, tokens_to_win=5)
    setup = Setup(players, seed, options, rng.randrange(players), deals)
    seat = rng.randrange(players)
    state, actions = start(setup), []
    while state.round < rounds:
        action = _pick(rng, legal_actions(state), 0.6, sales)
        state, _ = apply(state, action)
        actions.append(action)
    round_start = len(actions)
    for _ in range(rng.randint(1, 10)):
        assert state.pending is not None
        rate = 0.3 if state.pending.seat == seat else 0.25 if sales else 0.12
        action = _pick(rng, legal_actions(state), rate, sales)
        after, _ = apply(state, action)
        if after.round != rounds or after.pending is None:
            break
        state = after
        actions.append(action)
    return Game(setup, tuple(actions), round_start, seat, state)


def _seen(events: tuple[Any, ...], seat: int) -> list[dict[str, Any]]:
    return [log_entry(event) for event in events if event.audience.includes(seat)]


def _observations(game: Game) -> list[tuple[list[dict[str, Any]], dict[str, Any] | None]]:
    """What the seat saw after each decision of the current round: entries and pending."""
    state = start(game.setup)
    out = []
    for number, action in enumerate(game.actions):
        state, events = apply(state, action)
        if number >= game.round_start:
            out.append((_seen(events, game.seat), pending_view(state, game.seat)))
    return out


def _hypothetical_deals(game: Game) -> dict[Deal, Fraction]:
    """Every deal of the current round the seat cannot tell apart, with its exact probability."""
    real = game.setup.deals[-1]
    players, seat = game.setup.players, game.seat
    size = HAND_SIZES[players]
    unseen = list(DECK)
    for card in (*real.stash, *real.hands[seat]):
        unseen.remove(card)
    counts: Counter[tuple[int, tuple[tuple[int, ...], ...]]] = Counter()
    # Physical cards are distinct: permute their positions, then forget which copy is where.
    for order in permutations(range(len(unseen))):
        cards = [unseen[i] for i in order]
        others = tuple(
            tuple(sorted(cards[1 + i * size : 1 + (i + 1) * size])) for i in range(players - 1)
        )
        counts[(cards[0], others)] += 1
    total = sum(counts.values())
    out = {}
    for (drop, others), count in counts.items():
        hands = (*others[:seat], real.hands[seat], *others[seat:])
        out[Deal.of(drop, real.stash, hands)] = Fraction(count, total)
    return out


def signature(action: Action, state: State, seat: int, later: bool) -> object:
    """What the seat has learnt of another seat's choice by the end of the game's record.

    `later`: whether the record goes on past the next decision (the card offered to the seat
    in Share Info shows when the seat answers, C4).
    """
    pending = state.pending
    if isinstance(action, ShareInfo) and action.take is None:
        if action.target != seat:
            return ("share", action.target)  # C4: a trade between two others; cards unseen
        return action if later else ("share", seat)
    if isinstance(action, SellSecrets) and action.target != seat:
        return ("sell", action.target)  # C7: the pair shown to another seat is unseen
    if isinstance(action, GiveCard) and isinstance(pending, ChooseGive) and pending.mover != seat:
        return "give"
    if isinstance(action, HandBack) and isinstance(pending, ChooseHandBack):
        return "hand back" if pending.buyer != seat else action
    return action


def weights(state: State, seat: int, model: str, later: bool) -> list[tuple[Action, Fraction]]:
    """Each option of another seat with its probability (UNIFORM) or weight (CONSISTENT)."""
    options = legal_actions(state)
    if model == UNIFORM:
        return [(action, Fraction(1, len(options))) for action in options]
    signs = [signature(action, state, seat, later) for action in options]
    kinds = Counter(signs)
    return [(action, Fraction(1, kinds[sign])) for action, sign in zip(options, signs, strict=True)]


def brute_force_posterior(game: Game, model: str = UNIFORM) -> Posterior:
    """The seat's exact posterior over (The Drop, every hand) by enumerating histories."""
    observed = _observations(game)
    own = game.actions[game.round_start :]
    posterior: Posterior = {}
    for deal, prior in _hypothetical_deals(game).items():
        setup = Setup(
            game.setup.players,
            game.setup.seed,
            game.setup.options,
            game.setup.first,
            (*game.setup.deals[:-1], deal),
        )
        state = start(setup)
        for action in game.actions[: game.round_start]:
            state, _ = apply(state, action)
        stack = [(state, 0, prior)]
        while stack:
            state, step, weight = stack.pop()
            if step == len(observed):
                key = (state.drop, state.hands)
                posterior[key] = posterior.get(key, Fraction(0)) + weight
                continue
            assert state.pending is not None
            if state.pending.seat == game.seat:
                choices = [(own[step], Fraction(1))]  # the seat's own choices: probability 1
            else:
                choices = weights(state, game.seat, model, step + 1 < len(observed))
            for action, p in choices:
                after, events = apply(state, action)
                if (_seen(events, game.seat), pending_view(after, game.seat)) == observed[step]:
                    stack.append((after, step + 1, weight * p))
    total = sum(posterior.values())
    return {key: value / total for key, value in posterior.items()}


# -- the comparison ------------------------------------------------------------------------

PLAYERS = (2, 3, 4)
ROUND_ONE = [(players, seed) for players in PLAYERS for seed in range(30)]
ROUND_TWO = [(players, seed) for players in PLAYERS for seed in range(10)]
SALES = [(players, seed) for players in PLAYERS for seed in range(16)]
VARIANTS = ((1, False), (2, False), (1, True))
"""Round one, round two, round one with sales favoured."""


def max_error(game: Game, model: str = UNIFORM) -> float:
    """The largest difference between inference.py and the brute force over configurations."""
    expected = brute_force_posterior(game, model)
    got = belief_from_view(view(game.state, game.seat), model).probs
    keys = set(expected) | set(got)
    return max(abs(float(expected.get(key, 0)) - got.get(key, 0.0)) for key in keys)


@pytest.mark.parametrize(("players", "seed"), ROUND_ONE)
def test_c13_posterior_equals_brute_force_round_one(players: int, seed: int) -> None:
    assert max_error(random_game(players, seed)) < 1e-9


@pytest.mark.parametrize(("players", "seed"), ROUND_TWO)
def test_c13_posterior_equals_brute_force_round_two(players: int, seed: int) -> None:
    assert max_error(random_game(players, seed, rounds=2)) < 1e-9


@pytest.mark.parametrize(("players", "seed"), SALES)
def test_c7_c8_posterior_equals_brute_force_with_many_sales(players: int, seed: int) -> None:
    assert max_error(random_game(players, seed, sales=True)) < 1e-9


@pytest.mark.parametrize(("players", "seed"), SALES + ROUND_TWO)
def test_c13_consistent_model_equals_brute_force(players: int, seed: int) -> None:
    rounds, sales = VARIANTS[seed % len(VARIANTS)]
    assert max_error(random_game(players, seed, rounds, sales), CONSISTENT) < 1e-9


def situations(game: Game) -> set[str]:
    """What kinds of hidden choices the seat had to reason about in a game."""
    out: set[str] = set()
    me = game.seat
    observed = _observations(game)
    for entries, _ in observed:
        for entry in entries:
            kind, mover = entry["kind"], entry.get("seat")
            party = "me" if mover == me else "them"
            if kind == "share_info":
                third = me not in (mover, entry["with"])
                out.add("share face up" if entry["face_up"] else f"share {party} third={third}")
            elif kind == "sell_secrets":
                third = me not in (mover, entry["to"])
                out.add(f"sale {party} third={third} {entry['answer']}")
            elif kind == "grab":
                out.add(f"grab {party} face_down={entry['pair'] is None}")
    pending = observed[-1][1] if observed else None
    if pending is not None and pending["seat"] != me:
        out.add(f"waiting for {pending['kind']}")
    return out


def test_the_cases_cover_every_hidden_choice() -> None:
    seen: Counter[str] = Counter()
    for players, seed in ROUND_ONE:
        seen.update(situations(random_game(players, seed)))
    for players, seed in ROUND_TWO:
        seen.update(situations(random_game(players, seed, rounds=2)))
    for players, seed in SALES:
        seen.update(situations(random_game(players, seed, sales=True)))
    expected = {
        "share face up",
        *(f"share {party} third={third}" for party in ("me", "them") for third in (False, True)),
        *(
            f"sale {party} third=False {answer}"
            for party in ("me", "them")
            for answer in ("yes", "no")
        ),
        "sale them third=True yes",
        "sale them third=True no",
        *(f"grab {party} face_down={down}" for party in ("me", "them") for down in (False, True)),
        *(f"waiting for {kind}" for kind in ("action", "give", "hand_back", "grab")),
    }
    expected.discard("share me third=True")  # the mover is always a party to its own trade
    missing = {name for name in expected if seen[name] < 2}
    assert not missing, seen
