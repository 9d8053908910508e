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

Two more follow what came after: the tab bar's "new since I last looked" badges counting up
live on an open page (never for one's own doings, gone once the tab is looked at), and the
host's pause, resume and extension reaching an open page's letterhead and countdown. Their
pictures (badges in a phone's bottom tab bar, the paused letterhead) go to
`var/screenshots/station-live-badges/`. The last one sends a message the server refuses and
expects the Send button to stay usable.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
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
window.__kinds = [];
window.__sameDocument = false;
const PlainEventSource = window.EventSource;
window.EventSource = class extends PlainEventSource {
  constructor(...args) {
    super(...args);
    for (const kind of ["page", "append", "region", "badge", "cursor"]) {
      this.addEventListener(kind, (event) => {
        window.__pushes.push(event.data);
        window.__kinds.push(kind);
      });
    }
  }
};
"""
"""Injected into every page before its own scripts: keeps a copy of each live push (a whole
live part, a new message, a region of the Floor, a badge, or the cursor alone) and its kind."""


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


def kinds(page: Any) -> list[str]:
    """The kinds of the pushes this page received so far (`page`, `region`, …)."""
    received: list[str] = page.evaluate("window.__kinds")
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


def send_whisper(page: Any, recipient: str, text: str) -> None:
    """Whisper with the open Dossier's live form (fetch to /api/…, no reload)."""
    form = page.locator("#whispers form")
    form.get_by_label("To", exact=True).select_option(recipient)
    form.get_by_label("Whisper", exact=True).fill(text)
    with page.expect_response(re.compile(r"/api/games/[^/]+/whisper$")) as sent:
        form.get_by_role("button", name="Whisper", exact=True).click()
    assert sent.value.json().get("ok"), f"the whisper was refused: {sent.value.text()}"


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

    # A votes from a second page of A's context; B's open Floor follows every change, by the
    # Floor's regions alone (the tally and the votes, the same for every reader): B's page is
    # not re-rendered for a vote that is not B's.
    a_ballot = a.page.context.new_page()
    a_ballot.set_default_timeout(10_000)
    whole_pages = kinds(b_floor).count("page")
    cast_vote(a_ballot, floor_url, c.codename)
    expect(tally_row(b_floor, c.codename)).to_contain_text(
        f"1 vote from {a.codename}", timeout=LIVE_WAIT_MS
    )
    assert "region" in kinds(b_floor) and kinds(b_floor).count("page") == whole_pages
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
    assert kinds(b_floor).count("page") == whole_pages, "a vote re-rendered B's whole page"
    # A's own open Floor shows A's ballot as saved (re-rendered for A alone).
    expect(a_floor.locator("section[aria-labelledby='my-vote-title']")).to_contain_text(
        f"Now: {b.codename}", timeout=LIVE_WAIT_MS
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
    send_whisper(a_dossier, b.codename, secret)
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


# --- The tab bar's badges and the host's notices --------------------------------------------

COUNTDOWN_SECONDS = re.compile(r"^(\d+) min (\d{2}) s left$")
"""The countdown's text in the last hour of a day: "4 min 05 s left"."""
COUNTDOWN_HOURS = re.compile(r"^(\d+) h (\d+) min left$")
"""The countdown's text further away: "1 h 4 min left"."""


@pytest.fixture(scope="module")
def badge_shots() -> Path:
    """One fresh folder for the pictures of the badges and of the host's notices."""
    return screenshot_dir("station-live-badges")


def open_page(agent: Agent, url: str) -> Any:
    """A new page in the agent's own browser context (same person, another tab), at `url`."""
    page = agent.page.context.new_page()
    page.set_default_timeout(10_000)
    page.goto(url)
    return page


def tab_link(page: Any, label: str) -> Any:
    """The link of one tab in the page's tab bar ("Floor", "Dossier", …)."""
    tabs = page.get_by_role("navigation", name="Game tabs")
    return tabs.get_by_role("link", name=re.compile(rf"^{re.escape(label)}\b"))


def badge(page: Any, label: str) -> Any:
    """The "new since I last looked" badge on one tab's link (absent when nothing is new)."""
    return tab_link(page, label).locator(".tab-badge")


def new_items(count: int) -> str:
    """A badge's whole text: the count with the words only a screen reader reads."""
    return f"({count} new)"


def push_count(page: Any) -> int:
    """How many live pushes the page has received so far."""
    return len(pushes(page))


def wait_for_push(page: Any, seen: int) -> None:
    """Wait until the page has received more than `seen` pushes."""
    page.wait_for_function("seen => window.__pushes.length > seen", arg=seen, timeout=LIVE_WAIT_MS)


def look_at(agent: Agent, *tabs: str) -> Any:
    """Open each tab in turn on the agent's own page (each counts as a look); the page."""
    for name in tabs:
        agent.tab(name)
        expect(tab_link(agent.page, name.capitalize())).to_have_attribute("aria-current", "page")
    return agent.page


def deadline_of(page: Any) -> datetime:
    """The Pouch's deadline as the letterhead's `<time data-countdown>` states it."""
    stamp = page.locator("time[data-countdown]").get_attribute("datetime")
    assert stamp, "the letterhead states no deadline"
    return datetime.fromisoformat(stamp)


def test_tab_badges_count_what_is_new_live(table: list[Agent], badge_shots: Path) -> None:
    """C sits on the Cable: A's Floor posts count up on C's Floor tab without a reload, and a
    look at the Floor clears it; A gets no badge for A's own posts; A's whisper to C puts a
    badge on C's Dossier, while D (no party) gets only the announcement's Floor badge."""
    a, c, d = table[0], table[2], table[3]
    game_url = a.game_url

    # A writes from a Floor page whose stream is cut off, loaded afresh before each post: no
    # push to an open Floor of A's counts as A's look after the post, so a missing Floor badge
    # on A's open Cable means A's own posts are not news to A.
    a_floor = a.page.context.new_page()
    a_floor.set_default_timeout(10_000)
    a_floor.route(re.compile(r"/events\?"), lambda route: route.abort())
    a_cable = open_page(a, f"{game_url}/cable")
    expect(badge(a_cable, "Floor")).to_have_count(0)

    # C looks at the Floor and the Dossier once, then keeps the Cable open: no reload.
    c_cable = look_at(c, "floor", "dossier", "cable")
    mark_document(c_cable)
    for label in ("Floor", "Dossier"):
        expect(badge(c_cable, label)).to_have_count(0)

    # Each of A's posts counts up on C's open Cable; A's own Cable never gets a badge for it.
    for count in (1, 2):
        a_floor.goto(f"{game_url}/floor")
        seen_by_a = push_count(a_cable)
        post_on_floor(a_floor, f"{a.codename} on the Floor, message {count}.")
        expect(badge(c_cable, "Floor")).to_have_text(new_items(count), timeout=LIVE_WAIT_MS)
        wait_for_push(a_cable, seen_by_a)
        expect(badge(a_cable, "Floor")).to_have_count(0)
    assert_not_reloaded(c_cable, "C's Cable")
    a_cable.reload()
    expect(badge(a_cable, "Floor")).to_have_count(0)
    a_floor.close()

    # C looks at the Floor: no badge on the tab being read, and none once back on the Cable.
    tab_link(c_cable, "Floor").click()
    expect(tab_link(c.page, "Floor")).to_have_attribute("aria-current", "page")
    expect(floor_log(c.page)).to_contain_text(f"{a.codename} on the Floor, message 2.")
    expect(badge(c.page, "Floor")).to_have_count(0)
    tab_link(c.page, "Cable").click()
    expect(tab_link(c.page, "Cable")).to_have_attribute("aria-current", "page")
    expect(badge(c.page, "Floor")).to_have_count(0)
    c_cable = c.page
    mark_document(c_cable)

    # D, no party to the whisper, has looked at the Floor and the Dossier and sits on the Cable.
    d_cable = look_at(d, "floor", "dossier", "cable")
    mark_document(d_cable)
    for label in ("Floor", "Dossier"):
        expect(badge(d_cable, label)).to_have_count(0)

    # A whispers to C: C's open Cable shows a Dossier badge (the text) and a Floor badge (the
    # announcement); D's shows the Floor badge only.
    a_dossier = open_page(a, f"{game_url}/dossier")
    send_whisper(a_dossier, c.codename, "Meet me at the Teufelsberg listening post.")
    expect(badge(c_cable, "Dossier")).to_have_text(new_items(1), timeout=LIVE_WAIT_MS)
    expect(badge(c_cable, "Floor")).to_have_text(new_items(1), timeout=LIVE_WAIT_MS)
    expect(badge(d_cable, "Floor")).to_have_text(new_items(1), timeout=LIVE_WAIT_MS)
    expect(badge(d_cable, "Dossier")).to_have_count(0)
    a_cable.reload()
    expect(badge(a_cable, "Floor")).to_have_count(0)
    for who, page in (("C", c_cable), ("D", d_cable)):
        assert_not_reloaded(page, f"{who}'s Cable")

    # A phone's bottom tab bar with C's two badges.
    c_cable.set_viewport_size(PHONE)
    c_cable.screenshot(path=str(badge_shots / "cable-c-badges-phone.png"))
    for page in (a_cable, a_dossier):
        page.close()


def test_the_hosts_pause_resume_and_extension_reach_an_open_page(
    table: list[Agent], badge_shots: Path
) -> None:
    """B keeps the Cable open while the host pauses, resumes and extends the day from the
    host's desk: the letterhead and its countdown follow each step without a reload."""
    a, b = table[:2]
    host_desk = f"{a.game_url}/host"
    status = b.page.locator(".game-head .game-status")
    left = b.page.locator("[data-countdown-left]")
    notices = b.page.locator("section.notices")

    b_cable = b.tab("cable")
    mark_document(b_cable)
    expect(status).to_contain_text("The Pouch departs")
    expect(left).to_have_text(COUNTDOWN_SECONDS)

    # The host pauses: the clock stands still on B's page and the Cable lists the notice.
    a.page.goto(host_desk)
    a.page.get_by_role("button", name="Pause the game").click()
    a.saved("Game paused.")
    expect(status).to_contain_text(
        "The host has paused the game: the clock stands still", timeout=LIVE_WAIT_MS
    )
    expect(left).to_have_count(0)
    expect(b_cable.locator("time[data-countdown]")).to_have_count(0)
    expect(notices).to_contain_text("The host paused the game.")
    b_cable.set_viewport_size(PHONE)
    b_cable.screenshot(path=str(badge_shots / "cable-b-paused-phone.png"))

    # The host resumes: the countdown is back and ticks.
    a.page.get_by_role("button", name="Resume the game").click()
    a.saved("Game resumed.")
    expect(notices).to_contain_text("The host resumed the game.", timeout=LIVE_WAIT_MS)
    expect(status).to_contain_text("The Pouch departs")
    expect(left).to_have_text(COUNTDOWN_SECONDS)
    before = left.text_content() or ""
    expect(left).not_to_have_text(before, timeout=3_000)
    expect(left).to_have_text(COUNTDOWN_SECONDS)

    # The host extends the day by an hour: B's deadline moves by exactly that, and the time
    # left grows by it.
    deadline = deadline_of(b_cable)
    seconds_form = COUNTDOWN_SECONDS.match(left.text_content() or "")
    assert seconds_form, "the countdown is not in minutes and seconds"
    minutes = int(seconds_form.group(1))
    a.page.get_by_label("Extend today's deadline by").select_option(label="1 hour")
    a.page.get_by_role("button", name="Extend", exact=True).click()
    a.saved("Deadline extended.")
    expect(notices).to_contain_text("extended today's deadline by 1 h", timeout=LIVE_WAIT_MS)
    expect(b_cable.locator("time[data-countdown]")).not_to_have_attribute(
        "datetime", deadline.strftime("%Y-%m-%dT%H:%M:%SZ")
    )
    assert deadline_of(b_cable) - deadline == timedelta(hours=1)
    expect(left).to_have_text(COUNTDOWN_HOURS)
    hours_form = COUNTDOWN_HOURS.match(left.text_content() or "")
    assert hours_form, "the countdown is not in hours and minutes"
    assert int(hours_form.group(1)) == 1
    assert int(hours_form.group(2)) in (minutes, minutes - 1), (
        f"an hour more than {minutes} min left shows as {hours_form.group(0)!r}"
    )
    assert_not_reloaded(b_cable, "B's Cable")


def test_a_refused_send_can_be_sent_again(table: list[Agent]) -> None:
    """The first send from a freshly loaded page is refused ("Wait a few seconds, then send it
    again"): the Send button must stay usable, as the notice asks for exactly that."""
    f = table[5]
    floor_url = f"{f.game_url}/floor"
    floor = open_page(f, floor_url)
    for count in range(1, 6):  # chat.RATE_COUNT: the most allowed in a short while
        post_on_floor(floor, f"Quick message {count} of a chatty officer.")
    floor.goto(floor_url)
    form = floor.locator("#chat-floor form")
    form.get_by_label("Message to The Floor").fill("One message too many, for now.")
    with floor.expect_response(re.compile(r"/api/games/[^/]+/chat/floor$")) as sent:
        form.get_by_role("button", name="Send").click()
    assert not sent.value.json().get("ok"), "the sixth quick message was not refused"
    expect(form.locator(".live-notice")).to_contain_text("send it again")
    send = floor.locator("#chat-floor form").get_by_role("button", name="Send")
    try:
        expect(send).to_be_enabled(timeout=3_000)
    finally:
        floor.close()


def test_a_page_come_back_to_drops_badges_looked_at_elsewhere(table: list[Agent]) -> None:
    """E keeps the Cable in one browser tab and reads the Floor in another: back on the Cable
    (the tab visible again), its Floor badge is gone without a reload."""
    a, e = table[0], table[4]
    e_cable = look_at(e, "floor", "cable")
    mark_document(e_cable)
    post_on_floor(open_page(a, f"{a.game_url}/floor"), "Has anyone seen the courier's bicycle?")
    expect(badge(e_cable, "Floor")).to_have_text(new_items(1), timeout=LIVE_WAIT_MS)
    e_floor = open_page(e, f"{e.game_url}/floor")  # a look at the Floor, in another tab
    expect(floor_log(e_floor)).to_contain_text("the courier's bicycle")
    expect(badge(e_cable, "Floor")).to_have_text(new_items(1))  # nothing told this page yet
    e_cable.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(badge(e_cable, "Floor")).to_have_count(0, timeout=LIVE_WAIT_MS)
    assert_not_reloaded(e_cable, "E's Cable")
    e_floor.close()
