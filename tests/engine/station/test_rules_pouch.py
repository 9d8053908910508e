"""The Pouch, S13–S20: visits, detain, distract, frame, shelter, liquidation, results, order."""

from __future__ import annotations

from .helpers import JSON, Table


def watched(t: Table, target: str, *visitors: str) -> JSON:
    """A Watcher result (S19): visitors sorted by codename."""
    return {"kind": "watcher", "target": target, "visitors": sorted(visitors, key=t.codename)}


def shadowed(target: str, visited: str | None) -> JSON:
    """A Shadow result (S19)."""
    return {"kind": "shadow", "target": target, "visited": visited}


def reading(target: str, value: str) -> JSON:
    """An Analyst reading (S19)."""
    return {"kind": "analyst", "target": target, "reading": value}


def day_two(size: int) -> Table:
    """A table whose Day 1 passed quietly, so the Ring may order."""
    t = Table(size)
    t.pouch()
    return t


# --- S13 Visits -------------------------------------------------------------------------------


def test_s13_watcher_sees_the_performer() -> None:
    t = day_two(10)
    t.order("ringleader", target="field_agent", performer="honeytrap")
    t.op("watcher", "field_agent")
    assert t.pouch().role_result("watcher") == watched(t, "field_agent", "honeytrap")


def test_s13_the_defector_rumor_is_a_visit() -> None:
    t = Table(10)
    t.op("defector", "analyst")
    t.op("watcher", "analyst")
    t.op("shadow", "defector")
    p = t.pouch()
    assert p.role_result("watcher") == watched(t, "analyst", "defector")
    assert p.role_result("shadow") == shadowed("defector", "analyst")


def test_s13_a_self_targeted_operation_visits_oneself() -> None:
    t = Table(10)
    t.op("analyst", "analyst")
    t.op("field_agent", "analyst")
    t.op("watcher", "analyst")
    t.op("shadow", "analyst")
    p = t.pouch()
    assert p.role_result("watcher") == watched(t, "analyst", "analyst", "field_agent", "shadow")
    assert p.role_result("shadow") == shadowed("analyst", "analyst")


def test_s13_every_targeted_ability_is_a_visit() -> None:
    t = Table(10)
    for visitor in ("analyst", "safehouse_keeper", "interrogator", "field_agent", "forger"):
        t.op(visitor, "defector")
    t.op("honeytrap", "defector")
    t.op("watcher", "defector")
    assert t.pouch().role_result("watcher") == watched(
        t,
        "defector",
        "analyst",
        "field_agent",
        "forger",
        "honeytrap",
        "interrogator",
        "safehouse_keeper",
    )


def test_s13_no_action_lie_low_and_a_non_performing_order_holder_make_no_visit() -> None:
    t = day_two(10)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("defector", "field_agent")
    t.withdraw("defector")  # Lie low
    t.op("shadow", "ringleader")
    p = t.pouch()
    assert p.role_result("shadow") == shadowed("ringleader", None)
    t.op("shadow", "defector")
    t.op("watcher", "field_agent")
    p = t.pouch()
    assert p.role_result("shadow") == shadowed("defector", None)
    assert p.role_result("watcher") == watched(t, "field_agent")


def test_s13_a_cancelled_operation_makes_no_visit() -> None:
    t = Table(10)
    t.op("analyst", "field_agent")
    t.op("safehouse_keeper", "field_agent")
    t.op("honeytrap", "analyst")
    t.op("interrogator", "safehouse_keeper")
    t.op("watcher", "field_agent")
    p = t.pouch()
    assert p.role_result("watcher") == watched(t, "field_agent")
    t.op("analyst", "field_agent")
    t.op("honeytrap", "analyst")
    t.op("shadow", "analyst")
    assert t.pouch().role_result("shadow") == shadowed("analyst", None)


# --- S14 Detain -------------------------------------------------------------------------------


def test_s14_the_detainee_operation_is_cancelled() -> None:
    t = Table(9)
    t.op("analyst", "forger")
    t.op("interrogator", "analyst")
    p = t.pouch()
    assert p.role_result("analyst") is None
    assert p.result("analyst") == [{"kind": "interrogation", "with": "interrogator"}]


def test_s14_a_detained_performer_kills_nobody() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("interrogator", "forger")
    t.op("watcher", "analyst")
    p = t.pouch()
    assert p.deaths == {}
    assert p.role_result("watcher") == watched(t, "analyst")  # the performer never arrived


