"""The expert Station level in whole games: secrets it cannot see change nothing (S42), every save
and post is legal (S43), a day is a pure function of its inputs, and the Ring's lies stay one
story per liar across the game."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping

import pytest

from deaddrop.bots.station import expert, heuristic, random_bot
from deaddrop.bots.station.base import DayBot, DayPlan
from deaddrop.bots.station.registry import level
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.claims import (
    ClaimContext,
    ReadingClaim,
    RoleClaim,
    check_claim,
    format_post,
    parse_post,
)
from deaddrop.engine.station.roles import ROLE_TABLE, Faction, is_ring
from deaddrop.engine.station.state import State
from deaddrop.station_sim.chat import SimChat
from deaddrop.station_sim.simulate import play_to_end, seen_by
from tests.bots.station.test_heuristic import _hidden_from, _midgame

E: Mapping[Faction, DayBot] = {f: expert.plan_day for f in Faction}


def _sides(station: DayBot, ring: DayBot) -> Mapping[Faction, DayBot]:
    return {Faction.STATION: station, Faction.NEUTRAL: station, Faction.RING: ring}


def _decide(state: State, chat: SimChat, seat: int, rng: Rng) -> DayPlan:
    seen = seen_by(state, seat)
    plan, _ = expert.plan_day(seen, chat.posts_for(state, seat, seen), rng)
    return plan


def test_the_expert_is_a_level() -> None:
    assert level("expert") is expert.plan_day


def _midgame_seats() -> Iterator[tuple[int, State, SimChat, int]]:
    """(seed, state, chat, seat) for every living seat of a few heuristic midgames."""
    for seed in range(2):
        for players, days in ((10, 1), (8, 2), (9, 3)):
            state, chat = _midgame(players, seed, days)
            for seat in state.living():
                yield seed, state, chat, seat


def test_s42_secrets_a_seat_cannot_see_change_none_of_its_decisions_for_every_role() -> None:
    roles_checked: set[str] = set()
    for seed, state, chat, seat in _midgame_seats():
        changed, other_chat = _hidden_from(state, seat, chat)
        seen = seen_by(state, seat)
        assert changed != state and seen_by(changed, seat) == seen
        assert other_chat.posts_for(changed, seat, seen) == chat.posts_for(state, seat, seen)
        rng = Rng.from_seed(seed + seat)
        assert _decide(changed, other_chat, seat, rng) == _decide(state, chat, seat, rng)
        roles_checked.add(state.seats[seat].role)
    assert roles_checked == set(ROLE_TABLE[10])


def _check_game(state: State, chat: SimChat) -> None:
    """Every post is a well-formed claim post (S43); each Ring liar keeps one role story."""
    context = ClaimContext.of_state(state)
    covers: dict[str, set[str]] = defaultdict(set)
    readings: dict[tuple[str, int], set[ReadingClaim]] = defaultdict(set)
    ring = {s.codename for s in state.seats if is_ring(s.role)}
    for message in chat.messages:
        claims = parse_post(message.text)
        assert claims and format_post(claims) == message.text
        for claim in claims:
            check_claim(claim, context)
            if message.author in ring and message.channel.value == "floor":
                if isinstance(claim, RoleClaim):
                    covers[message.author].add(claim.role)
                elif isinstance(claim, ReadingClaim):
                    readings[(message.author, claim.day)].add(claim)
    assert all(len(roles) == 1 for roles in covers.values())  # one fake role per liar
    assert all(len(told) == 1 for told in readings.values())  # one fake reading a day
    for record in state.history:
        for whisper in record.whispers:
            if not whisper.text.startswith("note "):  # the random level's whispers
                for claim in parse_post(whisper.text):
                    check_claim(claim, context)


@pytest.mark.parametrize("players", [6, 7, 8, 9, 10])
def test_s42_s43_the_expert_decides_legal_days_in_whole_games(players: int) -> None:
    """The simulator applies each save through `apply` and each post through `check_post`."""
    opponents = (
        E,
        _sides(expert.plan_day, random_bot.plan_day),
        _sides(random_bot.plan_day, expert.plan_day),
        _sides(heuristic.plan_day, expert.plan_day),
    )
    for seed in range(1 if players == 10 else 2):  # the posterior is dearest at ten
        for deciders in opponents:
            state, chat = play_to_end(players, seed * 11 + players, deciders)
            assert state.over
            _check_game(state, chat)


def test_a_day_is_a_pure_function_of_view_posts_and_rng() -> None:
    state, chat = _midgame(9, 4, 2)
    for seat in state.living():
        first = _decide(state, chat, seat, Rng.from_seed(seat))
        assert first == _decide(state, chat, seat, Rng.from_seed(seat))
    assert play_to_end(7, 5, E) == play_to_end(7, 5, E)
