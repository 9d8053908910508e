"""A removal that ends the game (S40) still reveals the last day (S26) and closes chats."""

from __future__ import annotations

from .helpers import Table


def test_s26_a_game_ended_by_host_removal_reveals_its_last_day() -> None:
    """S26 after S40: the last day's Operations and whispers must reach every player."""
    t = Table(6)
    t.whisper("analyst", "field_agent", "the last day's secret")
    t.op("analyst", "field_agent")
    t.remove("forger")
    t.remove("ringleader")
    assert t.state.winner == "station"
    for viewer in t.names:
        assert "the last day's secret" in t.view_text(viewer), viewer
        operations = [day["operations"] for day in t.view(viewer)["history"]]
        assert {"target": t.codename("field_agent")} in [
            op for day in operations for op in day.values()
        ], viewer


def test_s14_no_interrogation_chat_stays_open_after_a_game_ended_by_removal() -> None:
    """S14, S26, S40: a game ended by a host removal must not show an open interrogation chat
    (the channels already refuse posts in it once the game is over)."""
    t = Table(9)
    t.op("interrogator", "field_agent")
    t.pouch()
    for ring in ("forger", "honeytrap", "ringleader"):
        t.remove(ring)
    assert t.state.winner == "station"
    assert t.view("interrogator")["me"]["interrogation_open_with"] is None
