"""The sentences of the tabs: results, causes, votes, Operations and the Pouch's clock."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from deaddrop.engine.station.roles import ROLES
from deaddrop.server.station.tabs.context import countdown, when_text
from deaddrop.server.station.tabs.roles_text import (
    ROLE_TEXT,
    causes_text,
    operation_sentence,
    result_sentence,
    vote_text,
)
from tests.server.station.tabs_fixtures import game_info, scripted_moments


def test_every_role_has_words() -> None:
    assert set(ROLE_TEXT) == set(ROLES)
    for text in ROLE_TEXT.values():
        assert text.name and text.choose and text.remember and text.verb and text.verb_past


def test_result_sentences() -> None:
    assert result_sentence({"kind": "analyst", "target": "HERON", "reading": "CLEAR"}) == (
        "HERON read CLEAR."
    )
    assert result_sentence({"kind": "watcher", "target": "WREN", "visitors": []}) == (
        "Nobody visited WREN."
    )
    assert result_sentence({"kind": "watcher", "target": "WREN", "visitors": ["OWL", "LARK"]}) == (
        "WREN was visited by OWL, LARK."
    )
    assert result_sentence({"kind": "shadow", "target": "OWL", "visited": None}) == (
        "OWL stayed home."
    )
    assert result_sentence({"kind": "shadow", "target": "OWL", "visited": "WREN"}) == (
        "OWL visited WREN."
    )
    assert result_sentence({"kind": "field_agent", "target": "OWL", "whispers": 1}) == (
        "OWL sent and received 1 whisper in all."
    )
    assert result_sentence({"kind": "field_agent", "target": "OWL", "whispers": 3}) == (
        "OWL sent and received 3 whispers in all."
    )
    assert "the Ring came for WREN" in result_sentence(
        {"kind": "safehouse_needed", "target": "WREN"}
    )
    assert "interrogation chat with RAVEN" in result_sentence(
        {"kind": "interrogation", "with": "RAVEN"}
    )


def test_causes_votes_and_operations_in_words() -> None:
    assert causes_text(["recalled", "liquidated"]) == (
        "recalled by the Tribunal and liquidated by the Ring"
    )
    assert causes_text(["removed"]) == "removed from the game by the host"
    assert vote_text(None) == "no vote saved (counts as Abstain)"
    assert vote_text("abstain") == "Abstain"
    assert vote_text("OWL") == "OWL"
    assert operation_sentence("analyst", {"target": "OWL"}, past=False) == "investigate OWL"
    assert operation_sentence("forger", {"target": "OWL"}, past=True) == "framed OWL"
    order = {"order_target": "WREN", "performer": "RAVEN"}
    assert operation_sentence("ringleader", order, past=False) == (
        "order the liquidation of WREN, carried out by RAVEN"
    )
    assert operation_sentence("analyst", None, past=True) == "took no action"


def test_countdown_in_the_viewers_zone_and_the_games_across_a_dst_change() -> None:
    state = next(iter(scripted_moments())).state
    clock = countdown(game_info(state, 0))
    assert clock is not None
    assert clock["iso"] == "2025-03-30T18:00:00Z"
    # New York is already on summer time; Berlin switched that very morning.
    assert clock["text"] == "Sun 30 Mar, 14:00 EDT"
    assert clock["zone"] == "America/New_York"
    assert clock["game_text"] == "Sun 30 Mar, 20:00 CEST (Europe/Berlin)"


def test_countdown_without_a_second_zone_when_both_agree_and_none_without_deadline() -> None:
    state = next(iter(scripted_moments())).state
    same = countdown(game_info(state, 0, viewer_time_zone="Europe/Berlin"))
    assert same is not None and same["game_text"] is None
    assert countdown(game_info(state, 0, deadline=None)) is None


def test_countdown_survives_an_unknown_zone() -> None:
    state = next(iter(scripted_moments())).state
    clock = countdown(game_info(state, 0, viewer_time_zone="Mars/Olympus_Mons"))
    assert clock is not None and clock["zone"] == "UTC"
    assert clock["text"] == "Sun 30 Mar, 18:00 UTC"


def test_a_moment_reads_the_same_in_a_zone_however_it_was_given() -> None:
    """`when_text` keeps its answers: an instant given in another zone is the same input (equal
    and hashed alike) and must read the same, in the zone asked for, summer time included."""
    berlin, tehran = ZoneInfo("Europe/Berlin"), ZoneInfo("Asia/Tehran")
    summer = datetime(2026, 7, 14, 18, 0, tzinfo=UTC)
    assert when_text(summer, berlin) == "Tue 14 Jul, 20:00 CEST"
    assert when_text(summer.astimezone(tehran), berlin) == "Tue 14 Jul, 20:00 CEST"
    assert when_text(summer, tehran) == "Tue 14 Jul, 21:30 +0330"
    assert when_text(datetime(2026, 1, 14, 18, 0, tzinfo=UTC), berlin) == "Wed 14 Jan, 19:00 CET"
