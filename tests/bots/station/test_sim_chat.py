"""The simulated chat: posts follow the channels' rules (S28-S31, S43), each bot reads its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from deaddrop.bots.station import random_bot, registry
from deaddrop.bots.station.base import BotPost, DayPlan
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.claims import Post, parse_post
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.roles import is_ring
from deaddrop.engine.station.setup import Setup, start
from deaddrop.engine.station.state import State
from deaddrop.station_sim.chat import SimChat
from deaddrop.station_sim.simulate import seen_by, simulate


def _game(players: int = 6, seed: int = 1) -> State:
    return start(Setup(tuple(f"p{i}" for i in range(players)), seed))


def _ring_and_station(state: State) -> tuple[int, int]:
    ring = next(s.index for s in state.seats if is_ring(s.role))
    station = next(s.index for s in state.seats if not is_ring(s.role))
    return ring, station


def test_s28_s29_the_floor_reads_to_all_the_ring_channel_to_the_ring_only() -> None:
    state = _game()
    chat = SimChat()
    ring, station = _ring_and_station(state)
    chat.post(state, station, Channel.FLOOR, f"I suspect {state.seats[0].codename}.")
    chat.post(state, ring, Channel.RING, f"I suspect {state.seats[station].codename}.")
    for seat in range(6):
        channels = [m.channel for m in chat.readable(state, seat)]
        expected = (
            [Channel.FLOOR, Channel.RING] if is_ring(state.seats[seat].role) else [Channel.FLOOR]
        )
        assert channels == expected


def test_s29_s28_s43_a_post_the_rules_refuse_is_not_stored() -> None:
    state = _game()
    chat = SimChat()
    ring, station = _ring_and_station(state)
    with pytest.raises(IllegalAction, match="S29"):
        chat.post(state, station, Channel.RING, f"I suspect {state.seats[ring].codename}.")
    with pytest.raises(IllegalAction, match="S43"):
        name = state.seats[ring].codename
        chat.post(state, station, Channel.FLOOR, f"Day 1: I read {name} as CLEAR.")  # not over
    burned, _ = apply(state, A.RemovePlayer(station))
    with pytest.raises(IllegalAction, match="S28"):
        chat.post(burned, station, Channel.FLOOR, "hello")
    assert chat.messages == []


def test_s31_a_bot_reads_its_own_whispers_and_nobody_elses() -> None:
    state = _game()
    ring, station = _ring_and_station(state)
    text = f"I trust {state.seats[ring].codename}."
    state, _ = apply(state, A.SendWhisper(station, ring, text))
    chat = SimChat()
    chat.post(state, station, Channel.FLOOR, "free talk")
    for seat in range(6):
        posts = chat.posts_for(state, seat, seen_by(state, seat))
        whispers = [p for p in posts if p.channel == "whisper"]
        if seat in (ring, station):
            assert whispers == [Post(1, state.seats[station].codename, "whisper", text)]
        else:
            assert whispers == []
        assert posts[0] == Post(1, state.seats[station].codename, "floor", "free talk")


def test_the_simulator_carries_posts_and_each_bot_reads_only_its_seats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A talking bot posts on the Floor and in the Ring Channel; every bot's posts are its own."""
    seen_posts: list[tuple[str, bool, Post]] = []

    def talker(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
        me = seen["me"]
        ring = "ring" in seen
        for post in posts:
            seen_posts.append((me["codename"], ring, post))
            if post.channel == "whisper":
                mine = {(w["sender"], w["text"]) for w in me["whispers"]}
                assert (post.author, post.text) in mine  # S31: only its own whispers
            assert ring or post.channel != "ring"  # S29: the Ring Channel is the Ring's
        plan, rng = random_bot.plan_day(seen, posts, rng)
        talk = [BotPost("floor", f"I trust {me['codename']}.")]
        if ring:
            talk.append(BotPost("ring", f"I suspect {me['options']['vote_choices'][0]}."))
        return DayPlan(plan.actions, tuple(talk)), rng

    monkeypatch.setitem(registry.LEVELS, "talker", talker)
    simulate(7, 4, 11, "talker", "talker")
    channels = {post.channel for _, _, post in seen_posts}
    assert channels == {"floor", "ring", "whisper"}
    assert all(parse_post(post.text) for _, _, post in seen_posts if post.channel != "whisper")


def test_a_bot_that_saves_for_another_seat_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def cheat(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
        me = [e["codename"] for e in seen["roster"]].index(seen["me"]["codename"])
        return DayPlan((A.MarkDone((me + 1) % len(seen["roster"])),)), rng

    monkeypatch.setitem(registry.LEVELS, "cheat", cheat)
    with pytest.raises(ValueError, match="another seat"):
        simulate(6, 1, 1, "cheat", "cheat")