def test_s14_the_detainee_is_protected_from_liquidation() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("interrogator", "analyst")
    t.op("watcher", "analyst")
    p = t.pouch()
    assert p.deaths == {}
    assert p.role_result("watcher") == watched(t, "analyst", "forger", "interrogator")


def test_s14_detain_cannot_be_cancelled() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("honeytrap", "interrogator")
    t.op("interrogator", "forger")
    p = t.pouch()
    assert p.deaths == {}
    assert p.result("interrogator") == [{"kind": "interrogation", "with": "forger"}]


def test_s14_a_detained_order_holder_who_is_not_the_performer_does_not_stop_the_kill() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="honeytrap")
    t.op("interrogator", "ringleader")
    p = t.pouch()
    assert p.deaths == {"analyst": ["liquidated"]}
    assert p.result("ringleader") == [{"kind": "interrogation", "with": "interrogator"}]


def test_s14_a_detained_order_holder_who_performs_kills_nobody() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="ringleader")
    t.op("interrogator", "ringleader")
    assert t.pouch().deaths == {}


def test_s14_the_interrogation_chat_opens_for_both_and_closes_at_the_next_pouch() -> None:
    t = Table(9)
    t.op("interrogator", "field_agent")
    p = t.pouch()
    assert p.result("interrogator") == [{"kind": "interrogation", "with": "field_agent"}]
    assert p.result("field_agent") == [{"kind": "interrogation", "with": "interrogator"}]
    assert t.view("interrogator")["me"]["interrogation_open_with"] == t.codename("field_agent")
    assert t.view("field_agent")["me"]["interrogation_open_with"] == t.codename("interrogator")
    for other in ("analyst", "field_agent_2", "ringleader"):
        me = t.view(other)["me"]
        assert me["interrogation_open_with"] is None and me["interrogations"] == []
    t.pouch()
    for party, other in (("interrogator", "field_agent"), ("field_agent", "interrogator")):
        me = t.view(party)["me"]
        assert me["interrogation_open_with"] is None
        assert me["interrogations"] == [{"day": 1, "with": t.codename(other)}]  # history kept


def test_s14_no_chat_when_the_detainee_burns_at_this_pouch() -> None:
    t = Table(9)
    t.op("interrogator", "field_agent")
    t.votes("field_agent", "analyst", "watcher", "ringleader")
    p = t.pouch()
    assert p.deaths == {"field_agent": ["recalled"]}
    assert p.results == {}
    assert t.view("interrogator")["me"]["interrogation_open_with"] is None


def test_s14_no_chat_when_the_interrogator_burns_at_this_pouch() -> None:
    t = day_two(9)
    t.op("interrogator", "field_agent")
    t.order("ringleader", target="interrogator", performer="forger")
    p = t.pouch()
    assert p.deaths == {"interrogator": ["liquidated"]}
    assert p.result("field_agent") == [] and p.result("interrogator") == []
    assert t.view("field_agent")["me"]["interrogation_open_with"] is None


def test_s14_detaining_a_player_with_no_action_still_protects_and_opens_the_chat() -> None:
    t = day_two(9)
    t.order("ringleader", target="field_agent", performer="ringleader")
    t.op("interrogator", "field_agent")
    p = t.pouch()
    assert p.deaths == {}
    assert p.result("field_agent") == [{"kind": "interrogation", "with": "interrogator"}]


# --- S15 Distract -----------------------------------------------------------------------------


def test_s15_the_distracted_player_operation_is_cancelled_untold() -> None:
    t = Table(9)
    t.op("analyst", "forger")
    t.op("honeytrap", "analyst")
    p = t.pouch()
    assert p.result("analyst") == []
    seat = t.seat("analyst")
    assert [e.kind for e in p.events if e.audience.includes(seat)] == ["morning_cable"]
    assert "distract" not in t.view_text("analyst")


def test_s15_a_distracted_performer_kills_nobody() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("honeytrap", "forger")
    assert t.pouch().deaths == {}


def test_s15_distracting_an_order_holder_who_is_not_the_performer_does_not_stop_the_kill() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("honeytrap", "ringleader")
    assert t.pouch().deaths == {"analyst": ["liquidated"]}


def test_s15_a_distracted_interrogator_still_detains() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("interrogator", "forger")
    t.op("honeytrap", "interrogator")
    p = t.pouch()
    assert p.deaths == {}
    assert p.result("forger") == [{"kind": "interrogation", "with": "interrogator"}]


