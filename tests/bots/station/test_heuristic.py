"""The heuristic Station level: secrets it cannot see change nothing (S42), its saves and claims
are legal (S43), it is deterministic, and its role rules do what the issue says."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from deaddrop.bots.station import heuristic, random_bot
from deaddrop.bots.station.base import BotPost, DayBot, DayPlan
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.claims import (
    ClaimContext,
    Post,
    ReadingClaim,
    RoleClaim,
    check_claim,
    format_post,
    parse_post,
)
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.roles import ROLE_TABLE, Faction, is_ring
from deaddrop.engine.station.setup import Setup, setup_from_deal, start
from deaddrop.engine.station.state import ABSTAIN, State, Whisper
from deaddrop.station_sim.chat import SimChat
from deaddrop.station_sim.simulate import play_seat, play_to_end, seen_by

H: Mapping[Faction, DayBot] = {f: heuristic.plan_day for f in Faction}
VS_RANDOM_STATION: Mapping[Faction, DayBot] = {
    Faction.STATION: random_bot.plan_day,
    Faction.NEUTRAL: random_bot.plan_day,
    Faction.RING: heuristic.plan_day,
}
VS_RANDOM_RING: Mapping[Faction, DayBot] = {
    Faction.STATION: heuristic.plan_day,
    Faction.NEUTRAL: heuristic.plan_day,
    Faction.RING: random_bot.plan_day,
}


def _decide(state: State, chat: SimChat, seat: int, rng: Rng) -> DayPlan:
    seen = seen_by(state, seat)
    plan, _ = heuristic.plan_day(seen, chat.posts_for(state, seat, seen), rng)
    return plan


def _midgame(players: int, seed: int, days: int) -> tuple[State, SimChat]:
    """Heuristic bots play `days` days (fewer if the game ends), then the next day's saves."""
    state = start(Setup(tuple(f"p{i}" for i in range(players)), seed))
    chat = SimChat()
    bots: list[tuple[DayBot, Rng]] = [(heuristic.plan_day, Rng.from_seed(seed * 31 + s))
                                      for s in range(players)]  # fmt: skip
    for _ in range(days):
        for seat in state.living():
            state = play_seat(state, chat, seat, bots)
        after, _ = apply(state, A.ResolvePouch())
        if after.over:
            break
        state = after
    return state, chat


def _hidden_from(state: State, seat: int, chat: SimChat) -> tuple[State, SimChat]:
    """The same game with every secret this seat may not see changed (S26-S31, S42)."""
    me = state.seats[seat]
    ring_seat = is_ring(me.role)
    # Others whose role this seat cannot see: for the Ring, non-Ring seats (S5); for anyone
    # else, every other living seat (a burned seat's faction is public, S23).
    hidden = [
        s.index
        for s in state.seats
        if s.index != seat and state.alive[s.index] and not (ring_seat and is_ring(s.role))
    ]
    same_faction = [(a, b) for a in hidden for b in hidden if a < b]
    seats = list(state.seats)
    for a, b in same_faction:
        if seats[a].role != seats[b].role and (
            not ring_seat or not (is_ring(seats[a].role) or is_ring(seats[b].role))
        ):
            seats[a], seats[b] = (
                dataclasses.replace(seats[a], role=seats[b].role),
                dataclasses.replace(seats[b], role=seats[a].role),
            )
            break
    others = [s for s in hidden if s != seat]
    operations = list(state.operations)
    cables = list(state.final_cables)
    for other in others:
        if not (ring_seat and other == state.order_holder):
            operations[other] = None  # another seat's saves are its own (S7)
        cables[other] = f"secret of {other}"  # S32: unpublished while alive
    whispers = tuple(
        w if seat in (w.sender, w.recipient) else dataclasses.replace(w, text="I suspect X.")
        for w in state.whispers
    )
    history = tuple(
        dataclasses.replace(
            record,
            results=tuple((s, r) for s, r in record.results if s == seat),  # S19
            whispers=tuple(
                w if seat in (w.sender, w.recipient) else Whisper(w.day, w.sender, w.recipient, "")
                for w in record.whispers
            ),
        )
        for record in state.history
    )
    changed = dataclasses.replace(
        state,
        seats=tuple(seats),
        operations=tuple(operations),
        final_cables=tuple(cables),
        whispers=whispers,
        history=history,
        rng=Rng.from_seed(state.rng.state ^ 0xABCDEF),
    )
    other_chat = SimChat(list(chat.messages))
    ring_member = next((s.index for s in state.seats if is_ring(s.role) and state.alive[s.index]),
                       None)  # fmt: skip
    if not ring_seat and ring_member is not None:
        # S29: a Ring Channel post the seat cannot read
        other_chat.post(state, ring_member, Channel.RING, f"I suspect {me.codename}.")
    return changed, other_chat


