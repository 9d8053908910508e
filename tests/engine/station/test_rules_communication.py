"""Communication, S28–S32: the Floor, the Ring Channel, the Archive, whispers, the Final Cable."""

from __future__ import annotations

import pytest

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.channels import Channel, can_read, check_post

from .helpers import Table

PUBLIC_KEYS = ["day", "over", "winner", "defector_won", "roster", "cables", "votes"]
PUBLIC_KEYS += ["whispers_announced"]


def recall(t: Table, name: str) -> None:
    """Everyone else living votes `name` out at today's Pouch."""
    t.votes(name, *[n for n in t.names if n != name and t.alive(n)])
    t.pouch()


def post_refused(t: Table, who: str, channel: Channel) -> str:
    """The rule a refused post names."""
    with pytest.raises(IllegalAction) as caught:
        check_post(t.state, t.seat(who), channel, "hello")
    return caught.value.code


# --- S28 Floor --------------------------------------------------------------------------------


def test_s28_living_players_post_burned_players_and_spectators_read() -> None:
    t = Table(7)
    recall(t, "analyst")
    for viewer in [None, *range(7)]:
        assert can_read(t.state, viewer, Channel.FLOOR)
    check_post(t.state, t.seat("watcher"), Channel.FLOOR, "I suspect RAVEN")
    assert post_refused(t, "analyst", Channel.FLOOR) == "S28"


def test_s28_the_public_record_reads_the_same_for_everyone() -> None:
    t = Table(8)
    t.whisper("analyst", "watcher", "private words")
    t.vote("forger", "defector")
    t.op("defector", "analyst")
    recall(t, "field_agent")
    t.whisper("watcher", "analyst", "more private words")
    t.vote("analyst", "forger")
    spectator = {key: t.view(None)[key] for key in PUBLIC_KEYS}
    for viewer in t.names:  # living and burned alike
        assert {key: t.view(viewer)[key] for key in PUBLIC_KEYS} == spectator


def test_s28_the_floor_shows_who_whispered_to_whom_at_once() -> None:
    t = Table(6)
    t.whisper("analyst", "forger", "meet at noon")
    assert t.named(t.view(None)["whispers_announced"]) == [
        {"day": 1, "sender": "analyst", "recipient": "forger"}
    ]


# --- S29 Ring Channel -------------------------------------------------------------------------


def test_s29_the_ring_channel_is_for_the_ring() -> None:
    t = Table(10)
    readers = [name for name in t.names if can_read(t.state, t.seat(name), Channel.RING)]
    assert readers == ["ringleader", "forger", "honeytrap"]
    assert not can_read(t.state, None, Channel.RING)
    check_post(t.state, t.seat("honeytrap"), Channel.RING, "tonight: the Watcher")
    assert post_refused(t, "defector", Channel.RING) == "S29"


def test_s29_a_burned_ring_member_reads_but_no_longer_posts() -> None:
    t = Table(10)
    recall(t, "honeytrap")
    assert can_read(t.state, t.seat("honeytrap"), Channel.RING)
    assert post_refused(t, "honeytrap", Channel.RING) == "S29"
    ring = t.view("honeytrap")["ring"]
    assert [m["alive"] for m in ring["members"]] == [True, True, False]
    assert "order" not in ring and "order_holder" not in ring


def test_s29_nobody_else_reads_it_until_the_game_ends() -> None:
    t = Table(6)
    recall(t, "analyst")
    assert not can_read(t.state, t.seat("analyst"), Channel.RING)
    recall(t, "forger")
    recall(t, "ringleader")
    assert t.state.winner == "station"
    assert all(can_read(t.state, seat, Channel.RING) for seat in range(6))


# --- S30 Archive ------------------------------------------------------------------------------


def test_s30_burned_players_read_and_post_in_the_archive() -> None:
    t = Table(7)
    recall(t, "watcher")
    assert can_read(t.state, t.seat("watcher"), Channel.ARCHIVE)
    check_post(t.state, t.seat("watcher"), Channel.ARCHIVE, "it is quiet here")


def test_s30_the_living_cannot_read_the_archive_until_the_game_ends() -> None:
    t = Table(6)
    recall(t, "analyst")
    living = [name for name in t.names if t.alive(name)]
    assert not any(can_read(t.state, t.seat(name), Channel.ARCHIVE) for name in living)
    assert not can_read(t.state, None, Channel.ARCHIVE)
    assert post_refused(t, "field_agent", Channel.ARCHIVE) == "S30"
    recall(t, "forger")
    recall(t, "ringleader")
    assert all(can_read(t.state, t.seat(name), Channel.ARCHIVE) for name in living)


# --- S31 Whispers -----------------------------------------------------------------------------


