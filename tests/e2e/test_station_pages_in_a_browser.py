"""Station's pages on a phone (issue 11): buttons the server disabled stay disabled when the
browser shows a page again, the new-game form picks the browser's time zone, the invite link
copies to the clipboard (or goes to the phone's share sheet), and the Floor starts with the
conversation under a one-line letterhead. Pictures go to `var/screenshots/station-pages/`."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.harness import DESKTOP, PHONE, screenshot_dir
from tests.e2e.station_helpers import Agent, new_agent
from tests.e2e.test_accounts_in_a_browser import sign_up
from tests.e2e.test_station_game import open_game

PERSISTED_PAGESHOW = (
    "window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }))"
)
"""What the browser fires when it shows a page again from its back/forward cache."""

SENT_BUT_STAYED = """
(action) => {
  const form = document.querySelector(`form[action='${action}']`);
  form.addEventListener("submit", (event) => event.preventDefault());
  form.requestSubmit();
}
"""
"""Send a form as a tap would, but keep the page: app.js disables its button on the way out."""

ONE_LINE_PX = 70
"""A letterhead on one line: the brand and the menu side by side, well under two lines."""


def open_lobby(agent: Agent, title: str = "Glienicke Bridge") -> str:
    """The agent opens a daily game through the form; the lobby's URL."""
    page = agent.page
    page.goto(f"{agent.base}/games/new")
    page.get_by_label("Title").fill(title)
    page.get_by_role("button", name="Open the lobby").click()
    page.wait_for_url("**/lobby")
    url: str = page.url
    return url


def test_a_button_the_server_disabled_stays_disabled_when_the_page_is_shown_again(
    live_server: str, browser: Any
) -> None:
    host = new_agent(browser, live_server, "pageshow_host")
    open_lobby(host)
    page = host.page
    start = page.get_by_role("button", name="Start with 1 player")
    expect(start).to_be_disabled()
    log_out = page.get_by_role("button", name="Log out")
    page.evaluate(SENT_BUT_STAYED, "/logout")
    expect(log_out).to_be_disabled()  # on its way: a second tap would send it twice

    page.evaluate(PERSISTED_PAGESHOW)
    expect(log_out).to_be_enabled()  # what the script disabled is re-armed
    expect(start).to_be_disabled()  # what the server disabled stays so


def test_the_new_game_form_picks_the_browsers_time_zone(live_server: str, browser: Any) -> None:
    shots = screenshot_dir("station-pages")
    for script, expected in ((True, "America/New_York"), (False, "UTC")):
        context = browser.new_context(
            viewport=PHONE, timezone_id="America/New_York", java_script_enabled=script
        )
        page = context.new_page()
        username = f"zone_{'js' if script else 'nojs'}"
        sign_up(page, live_server, username)
        page.wait_for_url(f"{live_server}/")
        page.goto(f"{live_server}/games/new")
        expect(page.get_by_label("Time zone")).to_have_value(expected)
        hint = page.locator("#first-pouch")
        if script:  # the server's first Pouch was for UTC: the form no longer claims it
            expect(hint).not_to_contain_text("21:00 UTC")
            expect(hint).to_contain_text("The lobby shows its date and time")
        else:
            expect(hint).to_contain_text("first Pouch:")
        page.screenshot(path=str(shots / f"new-game-zone-{username}.png"), full_page=True)
        context.close()