def test_s42_secrets_a_seat_cannot_see_change_none_of_its_decisions_for_every_role() -> None:
    roles_checked: set[str] = set()
    for seed in range(6):
        for players, days in ((10, 1), (10, 3), (8, 2), (9, 3)):
            state, chat = _midgame(players, seed, days)
            for seat in state.living():
                rng = Rng.from_seed(seed + seat)
                changed, other_chat = _hidden_from(state, seat, chat)
                assert changed != state
                seen = seen_by(state, seat)
                assert seen_by(changed, seat) == seen  # the view hides every changed secret
                posts = chat.posts_for(state, seat, seen)
                assert other_chat.posts_for(changed, seat, seen) == posts
                assert _decide(changed, other_chat, seat, rng) == _decide(state, chat, seat, rng)
                roles_checked.add(state.seats[seat].role)
    assert roles_checked == set(ROLE_TABLE[10])  # every role


@pytest.mark.parametrize("players", [6, 7, 8, 9, 10])
def test_s42_s43_every_save_and_post_is_legal_and_every_claim_well_formed(players: int) -> None:
    """The simulator applies each save through `apply` and each post through `check_post`:
    an IllegalAction would fail this test. Every bot message is a claim post."""
    kinds: Counter[str] = Counter()
    for seed in range(8):
        for deciders in (H, VS_RANDOM_RING, VS_RANDOM_STATION):
            state, chat = play_to_end(players, seed * 7 + players, deciders)
            for message in chat.messages:
                claims = parse_post(message.text)  # S43: well formed, every sentence a claim
                assert claims and format_post(claims) == message.text
                kinds[message.channel.value] += 1
            context = ClaimContext.of_state(state)
            for record in state.history:
                for whisper in record.whispers:
                    if whisper.text.startswith("note "):
                        continue  # the random level's whispers
                    for claim in parse_post(whisper.text):
                        check_claim(claim, context)
                    kinds["whisper"] += 1
            for death in state.deaths:
                for claim in parse_post(death.final_cable or "-"):
                    check_claim(claim, context)
                    kinds["final_cable"] += 1
    assert kinds["floor"] > 0 and kinds["final_cable"] > 0
    if players >= 7:
        assert kinds["ring"] > 0


