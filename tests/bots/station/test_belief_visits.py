"""The belief from visits (S13): a Watcher's and a Shadow's results about anyone, not only the
night's victim, and the Ring's own records in its Channel (S29) of its orders and detentions."""

from __future__ import annotations

import pytest

from deaddrop.engine.station import actions as A
from deaddrop.engine.station.claims import Post
from deaddrop.station_sim.simulate import seen_by
from tests.bots.station.test_belief import NINE, SEAT9, SIX, _belief, _play

SEVEN = (*SIX[:5], ("FALCON", "watcher"), ("SWIFT", "field_agent"))
OWL, RAVEN, HERON, WREN, KESTREL, FALCON = range(6)
TEN = (
    ("OWL", "ringleader"), ("RAVEN", "forger"), ("HERON", "honeytrap"), ("WREN", "analyst"),
    ("KESTREL", "safehouse_keeper"), ("FALCON", "watcher"), ("SWIFT", "interrogator"),
    ("MAGPIE", "shadow"), ("PLOVER", "field_agent"), ("EGRET", "defector"),
)  # fmt: skip


def _ring_post(author: str, text: str, day: int) -> Post:
    return Post(day, author, "ring", text)


def test_s9_s10_no_visitor_on_day_one_is_the_ringleader() -> None:
    state = _play(SEVEN, [[A.SaveOperation(RAVEN, KESTREL), A.SaveOperation(FALCON, KESTREL)]])
    assert seen_by(state, FALCON)["me"]["results"][0]["results"][0]["visitors"] == ["RAVEN"]
    belief = _belief(state, FALCON)
    assert belief.p_role("RAVEN", "ringleader") == 0.0
    assert belief.p_role("RAVEN", "forger") > 0.0


def test_s12_s18_a_lone_visitor_of_a_survivor_is_not_the_ringleader() -> None:
    framed = [A.SaveOperation(RAVEN, KESTREL), A.SaveOperation(FALCON, KESTREL)]
    belief = _belief(_play(SEVEN, [[], framed]), FALCON)
    assert belief.p_role("RAVEN", "ringleader") == 0.0  # its visit would have been the kill


def test_s14_s17_s18_the_ringleaders_failed_kill_shows_a_station_protector_beside_it() -> None:
    sheltered: list[A.DayAction] = [
        A.SaveOrder(OWL, KESTREL, OWL), A.SaveOperation(WREN, KESTREL),
        A.SaveOperation(FALCON, KESTREL),
    ]  # fmt: skip
    state = _play(SEVEN, [[], sheltered])
    assert state.alive[KESTREL]
    result = seen_by(state, FALCON)["me"]["results"][-1]["results"][0]
    assert result["visitors"] == ["OWL", "WREN"]
    belief = _belief(state, FALCON)
    assert belief.p_role("OWL", "ringleader") > 0.0
    # the Ring is two at seven (S1), one the Ringleader, who needs a Station visitor beside it
    assert belief.p_all_ring(["OWL", "WREN"]) == 0.0
    assert belief.p_all_ring(["OWL", "KESTREL"]) > 0.0  # OWL the Forger, KESTREL the Ringleader


def test_s12_s13_a_player_who_stayed_home_is_likelier_the_ringleader() -> None:
    quiet = _belief(_play(TEN, [[]]), 7)
    shadowed = _belief(_play(TEN, [[A.SaveOperation(7, 0)]]), 7)
    assert shadowed.p_role("OWL", "ringleader") > 1.5 * quiet.p_role("OWL", "ringleader")


def test_s10_s17_s18_the_rings_own_failed_kill_shows_the_keepers_shelter() -> None:
    failed: list[A.DayAction] = [A.SaveOrder(OWL, KESTREL, RAVEN), A.SaveOperation(WREN, KESTREL)]
    before = _belief(_play(SIX, [[]]), RAVEN)
    state = _play(SIX, [[], failed])
    assert state.alive[KESTREL]
    orders = seen_by(state, RAVEN)["ring"]["orders"]
    assert orders == [{"day": 2, "target": "KESTREL", "performer": "RAVEN"}]  # S10
    after = _belief(state, RAVEN)
    assert before.p_role("KESTREL", "safehouse_keeper") == pytest.approx(1 / 4)
    assert after.p_role("KESTREL", "safehouse_keeper") < 0.02  # S9: no Keeper shelters itself
    assert after.p_role("WREN", "safehouse_keeper") > 0.3
    # S29: a mate's record of the same order in the Ring Channel adds nothing to it
    record = [_ring_post("OWL", "Day 2: RAVEN visited KESTREL.", 3)]
    assert _belief(state, RAVEN, record).roles == after.roles


def test_s29_a_record_of_a_kill_that_worked_says_nothing_of_the_keeper() -> None:
    state = _play(SIX, [[], [A.SaveOrder(OWL, KESTREL, RAVEN)]])
    assert not state.alive[KESTREL]
    record = [_ring_post("OWL", "Day 2: RAVEN visited KESTREL.", 3)]
    assert _belief(state, RAVEN, record).roles == _belief(state, RAVEN).roles


def test_s14_s29_a_mates_record_of_its_detention_names_the_interrogator() -> None:
    state = _play(NINE, [[A.SaveOperation(SEAT9["SWIFT"], SEAT9["RAVEN"])]])
    record = [_ring_post("RAVEN", "Day 1: SWIFT visited RAVEN.", 2)]
    plain = _belief(state, SEAT9["OWL"])
    told = _belief(state, SEAT9["OWL"], record)
    assert plain.p_role("SWIFT", "interrogator") == pytest.approx(1 / 6)
    assert told.p_role("SWIFT", "interrogator") > 0.9


def test_s29_a_mates_cover_story_in_the_ring_channel_is_not_evidence() -> None:
    state = _play(SIX, [[]])
    story = [_ring_post("OWL", "I am the Analyst. Day 1: I read WREN as COMPROMISED.", 2)]
    assert _belief(state, RAVEN, story).roles == _belief(state, RAVEN).roles


def test_s15_a_distracted_interrogators_unseen_detention_keeps_a_lone_ringleader_possible() -> None:
    owl, heron, falcon, swift, magpie = (
        SEAT9[c] for c in ("OWL", "HERON", "FALCON", "SWIFT", "MAGPIE")
    )
    detained: list[A.DayAction] = [
        A.SaveOrder(owl, magpie, owl), A.SaveOperation(swift, magpie),
        A.SaveOperation(heron, swift), A.SaveOperation(falcon, magpie),
    ]  # fmt: skip
    state = _play(NINE, [[], detained])
    assert state.alive[magpie]
    assert seen_by(state, falcon)["me"]["results"][-1]["results"][0]["visitors"] == ["OWL"]
    assert _belief(state, falcon).p_role("OWL", "ringleader") > 0.0  # the truth stays possible
