"""A friend with no account opens a Station invite, signs up from it and lands back in the
game, in a real browser at phone size; a logged-out visitor of a Cards invite sees the table."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.harness import PHONE, screenshot_dir
from tests.e2e.station_helpers import new_agent

PASSWORD = "correct horse battery"


def test_an_invited_newcomer_signs_up_and_lands_in_the_game(live_server: str, browser: Any) -> None:
    shots = screenshot_dir("invite-newcomer")
    host = new_agent(browser, live_server, "hostess")
    page = host.page
    page.goto(f"{live_server}/games/new")
    page.get_by_label("Title").fill("Operation Gold")
    page.get_by_label("Pouch time").fill("21:00")
    page.get_by_role("button", name="Open the lobby").click()
    page.wait_for_url("**/lobby")
    lobby_path = page.url.removeprefix(live_server)
    invite = page.get_by_role("textbox", name="Link").input_value()

    context = browser.new_context(viewport=PHONE)
    friend = context.new_page()
    friend.set_default_timeout(10_000)
    friend.goto(invite)
    # The invitation itself, not a bare log-in form: whose game, which, how full.
    expect(friend.get_by_role("heading", level=1)).to_have_text("Operation Gold")
    expect(friend.locator("main")).to_contain_text("Invitation from Hostess")
    expect(friend.locator("main")).to_contain_text("1 player has joined so far")
    expect(friend.locator("main")).to_contain_text("6 to 10 players")
    friend.screenshot(path=str(shots / "invite-logged-out-phone.png"), full_page=True)

    friend.locator("main").get_by_role("link", name="Sign up").click()
    friend.get_by_label("Username").fill("newcomer")
    friend.get_by_label("Display name").fill("New Comer")
    friend.get_by_label("Password", exact=True).fill("0123456789")
    friend.get_by_label("Password again").fill("0123456788")
    friend.get_by_role("button", name="File the application").click()
    # Refused, every problem at once, and the way back to the invitation kept.
    alert = friend.get_by_role("alert")
    expect(alert).to_contain_text("too easy to guess")
    expect(alert).to_contain_text("The two passwords differ.")
    friend.screenshot(path=str(shots / "signup-refused-phone.png"), full_page=True)
    friend.get_by_label("Password", exact=True).fill(PASSWORD)
    friend.get_by_label("Password again").fill(PASSWORD)
    friend.get_by_role("button", name="File the application").click()

    friend.wait_for_url(invite)
    friend.screenshot(path=str(shots / "invite-after-signup-phone.png"), full_page=True)
    friend.get_by_role("button", name="Join the game").click()
    friend.wait_for_url(f"{live_server}{lobby_path}")
    expect(friend.locator("main")).to_contain_text("New Comer")
    friend.screenshot(path=str(shots / "lobby-joined-phone.png"), full_page=True)
    context.close()
    page.context.close()


def test_an_invited_member_logs_in_from_the_invite_and_comes_back(
    live_server: str, browser: Any
) -> None:
    host = new_agent(browser, live_server, "hostel")
    member = new_agent(browser, live_server, "member")
    member.page.get_by_role("button", name="Log out").click()
    page = host.page
    page.goto(f"{live_server}/games/new")
    page.get_by_label("Title").fill("Operation Silver")
    page.get_by_label("Pouch time").fill("21:00")
    page.get_by_role("button", name="Open the lobby").click()
    page.wait_for_url("**/lobby")
    invite = page.get_by_role("textbox", name="Link").input_value()

    friend = member.page
    friend.goto(invite)
    friend.locator("main").get_by_role("link", name="Log in").click()
    friend.get_by_label("Username").fill("member")
    friend.get_by_label("Password").fill(PASSWORD)
    friend.get_by_role("button", name="Pass the gate").click()
    friend.wait_for_url(invite)
    expect(friend.get_by_role("button", name="Join the game")).to_be_visible()
    page.context.close()
    friend.context.close()


def test_a_cards_invite_shows_the_table_to_a_visitor_without_an_account(
    live_server: str, browser: Any
) -> None:
    host = new_agent(browser, live_server, "dealer")
    page = host.page
    page.goto(f"{live_server}/cards")
    page.locator("details.new-table > summary").click()
    page.locator("#f-seat1").select_option("friend")
    page.locator("form[action='/cards/tables'] button[type=submit]").click()
    invite = page.locator("input.invite-link").input_value()

    context = browser.new_context(viewport=PHONE)
    visitor = context.new_page()
    visitor.goto(invite)
    expect(visitor.locator("main")).to_contain_text("Dealer")
    expect(visitor.get_by_role("button", name="Take a seat")).to_be_visible()
    context.close()
    page.context.close()
