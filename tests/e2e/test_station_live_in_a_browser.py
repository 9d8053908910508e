"""Station's live pages in a real browser: posts, votes and whispers arrive without a reload.

Six people sign up and start a game through the pages (as in `test_station_game`). Three of
them, A, B and C, each in their own browser context, keep the Floor open and never reload it:
A and B talk on the Floor, A votes and changes the vote from a second page, A whispers to B
from the Dossier. B reads the whisper live on an open Dossier; C, and a spectator behind the
host's public link, see only the announcement "A whispered to B" and never the text, neither
on the page nor in any push the page received. A draft C is typing survives every push.
Pictures go to `var/screenshots/station-live/`.

A second test holds a live form's answer back until the page's own push has arrived (which
happens by itself now and then) and checks that the sent text still leaves the box.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.harness import DESKTOP, PHONE, screenshot_dir
from tests.e2e.station_helpers import Agent, new_agent
from tests.e2e.test_station_game import NAMES, open_game

LIVE_WAIT_MS = 10_000
"""How long a push may take to show on another player's page."""

RECORD_PUSHES = """
window.__pushes = [];
window.__sameDocument = false;
const PlainEventSource = window.EventSource;
window.EventSource = class extends PlainEventSource {
  constructor(...args) {
    super(...args);
    this.addEventListener("page", (event) => window.__pushes.push(event.data));
  }
};
"""
"""Injected into every page before its own scripts: keeps a copy of each live push."""


def record_pushes(context: Any) -> None:
    """From the next navigation on, every page of `context` keeps the pushes it receives."""
    context.add_init_script(RECORD_PUSHES)


def mark_document(page: Any) -> None:
    """Tag the loaded document; a reload or navigation would lose the tag."""
    page.evaluate("window.__sameDocument = true")


def assert_not_reloaded(page: Any, who: str) -> None:
    """The page still shows the document `mark_document` tagged."""
    assert page.evaluate("window.__sameDocument === true"), f"{who}'s page was reloaded"


def pushes(page: Any) -> list[str]:
    """The live parts pushed to this page so far."""
    received: list[str] = page.evaluate("window.__pushes")
    return received


def exactly(text: str) -> re.Pattern[str]:
    """A pattern for an element whose whole text is `text`."""
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


def floor_log(page: Any) -> Any:
    """The Floor's chat messages on a page."""
    return page.locator("#chat-floor .chat-log")


def post_on_floor(page: Any, text: str) -> None:
    """Send a Floor message with the page's live form (fetch to /api/…, no reload)."""
    form = page.locator("#chat-floor form")
    form.get_by_label("Message to The Floor").fill(text)
    with page.expect_response(re.compile(r"/api/games/[^/]+/chat/floor$")) as sent:
        form.get_by_role("button", name="Send").click()
    assert sent.value.json().get("ok"), f"the post was refused: {sent.value.text()}"


def tally_row(page: Any, codename: str) -> Any:
    """The Floor tally's bar of one officer."""
    name = page.locator(".tally-name", has_text=exactly(codename))
    return page.locator(".tally-bars li", has=name)


def vote_row(page: Any, voter: str) -> Any:
    """The "Every vote" table's row of one voter."""
    table = page.locator("section[aria-labelledby='votes-title'] tbody")
    return table.locator("tr", has=page.locator("th", has_text=exactly(voter)))


def cast_vote(page: Any, floor_url: str, choice: str) -> None:
    """Vote on the Floor's ballot (an ordinary form: this page reloads, others must not)."""
    page.goto(floor_url)
    ballot = page.locator("section[aria-labelledby='my-vote-title'] form").first
    ballot.get_by_role("radio", name=choice, exact=True).check()
    ballot.get_by_role("button", name="Cast vote").click()
    expect(page.locator(".flash-success")).to_contain_text("Vote saved.")


def open_spectator_link(host: Agent) -> str:
    """The host opens the public spectator link from the host's tools; returns it."""
    page = host.page
    page.goto(f"{host.game_url}/host")
    page.get_by_role("button", name="Open a spectator link").click()
    link: str = page.locator("#spectator-url").input_value()
    assert "/watch/" in link
    return link


@pytest.fixture(scope="module")
def table(live_server: str, browser: Any) -> Iterator[list[Agent]]:
    """Six people in a started game (one game for this module); A, the host, is first."""
    agents = [new_agent(browser, live_server, name) for name in NAMES]
    for agent in agents[:3]:
        record_pushes(agent.page.context)
    open_game(agents[0], agents[1:])
    for agent in agents[:3]:
        agent.read_dossier()
    assert len({agent.codename for agent in agents[:3]}) == 3
    yield agents
    for agent in agents:
        agent.page.context.close()


