"""What each tab shows, rendered from engine views and hand-made GameInfo (no database)."""

from __future__ import annotations

import re

import pytest

from deaddrop.engine.station import actions as A
from deaddrop.engine.station import apply, setup_from_deal, start
from deaddrop.engine.station.views import view
from deaddrop.server.station.tabs.context import TABS, tab_context
from deaddrop.server.station.tabs.info import Announcement
from tests.server.station.tabs_fixtures import (
    CSRF,
    DEADLINE,
    FALCON,
    HERON,
    KESTREL,
    OWL,
    RAVEN,
    SIX,
    WREN,
    game_info,
    render,
    scripted_moments,
)

MOMENTS = {moment.name: moment.state for moment in scripted_moments()}
START = MOMENTS["scripted start"]
DAY1 = MOMENTS["scripted day 1 with saves"]
HEIR = MOMENTS["scripted day 2, heir, nothing saved"]
ORDER = MOMENTS["scripted day 2, heir's order filed"]
KILLED = MOMENTS["scripted day 3 after a kill"]
OVER = MOMENTS["scripted over"]
_FORM = re.compile(r'<form method="post" action="([^"]+)">(.*?)</form>', re.S)
_CHOICE = re.compile(r'name="(\w+)" value="([^"]*)"')


def forms(html: str) -> dict[str, list[tuple[str, str]]]:
    """Each form's action and its (name, value) fields."""
    return {action: _CHOICE.findall(body) for action, body in _FORM.findall(html)}


def values(fields: list[tuple[str, str]], name: str) -> list[str]:
    """The values offered for one field name."""
    return [value for field, value in fields if field == name]


def test_tab_bar_marks_the_current_tab_and_spectators_see_three() -> None:
    for tab, label in TABS:
        html = render(tab, DAY1, HERON)
        assert html.count('aria-current="page"') == 1
        assert f'href="/games/g-test/{tab}" aria-current="page">{label}<' in html
        assert f"<title>{label} · Operation Gold · Dead Drop</title>" in html
        assert '<h1 id="tab-title"' in html
    spectator = render("cable", DAY1, None)
    assert 'href="/watch/token/floor"' in spectator
    assert "dossier" not in spectator and "operations" not in spectator
    for private in ("dossier", "operations"):
        with pytest.raises(KeyError):
            tab_context(private, view(DAY1, None), game_info(DAY1, None))


def test_forms_post_to_the_action_endpoints_with_csrf_and_spectators_get_none() -> None:
    actions = set()
    for tab, _ in TABS:
        for action, fields in forms(render(tab, ORDER, RAVEN)).items():
            assert ("_csrf_token", CSRF) in fields
            actions.add(action)
    assert actions == {
        "/games/g-test/vote",
        "/games/g-test/vote/withdraw",
        "/games/g-test/operation",
        "/games/g-test/operation/withdraw",
        "/games/g-test/order",
        "/games/g-test/final-cable",
        "/games/g-test/done",
    }
    for tab in ("cable", "floor", "roster"):
        assert '<form method="post" action="/games' not in render(tab, ORDER, None)


def test_operations_offer_only_the_legal_targets() -> None:
    for state in (DAY1, HEIR, ORDER, KILLED):
        for seat in state.living():
            options = view(state, seat)["me"]["options"]
            found = forms(render("operations", state, seat))
            ability = found.get("/games/g-test/operation", [])
            assert values(ability, "target") == options["ability_targets"]
            order = found.get("/games/g-test/order", [])
            assert values(order, "target") == options["order_targets"]
            assert values(order, "performer") == options["order_performers"]


def test_ringleader_has_nothing_to_file_on_day_one() -> None:
    html = render("operations", START, OWL)
    assert "You have nothing to file today." in html
    assert "cannot liquidate anyone on Day 1" in html
    forger = " ".join(render("operations", START, RAVEN).split())
    assert 'Day 1; from Day 2 the order is held by <span class="codename">OWL</span>' in forger


def test_heir_chooses_between_the_order_and_their_own_operation() -> None:
    html = render("operations", HEIR, RAVEN)
    assert "You hold the Ring's order now" in html
    assert "/games/g-test/order" in html and "/games/g-test/operation" in html
    filed = render("operations", ORDER, RAVEN)
    assert "Order the liquidation of WREN, carried out by RAVEN." in filed
    assert 'name="target" value="WREN" checked' in filed
    assert 'name="performer" value="RAVEN" checked' in filed