def test_s31_two_whispers_a_day() -> None:
    t = Table(6)
    t.whisper("analyst", "forger", "one")
    t.whisper("analyst", "forger", "two")
    third = A.SendWhisper(t.seat("analyst"), t.seat("ringleader"), "three")
    assert t.refused(third) == "S31"
    assert t.options("analyst")["whisper_recipients"] == []
    t.pouch()
    t.do(third)  # a new day, two more


def test_s31_received_whispers_do_not_use_up_the_limit() -> None:
    t = Table(6)
    t.whisper("forger", "analyst")
    t.whisper("ringleader", "analyst")
    t.whisper("analyst", "forger")
    t.whisper("analyst", "ringleader")
    assert len(t.state.whispers) == 4


def test_s31_a_whisper_goes_to_another_living_player() -> None:
    t = Table(6)
    assert t.refused(A.SendWhisper(t.seat("analyst"), t.seat("analyst"), "me")) == "S31"
    assert "analyst" not in t.options("analyst")["whisper_recipients"]
    recall(t, "forger")
    assert t.refused(A.SendWhisper(t.seat("analyst"), t.seat("forger"), "rip")) == "S31"
    assert "forger" not in t.options("analyst")["whisper_recipients"]


def test_s31_the_text_is_only_for_the_two() -> None:
    t = Table(8)
    events = t.whisper("watcher", "defector", "the owl flies at dawn")
    announced, private = events
    assert announced.audience.public and "text" not in announced.payload
    assert private.audience.seats == {t.seat("watcher"), t.seat("defector")}
    assert private.payload["text"] == "the owl flies at dawn"
    for party in ("watcher", "defector"):
        assert "the owl flies at dawn" in t.view_text(party)
    for viewer in ("analyst", "ringleader", "forger", None):
        assert "the owl flies at dawn" not in t.view_text(viewer)
    recall(t, "watcher")
    assert "the owl flies at dawn" in t.view_text("watcher")  # still theirs once burned
    assert "the owl flies at dawn" not in t.view_text("analyst")


def test_s31_the_field_agent_counts_them() -> None:
    t = Table(6)
    t.whisper("forger", "ringleader")
    t.whisper("ringleader", "forger")
    t.whisper("forger", "analyst")
    t.op("field_agent", "forger")
    assert t.pouch().role_result("field_agent") == {
        "kind": "field_agent",
        "target": "forger",
        "whispers": 3,
    }


# --- S32 Final Cable --------------------------------------------------------------------------


def test_s32_at_most_2000_characters() -> None:
    t = Table(6)
    t.final_cable("analyst", "x" * 2000)
    assert t.view("analyst")["me"]["final_cable"] == "x" * 2000
    assert t.refused(A.EditFinalCable(t.seat("analyst"), "y" * 2001)) == "S32"
    assert t.view("analyst")["me"]["final_cable_limit"] == 2000


def test_s32_the_last_text_is_published_with_the_death() -> None:
    t = Table(6)
    t.final_cable("analyst", "first draft")
    t.final_cable("analyst", "RAVEN is COMPROMISED")
    t.pouch()
    t.order("ringleader", target="analyst", performer="forger")
    p = t.pouch()
    assert p.cable["deaths"][0]["final_cable"] == "RAVEN is COMPROMISED"
    assert "RAVEN is COMPROMISED" in t.view_text(None)


def test_s32_private_while_alive() -> None:
    t = Table(6)
    (event,) = t.do(A.EditFinalCable(t.seat("analyst"), "my secret will"))
    assert event.audience.seats == {t.seat("analyst")} and not event.audience.public
    assert "my secret will" in t.view_text("analyst")
    for viewer in ("ringleader", "forger", "field_agent", None):
        assert "my secret will" not in t.view_text(viewer)


def test_s32_editable_only_while_alive() -> None:
    t = Table(6)
    recall(t, "analyst")
    assert t.refused(A.EditFinalCable(t.seat("analyst"), "an afterthought")) == "S32"


def test_s10_a_ring_member_keeps_the_orders_it_saw_filed_and_no_later_ones() -> None:
    t = Table(10)
    t.pouch()
    t.order("ringleader", target="analyst", performer="forger")
    t.pouch()
    seen = {"day": 2, "target": t.codename("analyst"), "performer": t.codename("forger")}
    assert t.view("honeytrap")["ring"]["orders"] == [seen]
    recall(t, "honeytrap")  # burned at Day 3's Pouch, the day after the order it saw
    t.order("ringleader", target="watcher", performer="ringleader")
    t.pouch()
    later = {"day": 4, "target": t.codename("watcher"), "performer": t.codename("ringleader")}
    assert t.view("forger")["ring"]["orders"] == [seen, later]
    assert t.view("honeytrap")["ring"]["orders"] == [seen]  # S10: only the living see the order
    for outsider in ("analyst", "watcher", "defector", None):
        assert "ring" not in t.view(outsider)  # S5: nobody else sees the Ring's orders