def test_floor_votes_and_whispers_arrive_live(table: list[Agent], browser: Any) -> None:
    shots = screenshot_dir("station-live")
    a, b, c = table[:3]
    game_url = a.game_url

    # A spectator behind the host's public link watches the Floor too.
    watch_link = open_spectator_link(a)
    spectator_context = browser.new_context(viewport=DESKTOP)
    record_pushes(spectator_context)
    spectator = spectator_context.new_page()
    spectator.set_default_timeout(10_000)
    spectator.goto(f"{watch_link}/floor")
    expect(spectator.locator(".game-head")).to_contain_text("Spectator")

    # A, B and C open the Floor once; from here on these pages are never reloaded.
    floor_url = f"{game_url}/floor"
    a_floor, b_floor, c_floor = a.tab("floor"), b.tab("floor"), c.tab("floor")
    for page in (a_floor, b_floor, c_floor, spectator):
        mark_document(page)
        expect(page.locator(".game-page[data-live-url]")).to_have_count(1)

    # Floor talk: A's message reaches B and C, B's answer reaches A.
    hello = f"{a.codename} here: who saw the courier at the checkpoint?"
    post_on_floor(a_floor, hello)
    for page in (b_floor, c_floor, spectator):
        expect(floor_log(page)).to_contain_text(hello, timeout=LIVE_WAIT_MS)
    answer = f"{b.codename} here: not me, I was at the embassy."
    post_on_floor(b_floor, answer)
    for page in (a_floor, c_floor):
        expect(floor_log(page)).to_contain_text(answer, timeout=LIVE_WAIT_MS)
    expect(floor_log(a_floor).locator(".chat-message").last).to_contain_text(b.codename)

    # C starts typing and does not send: pushes must keep the draft.
    draft = "Half a thought about the courier, not sent yet"
    c_floor.get_by_label("Message to The Floor").fill(draft)

    # A votes from a second page of A's context; B's open Floor follows every change.
    a_ballot = a.page.context.new_page()
    a_ballot.set_default_timeout(10_000)
    cast_vote(a_ballot, floor_url, c.codename)
    expect(tally_row(b_floor, c.codename)).to_contain_text(
        f"1 vote from {a.codename}", timeout=LIVE_WAIT_MS
    )
    expect(vote_row(b_floor, a.codename).locator("td")).to_have_text(c.codename)
    cast_vote(a_ballot, floor_url, b.codename)
    expect(tally_row(b_floor, b.codename)).to_contain_text(
        f"1 vote from {a.codename}", timeout=LIVE_WAIT_MS
    )
    expect(tally_row(b_floor, c.codename)).to_have_count(0)
    expect(vote_row(b_floor, a.codename).locator("td")).to_have_text(b.codename)
    expect(vote_row(spectator, a.codename).locator("td")).to_have_text(
        b.codename, timeout=LIVE_WAIT_MS
    )

    # B keeps the Dossier open in a second page; A whispers to B from the Dossier.
    b_dossier = b.page.context.new_page()
    b_dossier.set_default_timeout(10_000)
    b_dossier.goto(f"{game_url}/dossier")
    mark_document(b_dossier)
    expect(b_dossier.locator("#whispers")).to_contain_text("No whispers yet")
    secret = "The dead letter box is behind the third brick of the Glienicke bridge."
    a_dossier = a_ballot
    a_dossier.goto(f"{game_url}/dossier")
    mark_document(a_dossier)
    whisper_form = a_dossier.locator("#whispers form")
    whisper_form.get_by_label("To", exact=True).select_option(b.codename)
    whisper_form.get_by_label("Whisper", exact=True).fill(secret)
    with a_dossier.expect_response(re.compile(r"/api/games/[^/]+/whisper$")) as sent:
        whisper_form.get_by_role("button", name="Whisper", exact=True).click()
    assert sent.value.json().get("ok"), f"the whisper was refused: {sent.value.text()}"
    expect(a_dossier.locator("#whispers .chat-log")).to_contain_text(secret, timeout=LIVE_WAIT_MS)

    # B reads the text live; everyone's Floor shows only who whispered to whom.
    expect(b_dossier.locator("#whispers .chat-log")).to_contain_text(secret, timeout=LIVE_WAIT_MS)
    announcement = f"{a.codename} whispered to {b.codename}"
    for page in (a_floor, b_floor, c_floor, spectator):
        expect(page.locator(".whispers-announced")).to_contain_text(
            announcement, timeout=LIVE_WAIT_MS
        )
    for who, page in (("C", c_floor), ("the spectator", spectator)):
        assert secret not in page.content(), f"the whisper's text reached {who}'s page"
        assert not [push for push in pushes(page) if secret in push], (
            f"the whisper's text was pushed to {who}"
        )
        assert pushes(page), f"{who}'s page got no push at all"
    c_dossier = c.page.context.new_page()
    c_dossier.goto(f"{game_url}/dossier")
    assert secret not in c_dossier.content()
    c_dossier.close()

    # C's draft survived the pushes of the votes and the whisper; nothing was reloaded.
    expect(c_floor.get_by_label("Message to The Floor")).to_have_value(draft)
    for who, page in (("A", a_floor), ("B", b_floor), ("C", c_floor), ("spectator", spectator)):
        assert_not_reloaded(page, who)
    assert_not_reloaded(b_dossier, "B's Dossier")
    assert_not_reloaded(a_dossier, "A's Dossier")

    # Pictures after the whisper: A and B at desktop size, C on a phone, B's Dossier, spectator.
    for name, page in (("a", a_floor), ("b", b_floor)):
        page.set_viewport_size(DESKTOP)
        page.screenshot(path=str(shots / f"floor-{name}-desktop.png"), full_page=True)
    c_floor.set_viewport_size(PHONE)
    c_floor.screenshot(path=str(shots / "floor-c-phone.png"))
    b_dossier.locator("#whispers").scroll_into_view_if_needed()
    b_dossier.screenshot(path=str(shots / "dossier-b-whisper-phone.png"))
    spectator.screenshot(path=str(shots / "floor-spectator-desktop.png"), full_page=True)
    assert len(list(shots.glob("*.png"))) == 5
    for page in (a_dossier, b_dossier):
        page.close()
    spectator_context.close()