def test_s15_a_distracted_keeper_shelters_nobody() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("safehouse_keeper", "analyst")
    t.op("honeytrap", "safehouse_keeper")
    p = t.pouch()
    assert p.deaths == {"analyst": ["liquidated"]}
    assert p.result("safehouse_keeper") == []


def test_s15_votes_and_whispers_are_never_cancelled() -> None:
    t = Table(9)
    t.op("honeytrap", "analyst")
    t.whisper("analyst", "watcher", "psst")
    t.op("field_agent", "analyst")
    t.votes("forger", "analyst", "watcher", "field_agent")
    p = t.pouch()
    assert p.recalled == "forger"
    assert p.role_result("field_agent") == {
        "kind": "field_agent",
        "target": "analyst",
        "whispers": 1,
    }


def test_s15_a_cancelled_information_operation_produces_nothing() -> None:
    t = Table(10)
    t.op("watcher", "analyst")
    t.op("honeytrap", "watcher")
    t.op("shadow", "analyst")
    t.op("interrogator", "shadow")
    p = t.pouch()
    assert p.result("watcher") == []
    assert p.result("shadow") == [{"kind": "interrogation", "with": "interrogator"}]
    t.op("field_agent", "analyst")
    t.op("honeytrap", "field_agent")
    assert t.pouch().result("field_agent") == []


# --- S16 Frame --------------------------------------------------------------------------------


def test_s16_a_framed_station_player_reads_compromised() -> None:
    t = Table(6)
    t.op("forger", "field_agent")
    t.op("analyst", "field_agent")
    assert t.pouch().role_result("analyst") == reading("field_agent", "COMPROMISED")


def test_s16_the_frame_overrides_the_ringleader_clear() -> None:
    t = Table(6)
    t.op("forger", "ringleader")
    t.op("analyst", "ringleader")
    assert t.pouch().role_result("analyst") == reading("ringleader", "COMPROMISED")


def test_s16_a_frame_lasts_one_cycle() -> None:
    t = Table(6)
    t.op("forger", "field_agent")
    t.pouch()
    t.op("analyst", "field_agent")
    assert t.pouch().role_result("analyst") == reading("field_agent", "CLEAR")


def test_s16_a_cancelled_frame_does_nothing() -> None:
    t = Table(9)
    t.op("forger", "field_agent")
    t.op("interrogator", "forger")
    t.op("analyst", "field_agent")
    assert t.pouch().role_result("analyst") == reading("field_agent", "CLEAR")
    t.op("forger", "watcher")
    t.op("honeytrap", "forger")
    t.op("analyst", "watcher")
    assert t.pouch().role_result("analyst") == reading("watcher", "CLEAR")


def test_s16_a_frame_changes_nothing_but_the_reading() -> None:
    t = Table(6)
    t.op("forger", "field_agent")
    t.votes("field_agent", "ringleader", "forger", "analyst")
    p = t.pouch()
    assert p.cable["deaths"][0]["faction"] == "station"


# --- S17 Shelter ------------------------------------------------------------------------------


def test_s17_a_sheltered_target_survives_the_liquidation() -> None:
    t = day_two(6)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("safehouse_keeper", "analyst")
    p = t.pouch()
    assert p.deaths == {}
    assert p.result("analyst") == []  # the target never learns who saved them


def test_s17_shelter_does_not_stop_a_recall() -> None:
    t = Table(6)
    t.op("safehouse_keeper", "analyst")
    t.votes("analyst", "ringleader", "forger", "field_agent")
    assert t.pouch().deaths == {"analyst": ["recalled"]}


def test_s17_a_detained_keeper_shelters_nobody() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("safehouse_keeper", "analyst")
    t.op("interrogator", "safehouse_keeper")
    assert t.pouch().deaths == {"analyst": ["liquidated"]}


# --- S18 Liquidation --------------------------------------------------------------------------


def test_s18_the_liquidation_succeeds_when_nothing_stops_it() -> None:
    t = day_two(6)
    t.order("ringleader", target="field_agent", performer="forger")
    p = t.pouch()
    assert p.deaths == {"field_agent": ["liquidated"]}
    assert p.cable["deaths"][0]["faction"] == "station"


def test_s18_no_order_no_kill() -> None:
    t = Table(6)
    for _ in range(3):
        assert t.pouch().deaths == {}


