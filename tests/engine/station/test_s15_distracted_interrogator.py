"""S15 with S13, S14: a distracted Interrogator still detains, but its Operation is cancelled."""

from __future__ import annotations

from deaddrop.engine.station.scenario import adjudicate

NINE = [
    ["OWL", "ringleader"],
    ["CRANE", "honeytrap"],
    ["RAVEN", "forger"],
    ["HERON", "analyst"],
    ["WREN", "safehouse_keeper"],
    ["SWIFT", "watcher"],
    ["FALCON", "interrogator"],
    ["KITE", "field_agent"],
    ["LARK", "field_agent"],
]


def test_s15_distracted_interrogator_detains_but_makes_no_visit() -> None:
    day = {
        "operations": {
            "CRANE": {"target": "FALCON"},
            "FALCON": {"target": "RAVEN"},
            "RAVEN": {"target": "HERON"},
            "SWIFT": {"target": "RAVEN"},
            "HERON": {"target": "HERON"},
        }
    }
    result = adjudicate({"players": NINE, "days": [day]})["days"][0]["results"]
    # S14: the detention stands (RAVEN's frame is cancelled, the chat opens for both) …
    assert result["FALCON"] == [{"kind": "interrogation", "with": "RAVEN"}]
    assert result["RAVEN"] == [{"kind": "interrogation", "with": "FALCON"}]
    assert result["HERON"] == [{"kind": "analyst", "target": "HERON", "reading": "CLEAR"}]
    # … but S13: the cancelled Operation is no visit, so the Watcher sees nobody at RAVEN.
    assert result["SWIFT"] == [{"kind": "watcher", "target": "RAVEN", "visitors": []}]
