"""Claims (S43) in a real browser: the "Make a claim" form on the Floor, with and without
JavaScript, and the plain sentence that reaches the other players' open pages live.

Six people start a game through the pages. A opens "Make a claim" on the Floor and claims to
suspect B; B's open Floor shows "A suspects B." marked as a claim, without a reload, while A's
claim box stays open through the push. C, whose browser runs no JavaScript, claims a role with
the same form (a plain POST and a redirect) and reads the sentence on the page it lands on.
Pictures go to `var/screenshots/station-claims/`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.harness import PHONE, screenshot_dir
from tests.e2e.station_helpers import Agent, new_agent
from tests.e2e.test_station_game import NAMES, open_game

LIVE_WAIT_MS = 10_000
"""How long a push may take to show on another player's page."""


@pytest.fixture(scope="module")
def table(live_server: str, browser: Any) -> Iterator[list[Agent]]:
    """Six people in a started game; A, the host, is first."""
    agents = [new_agent(browser, live_server, name) for name in NAMES]
    open_game(agents[0], agents[1:])
    for agent in agents[:3]:
        agent.read_dossier()
    yield agents
    for agent in agents:
        agent.page.context.close()


def claim_box(page: Any) -> Any:
    """The Floor's "Make a claim" box."""
    return page.locator("#claim-floor")


def test_s43_s28_a_claim_from_the_floor_form_reaches_open_pages_as_a_sentence(
    table: list[Agent], browser: Any
) -> None:
    shots = screenshot_dir("station-claims")
    a, b, c = table[:3]
    a_floor, b_floor = a.tab("floor"), b.tab("floor")
    expect(a_floor.locator(".bots-read-claims").first).to_contain_text(
        "Bots read claims, not free text"
    )

    box = claim_box(a_floor)
    box.locator("summary").click()
    stance = a_floor.locator("#claim-floor-stance-form")
    stance.get_by_label("I", exact=True).select_option("suspect")
    stance.get_by_label("Whom").select_option(b.codename)
    with a_floor.expect_response(lambda r: r.url.endswith("/claim/floor")) as sent:
        stance.get_by_role("button", name="Post the claim").click()
    assert sent.value.json().get("ok"), sent.value.text()

    sentence = f"{a.codename} suspects {b.codename}."
    for page in (a_floor, b_floor):
        claim = page.locator("#chat-floor .chat-log .claim").last
        expect(claim).to_contain_text(sentence, timeout=LIVE_WAIT_MS)
        expect(claim.locator(".claim-marker")).to_have_text("claim")
    expect(box).to_have_attribute("open", "")  # the push kept A's claim box open
    a_floor.screenshot(path=str(shots / "floor-a-claim-phone.png"), full_page=True)

    # C has no JavaScript: the same form posts, the server redirects, the page shows it.
    plain = browser.new_context(viewport=PHONE, java_script_enabled=False)
    plain.add_cookies(c.page.context.cookies())
    c_floor = plain.new_page()
    c_floor.goto(f"{c.game_url}/floor")
    claim_box(c_floor).locator("summary").click()
    role = c_floor.locator("#claim-floor-role-form")
    role.get_by_label("I am").select_option("analyst")
    role.get_by_role("button", name="Post the claim").click()
    c_floor.wait_for_url("**/floor")
    expect(c_floor.locator(".flash-success")).to_contain_text("Claim posted.")
    expect(c_floor.locator("#chat-floor .chat-log .claim").last).to_contain_text(
        f"{c.codename} claims to be the Analyst."
    )
    expect(b_floor.locator("#chat-floor .chat-log .claim").last).to_contain_text(
        f"{c.codename} claims to be the Analyst.", timeout=LIVE_WAIT_MS
    )
    c_floor.screenshot(path=str(shots / "floor-c-no-javascript-phone.png"), full_page=True)
    plain.close()