def test_s18_the_keeper_learns_the_safehouse_was_needed() -> None:
    t = day_two(6)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("safehouse_keeper", "analyst")
    p = t.pouch()
    assert p.results == {"safehouse_keeper": [{"kind": "safehouse_needed", "target": "analyst"}]}


def test_s18_the_keeper_note_comes_also_when_the_target_was_detained() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("safehouse_keeper", "analyst")
    t.op("interrogator", "analyst")
    p = t.pouch()
    assert p.deaths == {}
    assert p.result("safehouse_keeper") == [{"kind": "safehouse_needed", "target": "analyst"}]


def test_s18_no_keeper_note_without_an_attempt_on_the_sheltered_target() -> None:
    t = day_two(9)
    t.op("safehouse_keeper", "analyst")
    assert t.pouch().result("safehouse_keeper") == []
    t.op("safehouse_keeper", "analyst")
    t.order("ringleader", target="watcher", performer="forger")
    assert t.pouch().result("safehouse_keeper") == []


def test_s18_no_keeper_note_when_the_performer_never_arrives() -> None:
    t = day_two(9)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("safehouse_keeper", "analyst")
    t.op("interrogator", "forger")
    p = t.pouch()
    assert p.result("safehouse_keeper") == []
    t.order("ringleader", target="analyst", performer="forger")
    t.op("safehouse_keeper", "analyst")
    t.op("honeytrap", "forger")
    assert t.pouch().result("safehouse_keeper") == []


def test_s18_nobody_else_learns_of_a_failed_attempt() -> None:
    t = day_two(6)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("safehouse_keeper", "analyst")
    p = t.pouch()
    private = [e for e in p.events if not e.audience.public]
    assert [sorted(e.audience.seats) for e in private] == [[t.seat("safehouse_keeper")]]
    assert p.cable["deaths"] == []


# --- S19 Readings and results -----------------------------------------------------------------


def test_s19_analyst_readings_by_role() -> None:
    expected = {
        "ringleader": "CLEAR",
        "forger": "COMPROMISED",
        "honeytrap": "COMPROMISED",
        "defector": "CLEAR",
        "watcher": "CLEAR",
        "shadow": "CLEAR",
        "safehouse_keeper": "CLEAR",
        "interrogator": "CLEAR",
        "field_agent": "CLEAR",
        "analyst": "CLEAR",
    }
    for target, value in expected.items():
        t = Table(10)
        t.op("analyst", target)
        assert t.pouch().role_result("analyst") == reading(target, value)


def test_s19_watcher_lists_visitors_sorted_by_codename() -> None:
    t = Table(
        [
            "field_agent",
            "safehouse_keeper",
            "analyst",
            "forger",
            "watcher",
            "ringleader",
            "field_agent",
        ]
    )
    # codenames in join order: OWL, RAVEN, HERON, WREN, KESTREL, FALCON
    t.op("field_agent", "forger")  # OWL
    t.op("safehouse_keeper", "forger")  # RAVEN
    t.op("analyst", "forger")  # HERON
    t.op("watcher", "forger")
    p = t.pouch()
    assert p.role_result("watcher") == watched(
        t, "forger", "analyst", "field_agent", "safehouse_keeper"
    )  # HERON, OWL, RAVEN
    mine = [e for e in p.events if e.audience.seats == {t.seat("watcher")}]
    assert [e.kind for e in mine] == ["private_results"]
    raw = mine[0].payload["results"]
    assert raw[0]["visitors"] == ["HERON", "OWL", "RAVEN"]


def test_s19_the_watcher_leaves_itself_out() -> None:
    t = Table(7)
    t.op("watcher", "watcher")
    t.op("analyst", "watcher")
    assert t.pouch().role_result("watcher") == watched(t, "watcher", "analyst")
    t.op("watcher", "field_agent")
    assert t.pouch().role_result("watcher") == watched(t, "field_agent")


def test_s19_an_empty_list_means_no_visitors() -> None:
    t = Table(7)
    t.op("watcher", "ringleader")
    assert t.pouch().role_result("watcher") == watched(t, "ringleader")


def test_s19_the_shadow_following_the_performer_sees_the_kill_target() -> None:
    t = day_two(10)
    t.order("ringleader", target="field_agent", performer="forger")
    t.op("forger", "analyst")
    t.op("shadow", "forger")
    p = t.pouch()
    assert p.role_result("shadow") == shadowed("forger", "field_agent")


def test_s19_the_shadow_sees_stayed_home_as_null() -> None:
    t = Table(10)
    t.op("shadow", "field_agent")
    assert t.pouch().role_result("shadow") == shadowed("field_agent", None)


