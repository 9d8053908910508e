"""A person signs up, logs out and back in, at phone and desktop sizes, in a real browser."""

from __future__ import annotations

from typing import Any

from tests.e2e.harness import DESKTOP, PHONE, screenshot_dir


def sign_up(page: Any, base: str, username: str) -> None:
    """Fill the sign-up form as a person would."""
    page.goto(f"{base}/signup")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Display name").fill(username.title())
    page.get_by_label("Password", exact=True).fill("correct horse battery")
    page.get_by_label("Password again").fill("correct horse battery")
    page.get_by_role("button", name="File the application").click()


def test_sign_up_log_out_and_back_in(live_server: str, browser: Any) -> None:
    shots = screenshot_dir("accounts")
    for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        username = f"agent_{size_name}"
        page.goto(live_server)
        page.screenshot(path=str(shots / f"home-guest-{size_name}.png"), full_page=True)
        sign_up(page, live_server, username)
        page.wait_for_url(f"{live_server}/")
        assert "No games yet" in page.content()
        page.screenshot(path=str(shots / f"home-{size_name}.png"), full_page=True)
        page.get_by_role("button", name="Log out").click()
        page.goto(f"{live_server}/login")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill("wrong password!")
        page.get_by_role("button", name="Pass the gate").click()
        assert page.get_by_role("alert").count() >= 1
        page.get_by_label("Password").fill("correct horse battery")
        page.get_by_role("button", name="Pass the gate").click()
        page.wait_for_url(f"{live_server}/")
        assert username.title() in page.content()
        context.close()


def test_how_to_play_reads_well_on_a_phone(live_server: str, browser: Any) -> None:
    shots = screenshot_dir("how-to-play")
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/how-to-play")
    assert page.get_by_role("heading", level=1).count() == 1
    # Nothing is wider than the phone: no sideways scrolling.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    page.screenshot(path=str(shots / "how-to-play-phone.png"), full_page=True)
    context.close()