def test_every_kind_of_save_is_made() -> None:
    kinds: set[type] = set()

    def counting(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
        plan, rng = heuristic.plan_day(seen, posts, rng)
        kinds.update(type(a) for a in plan.actions)
        return plan, rng

    for seed in range(6):
        play_to_end(10, seed, {f: counting for f in Faction})
    assert {A.SaveOperation, A.SaveOrder, A.CastVote, A.MarkDone, A.EditFinalCable} <= kinds
    assert A.SendWhisper in kinds


def test_a_day_is_a_pure_function_of_view_posts_and_rng() -> None:
    state, chat = _midgame(10, 3, 2)
    for seat in state.living():
        a = _decide(state, chat, seat, Rng.from_seed(seat))
        assert a == _decide(state, chat, seat, Rng.from_seed(seat))
    first, _ = play_to_end(8, 5, H)
    again, _ = play_to_end(8, 5, H)
    assert first == again


# Role rules, on a fixed deal of six.
DEAL = (
    ("OWL", "ringleader"),
    ("RAVEN", "forger"),
    ("HERON", "analyst"),
    ("WREN", "safehouse_keeper"),
    ("KESTREL", "field_agent"),
    ("FALCON", "field_agent"),
)
SEATS = {codename: i for i, (codename, _) in enumerate(DEAL)}


def _day2_after_reading(target: str) -> tuple[State, SimChat]:
    """Day 1: the Analyst reads `target`; Day 2 begins."""
    state = start(setup_from_deal(DEAL, 1))
    state, _ = apply(state, A.SaveOperation(SEATS["HERON"], SEATS[target]))
    state, _ = apply(state, A.ResolvePouch())
    return state, SimChat()


def test_an_analyst_claims_a_compromised_reading_on_the_floor_and_votes_for_it() -> None:
    state, chat = _day2_after_reading("RAVEN")
    plan = _decide(state, chat, SEATS["HERON"], Rng.from_seed(1))
    expected = format_post([RoleClaim("analyst"), ReadingClaim(1, "RAVEN", "COMPROMISED")])
    assert BotPost("floor", expected) in plan.posts
    assert A.CastVote(SEATS["HERON"], SEATS["RAVEN"]) in plan.actions
    cable = next(a for a in plan.actions if isinstance(a, A.EditFinalCable))
    assert parse_post(cable.text) == (RoleClaim("analyst"), ReadingClaim(1, "RAVEN", "COMPROMISED"))


def test_votes_follow_a_claimed_reading_and_the_keeper_shelters_the_claimant() -> None:
    state, chat = _day2_after_reading("RAVEN")
    claim = format_post([RoleClaim("analyst"), ReadingClaim(1, "RAVEN", "COMPROMISED")])
    chat.post(state, SEATS["HERON"], Channel.FLOOR, claim)
    for name in ("KESTREL", "FALCON", "WREN"):
        plan = _decide(state, chat, SEATS[name], Rng.from_seed(2))
        assert A.CastVote(SEATS[name], SEATS["RAVEN"]) in plan.actions
    keeper = _decide(state, chat, SEATS["WREN"], Rng.from_seed(3))
    assert A.SaveOperation(SEATS["WREN"], SEATS["HERON"]) in keeper.actions


def test_the_ring_liquidates_the_investigator_and_votes_out_its_accuser() -> None:
    state, chat = _day2_after_reading("RAVEN")
    claim = format_post([RoleClaim("analyst"), ReadingClaim(1, "RAVEN", "COMPROMISED")])
    chat.post(state, SEATS["HERON"], Channel.FLOOR, claim)
    for seed in range(5):
        plan = _decide(state, chat, SEATS["OWL"], Rng.from_seed(seed))
        order = next(a for a in plan.actions if isinstance(a, A.SaveOrder))
        assert order.target == SEATS["HERON"]
        assert A.CastVote(SEATS["OWL"], SEATS["HERON"]) in plan.actions
        assert BotPost("ring", "I suspect HERON.") in plan.posts  # S29: the Ring agrees


def test_a_ring_member_follows_the_vote_agreed_in_the_ring_channel() -> None:
    state, chat = _day2_after_reading("KESTREL")
    chat.post(state, SEATS["OWL"], Channel.RING, "I suspect FALCON.")
    plan = _decide(state, chat, SEATS["RAVEN"], Rng.from_seed(4))
    assert A.CastVote(SEATS["RAVEN"], SEATS["FALCON"]) in plan.actions
    assert A.SaveOperation(SEATS["RAVEN"], SEATS["FALCON"]) in plan.actions  # S16: the frame
    assert not any(p.channel == "ring" for p in plan.posts)  # the plan is made already


def test_s25_the_defector_votes_for_itself() -> None:
    for seed in range(4):
        state, chat = _midgame(8, seed, 1)
        defector = next(s.index for s in state.seats if s.role == "defector")
        if not state.alive[defector]:
            continue
        plan = _decide(state, chat, defector, Rng.from_seed(seed))
        assert A.CastVote(defector, defector) in plan.actions
        assert A.CastVote(defector, ABSTAIN) not in plan.actions


def test_a_station_seat_without_a_suspect_stands_against_a_recall_nobody_explained() -> None:
    """S21: two votes recall at six; with no claim behind them, the Station votes a voter."""
    state = start(setup_from_deal(DEAL, 1))
    for voter in ("OWL", "RAVEN"):
        state, _ = apply(state, A.CastVote(SEATS[voter], SEATS["KESTREL"]))
    for name in ("FALCON", "KESTREL"):
        plan = _decide(state, SimChat(), SEATS[name], Rng.from_seed(5))
        assert A.CastVote(SEATS[name], SEATS["OWL"]) in plan.actions  # the same one for all


def test_s23_the_voters_of_a_recalled_station_player_are_suspected_next_day() -> None:
    """The Cable shows the recalled KESTREL was Station: its voters look like the Ring."""
    state = start(setup_from_deal(DEAL, 1))
    for voter in ("OWL", "RAVEN"):
        state, _ = apply(state, A.CastVote(SEATS[voter], SEATS["KESTREL"]))
    state, _ = apply(state, A.ResolvePouch())
    assert state.death_of(SEATS["KESTREL"]) is not None
    for name in ("FALCON", "WREN", "HERON"):
        plan = _decide(state, SimChat(), SEATS[name], Rng.from_seed(6))
        assert A.CastVote(SEATS[name], SEATS["OWL"]) in plan.actions  # the same one for all