def test_s19_field_agent_counts_whispers_sent_plus_received_that_day() -> None:
    t = Table(6)
    t.whisper("analyst", "ringleader", "one")
    t.whisper("analyst", "forger", "two")
    t.whisper("forger", "analyst", "three")
    t.whisper("ringleader", "forger", "not about the analyst")
    t.op("field_agent", "analyst")
    t.op("field_agent_2", "field_agent_2")
    p = t.pouch()
    assert p.role_result("field_agent") == {
        "kind": "field_agent",
        "target": "analyst",
        "whispers": 3,
    }
    assert p.role_result("field_agent_2") == {
        "kind": "field_agent",
        "target": "field_agent_2",
        "whispers": 0,
    }
    t.op("field_agent", "analyst")  # yesterday's whispers do not count
    t.whisper("field_agent_2", "analyst")
    p = t.pouch()
    assert p.role_result("field_agent") == {
        "kind": "field_agent",
        "target": "analyst",
        "whispers": 1,
    }


def test_s19_a_liquidated_analyst_still_gets_the_reading() -> None:
    t = day_two(6)
    t.order("ringleader", target="analyst", performer="forger")
    t.op("analyst", "forger")
    p = t.pouch()
    assert p.deaths == {"analyst": ["liquidated"]}
    assert p.role_result("analyst") == reading("forger", "COMPROMISED")


# --- S20 Resolution order ---------------------------------------------------------------------


def test_s20_detain_before_distract() -> None:
    t = Table(9)
    t.op("honeytrap", "analyst")
    t.op("interrogator", "honeytrap")
    t.op("analyst", "honeytrap")
    assert t.pouch().role_result("analyst") == reading("honeytrap", "COMPROMISED")


def test_s20_detain_before_frame() -> None:
    t = Table(9)
    t.op("forger", "watcher")
    t.op("interrogator", "forger")
    t.op("analyst", "watcher")
    assert t.pouch().role_result("analyst") == reading("watcher", "CLEAR")


def test_s20_distract_before_frame() -> None:
    t = Table(9)
    t.op("forger", "watcher")
    t.op("honeytrap", "forger")
    t.op("analyst", "watcher")
    assert t.pouch().role_result("analyst") == reading("watcher", "CLEAR")


def test_s20_detain_before_shelter() -> None:
    t = day_two(9)
    t.op("safehouse_keeper", "watcher")
    t.op("interrogator", "safehouse_keeper")
    t.order("ringleader", target="watcher", performer="ringleader")
    assert t.pouch().deaths == {"watcher": ["liquidated"]}


def test_s20_detained_honeytrap_distracts_nobody() -> None:
    t = day_two(9)
    t.order("ringleader", target="field_agent", performer="forger")
    t.op("safehouse_keeper", "field_agent")
    t.op("honeytrap", "safehouse_keeper")
    t.op("interrogator", "honeytrap")
    p = t.pouch()
    assert p.deaths == {}
    assert p.result("safehouse_keeper") == [{"kind": "safehouse_needed", "target": "field_agent"}]


def test_s20_information_after_the_kill_settles() -> None:
    t = day_two(10)
    t.order("ringleader", target="analyst", performer="honeytrap")
    t.op("watcher", "analyst")
    t.op("shadow", "honeytrap")
    p = t.pouch()
    assert p.deaths == {"analyst": ["liquidated"]}
    assert p.role_result("watcher") == watched(t, "analyst", "honeytrap")
    assert p.role_result("shadow") == shadowed("honeytrap", "analyst")


def test_s20_deaths_apply_together_after_the_tally() -> None:
    """The liquidated player's vote still counts, and L is counted before the deaths."""
    t = day_two(6)
    t.order("ringleader", target="field_agent", performer="forger")
    t.votes("forger", "field_agent", "analyst")
    p = t.pouch()
    assert p.cable["threshold"] == 2
    assert p.deaths == {"field_agent": ["liquidated"], "forger": ["recalled"]}


def test_s20_victory_is_checked_after_every_death() -> None:
    t = day_two(6)
    t.order("ringleader", target="field_agent", performer="forger")
    t.votes("ringleader", "analyst", "safehouse_keeper", "field_agent_2")
    p = t.pouch()
    # Ring 1 (the Forger) against 3 others: no win for either side
    assert p.deaths == {"field_agent": ["liquidated"], "ringleader": ["recalled"]}
    assert p.winner is None