def test_the_invite_link_copies_to_the_clipboard(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page = context.new_page()
    page.add_init_script("delete Navigator.prototype.share")  # a browser without a share sheet
    sign_up(page, live_server, "copy_host")
    page.wait_for_url(f"{live_server}/")
    open_lobby(Agent("copy_host", page, live_server))
    link = page.get_by_role("textbox", name="Link").input_value()
    page.get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("status").filter(has_text="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link
    page.screenshot(path=str(screenshot_dir("station-pages") / "lobby-copied.png"))
    context.close()


def test_the_invite_link_goes_to_the_share_sheet_where_the_phone_has_one(
    live_server: str, browser: Any
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.add_init_script(
        "window.__shared = [];"
        "Navigator.prototype.share = function (data) {"
        "  window.__shared.push(data.url); return Promise.resolve(); };"
    )
    sign_up(page, live_server, "share_host")
    page.wait_for_url(f"{live_server}/")
    open_lobby(Agent("share_host", page, live_server))
    link = page.get_by_role("textbox", name="Link").input_value()
    page.get_by_role("button", name="Share link").click()
    page.wait_for_function("window.__shared.length === 1")
    assert page.evaluate("window.__shared") == [link]
    context.close()


def test_the_floor_starts_with_the_conversation_under_a_one_line_letterhead(
    live_server: str, browser: Any
) -> None:
    shots = screenshot_dir("station-pages")
    agents = [new_agent(browser, live_server, f"floor_{n}") for n in range(6)]
    host, others = agents[0], agents[1:]
    open_game(host, others)
    for agent, text in ((others[0], "Who whispered last night?"), (host, "Not me.")):
        page = agent.tab("floor")
        page.get_by_label("Message to The Floor").fill(text)
        page.get_by_role("button", name="Send").click()
        expect(page.locator(".floor-chat .chat-message").last).to_contain_text(text)

    page = host.tab("floor")
    for width in (360, PHONE["width"]):
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        for path in ("/", "/how-to-play", page.url):
            page.goto(path if path.startswith("http") else f"{live_server}{path}")
            header = page.locator("header.masthead").bounding_box()
            assert header is not None and header["height"] < ONE_LINE_PX, (width, path, header)
    # The first screen of a phone, above the fixed tab bar, holds the chat and its post box.
    page.set_viewport_size(PHONE)
    page.reload()
    page.screenshot(path=str(shots / "floor-phone.png"))
    tab_bar = page.locator("nav.tab-bar").bounding_box()
    assert tab_bar is not None
    first_screen = min(PHONE["height"], tab_bar["y"])
    first_message = page.locator(".floor-chat .chat-message").first.bounding_box()
    post_box = page.get_by_label("Message to The Floor").bounding_box()
    tally = page.locator("#tally-title").bounding_box()
    assert first_message is not None and post_box is not None and tally is not None
    assert first_message["y"] + first_message["height"] <= first_screen, first_message
    assert post_box["y"] + post_box["height"] <= first_screen, post_box
    assert tally["y"] > post_box["y"]  # the Tribunal follows the conversation
    # On a wide screen the two stand side by side, the conversation first.
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(shots / "floor-desktop.png"), full_page=True)
    chat = page.locator(".floor-chat").bounding_box()
    tribunal = page.locator(".floor-tribunal").bounding_box()
    assert chat is not None and tribunal is not None
    assert chat["x"] < tribunal["x"] and abs(chat["y"] - tribunal["y"]) < 5


def test_a_cards_invite_link_copies_to_the_clipboard(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page = context.new_page()
    page.add_init_script("delete Navigator.prototype.share")
    page.goto(f"{live_server}/cards")
    page.get_by_text("Open a table for friends or bots").click()
    page.get_by_label("Seats", exact=True).select_option("2")
    page.get_by_label("Seat 2 (used when the table has that many seats)").select_option("friend")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url("**/cards/t/**")
    link = page.get_by_label("Invite link").input_value()
    page.get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("status").filter(has_text="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link
    context.close()


def test_the_first_pouch_hint_says_it_is_stale_once_the_time_changes(
    live_server: str, browser: Any
) -> None:
    context = browser.new_context(viewport=PHONE, timezone_id="UTC")
    page = context.new_page()
    sign_up(page, live_server, "stale_hint")
    page.wait_for_url(f"{live_server}/")
    page.goto(f"{live_server}/games/new")
    hint = page.locator("#first-pouch")
    expect(hint).to_contain_text("21:00 UTC, then every day at 21:00")
    page.get_by_label("Title").fill("Teufelsberg")
    page.get_by_label("Title").blur()
    expect(hint).to_contain_text("21:00 UTC, then every day at 21:00")  # not about the title
    page.get_by_label("Pouch time").fill("08:30")
    page.get_by_label("Pouch time").blur()
    expect(hint).not_to_contain_text("21:00 UTC")
    expect(hint).to_contain_text("The lobby shows its date and time")
    context.close()