def test_ring_member_sees_the_current_order_and_that_they_perform_it() -> None:
    state, _ = apply(start(setup_from_deal(SIX, seed=7)), A.ResolvePouch())
    state, _ = apply(state, A.SaveOrder(OWL, HERON, RAVEN))
    html = render("operations", state, RAVEN)
    assert 'Current Ring order, filed by <span class="codename">OWL</span>' in html
    assert "Liquidate HERON, carried out by you." in html
    assert "it replaces your own Operation" in html
    holder = render("operations", state, OWL)
    assert "Order the liquidation of HERON, carried out by RAVEN." in holder
    assert "replaces your own Operation" not in holder


def test_operation_saved_and_withdraw_and_defaults() -> None:
    html = render("operations", DAY1, HERON)
    assert "Saved now: <strong>Investigate RAVEN.</strong>" in html
    assert 'value="RAVEN" checked' in html
    assert "/games/g-test/operation/withdraw" in html
    empty = render("operations", DAY1, FALCON)
    assert "No action (nothing saved)." in empty
    assert "/operation/withdraw" not in empty


def test_done_for_the_day_only_with_early_pouch() -> None:
    done = forms(render("operations", DAY1, FALCON))["/games/g-test/done"]
    assert values(done, "done") == ["no"]
    assert values(forms(render("operations", DAY1, HERON))["/games/g-test/done"], "done") == ["yes"]
    assert "/done" not in render("operations", DAY1, HERON, early_pouch=False)


def test_floor_tally_votes_and_my_ballot() -> None:
    html = render("floor", DAY1, HERON)
    assert re.search(r"OWL</span>\s*<span class=\"tally-count\">3 votes", html)
    assert "from HERON, WREN, KESTREL" in html
    assert "at least 2" in html  # S21: ceil(6 / 3)
    ballot = forms(html)["/games/g-test/vote"]
    assert values(ballot, "vote") == [
        *view(DAY1, HERON)["me"]["options"]["vote_choices"],
        "abstain",
    ]
    assert 'value="OWL" checked' in html
    assert "/games/g-test/vote/withdraw" in html
    assert "/vote/withdraw" not in render("floor", DAY1, RAVEN)  # nothing saved to withdraw


def test_burned_and_spectators_read_the_floor_without_a_ballot() -> None:
    for seat in (OWL, WREN, None):
        html = render("floor", KILLED, seat)
        assert "Tally" in html
        assert "/vote" not in html
    assert "(burned)" in render("floor", KILLED, OWL)


def test_paused_game_says_so_and_hides_the_clock() -> None:
    html = render("floor", DAY1, HERON, status="paused", deadline=None)
    assert "The host has paused the game" in html
    assert "data-countdown" not in html


def test_countdown_text_without_javascript() -> None:
    html = render("operations", DAY1, HERON)
    assert '<time datetime="2025-03-30T18:00:00Z" data-countdown>Sun 30 Mar, 14:00 EDT</time>' in (
        html
    )
    assert "America/New_York" in html
    assert '<script type="module" src="/static/countdown.js"></script>' in html


def test_dossier_role_rules_results_and_final_cable() -> None:
    html = render("dossier", HEIR, HERON)
    assert '<h2 id="role-title">Analyst</h2>' in html
    assert "Side: Station" in html
    assert "RAVEN read COMPROMISED." in html  # RAVEN is Ring (and was no frame's target)
    assert 'maxlength="2000"' in html
    assert ">FINALCABLEHERONEND</textarea>" in html
    assert "Members of the Ring" not in html


def test_dossier_of_the_ring_lists_members_and_the_order_holder() -> None:
    html = render("dossier", HEIR, RAVEN)
    assert "Members of the Ring" in html
    assert '<th scope="row">OWL</th><td>Ringleader</td><td>burned</td>' in html
    assert "RAVEN (you)</th><td>Forger</td><td>living</td>" in html
    assert 'The order is held by <span class="codename">RAVEN</span> (you).' in html


def test_burned_dossier_shows_the_published_will_not_the_editor() -> None:
    html = render("dossier", KILLED, WREN)
    assert "You have been burned" in html
    assert "<textarea" not in html
    assert "FINALCABLEWRENEND" in html


def test_cable_before_the_first_pouch() -> None:
    assert "No Morning Cable yet" in render("cable", DAY1, HERON)


def test_cable_lists_deaths_votes_and_the_earlier_cables() -> None:
    html = render("cable", KILLED, KESTREL)
    assert html.index("Morning Cable, Day 2") < html.index("Earlier Cables") < html.index("Day 1")
    assert (
        '<span class="codename">WREN</span> was liquidated by the Ring. Side: <strong>Station'
        in (html)
    )
    assert "FINALCABLEWRENEND" in html and "FINALCABLEOWLEND" in html
    assert 'The Tribunal recalled <span class="codename">OWL</span>.' in html
    assert "A recall needed at least 2 votes" in html
    assert '<li><span class="codename">OWL</span>: HERON</li>' in html
    assert "RAVEN</span>: no vote saved (counts as Abstain)" in html