def send_after_the_push(page: Any, api_path: str, button: str, shown: Any, text: str) -> None:
    """Click `button` of a live form, holding its answer back until `shown` has `text`.

    `shown` can only get `text` through the page's own push, so the push is certain to
    arrive before the fetch's answer, as it does now and then on a busy or slow line.
    """
    url = re.compile(rf"/api/games/[^/]+/{api_path}$")

    def hold_back(route: Any) -> None:
        answer = route.fetch()
        expect(shown).to_contain_text(text, timeout=LIVE_WAIT_MS)
        route.fulfill(response=answer)

    page.route(url, hold_back)
    with page.expect_response(url) as sent:
        page.get_by_role("button", name=button, exact=True).click()
    assert sent.value.json().get("ok"), f"refused: {sent.value.text()}"
    page.unroute(url)


def still_typed(box: Any) -> str:
    """What is left in a form's box once the page had time to clear it; "" when cleared."""
    try:
        expect(box).to_have_value("", timeout=3_000)
    except AssertionError:
        left: str = box.input_value()
        return left
    return ""


def test_a_sent_message_leaves_the_box_even_when_the_answer_comes_after_the_push(
    table: list[Agent],
) -> None:
    """Sending clears the box, also when the page's own push overtakes the fetch's answer.

    The server wakes the listeners before it answers a post, so the push that re-renders the
    form (keeping typed text, as it must for drafts) can come first; the late answer must then
    still clear the box, or the person is invited to send the same message twice. Checked for
    A's Floor post and for B's whisper to A (B's first whisper of the day).
    """
    a, b = table[:2]
    floor = a.page.context.new_page()
    floor.set_default_timeout(10_000)
    floor.goto(f"{a.game_url}/floor")
    floor_text = "Sent once, and only once."
    floor.get_by_label("Message to The Floor").fill(floor_text)
    send_after_the_push(floor, "chat/floor", "Send", floor_log(floor), floor_text)
    left_on_floor = still_typed(floor.get_by_label("Message to The Floor"))

    dossier = b.page.context.new_page()
    dossier.set_default_timeout(10_000)
    dossier.goto(f"{b.game_url}/dossier")
    whisper_text = "Whispered once, and only once."
    dossier.get_by_label("To", exact=True).select_option(a.codename)
    dossier.get_by_label("Whisper", exact=True).fill(whisper_text)
    whispers = dossier.locator("#whispers .chat-log")
    send_after_the_push(dossier, "whisper", "Whisper", whispers, whisper_text)
    left_in_whisper = still_typed(dossier.get_by_label("Whisper", exact=True))

    floor.close()
    dossier.close()
    assert (left_on_floor, left_in_whisper) == ("", ""), (
        "the sent text stayed in the box after the page's own push: "
        f"Floor {left_on_floor!r}, whisper {left_in_whisper!r}"
    )