def test_cable_after_the_game_reveals_roles_history_and_the_scenario_file() -> None:
    html = render("cable", OVER, HERON)
    assert "The Station wins." in html
    assert '<th scope="row">OWL</th><td>Ringleader</td><td>Ring</td>' in html
    assert "HERON (Analyst) investigated RAVEN." in html
    assert "RAVEN (Forger) ordered the liquidation of WREN, carried out by RAVEN." in html
    assert "HERON: RAVEN read COMPROMISED." in html
    assert "WHISPERTEXT0001END" in html  # S26: every whisper, for the players
    assert 'href="/games/g-test/scenario"' in html


def test_spectator_after_the_game_sees_the_reveal_but_not_the_private_history() -> None:
    html = render("cable", OVER, None)
    assert '<th scope="row">OWL</th><td>Ringleader</td>' in html
    assert "WHISPERTEXT" not in html
    assert "read COMPROMISED" not in html
    assert "/scenario" not in html


def test_roster_status_marks_and_replacements() -> None:
    html = render("roster", KILLED, HERON)
    for codename, _ in SIX:
        assert f'<span class="codename">{codename}</span>' in html
    assert "Burned</span> on Day 1: recalled by the Tribunal. Side: Ring." in html
    assert "Burned</span> on Day 2: liquidated by the Ring. Side: Station." in html
    assert "1 earlier holder" in html  # OWL's seat changed hands (GameInfo)
    assert "Inactive" in html  # RAVEN, marked inactive by the service
    assert "Person " not in html and '<th scope="col">Role</th>' not in html
    day1 = render("roster", DAY1, HERON)
    assert day1.count("Done for the day</span>") == 1  # FALCON (S41)


def test_roster_after_the_game_names_roles_and_people() -> None:
    html = render("roster", OVER, None)
    assert '<p class="revealed">Ringleader, played by Person 0</p>' in html


def test_host_notices_on_the_cable_today_first_then_folded() -> None:
    notices = (
        Announcement(1, "extended", "The host extended Day 1 by 1 hour.", DEADLINE),
        Announcement(2, "removed", "The host removed <FALCON> from the game.", DEADLINE),
    )
    html = render("cable", HEIR, None, announcements=notices)
    today = html.index("Day 2, Sun 30 Mar, 14:00 EDT: The host removed &lt;FALCON&gt;")
    assert today < html.index("Earlier notices") < html.index("extended Day 1 by 1 hour")
    assert "Notices" not in render("cable", HEIR, HERON)


def test_host_sees_the_tools_link_and_the_inactivity_prompt() -> None:
    host = {"host_tools_url": "/games/g-test/host", "inactive_prompt": ("RAVEN",)}
    html = render("roster", DAY1, OWL, **host)
    assert '<a href="/games/g-test/host">Host tools</a>' in html
    assert "Inactive two days running: RAVEN." in html
    other = render("roster", DAY1, HERON, **host, is_host=False)
    assert "Host tools" not in other and "Inactive two days running" not in other


def test_paused_game_names_when_the_pause_ends_by_itself() -> None:
    html = render("cable", DAY1, HERON, status="paused", deadline=None, pause_ends_at=DEADLINE)
    assert "until Sun 30 Mar, 14:00 EDT at the latest" in html


def test_every_form_carries_the_page_version() -> None:
    for tab in ("floor", "dossier", "operations"):
        for action, fields in forms(render(tab, ORDER, RAVEN, version=41)).items():
            assert ("version", "41") in fields, (tab, action)


def test_user_text_is_escaped() -> None:
    script = "<script>alert('drop')</script>"
    state = start(setup_from_deal(SIX, seed=7))
    state, _ = apply(state, A.EditFinalCable(WREN, script))
    dossier = render("dossier", state, WREN)
    assert script not in dossier
    assert "&lt;script&gt;alert(&#39;drop&#39;)&lt;/script&gt;</textarea>" in dossier
    for seat in (HERON, WREN, KESTREL):
        state, _ = apply(state, A.CastVote(seat, WREN))
    state, _ = apply(state, A.ResolvePouch())
    for reader in (HERON, None):
        cable = render("cable", state, reader)
        assert script not in cable
        assert "&lt;script&gt;alert(&#39;drop&#39;)&lt;/script&gt;" in cable


def test_game_title_is_escaped() -> None:
    html = render("roster", DAY1, HERON, title="<b>Gold</b>")
    assert "<b>Gold</b>" not in html
    assert "&lt;b&gt;Gold&lt;/b&gt;" in html
