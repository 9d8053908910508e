"""Cards in a real browser: a solo game against a bot to a winner, and two people on two
browser contexts, each page kept current over Server-Sent Events; phone and desktop shots."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import DESKTOP, PHONE, need_browser, running_server, screenshot_dir

TIMEOUT = 20_000
"""Milliseconds to wait for the table to change (bots think for a tenth of a second here)."""


@pytest.fixture(scope="module")
def cards_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server whose bots move quickly but through the runner, as in production."""
    need_browser()
    var_dir: Path = tmp_path_factory.mktemp("e2e-cards")
    with running_server(var_dir, {"DEADDROP_CARDS_BOT_DELAY": "0.1"}) as base:
        yield base


def take_turn(page: Any) -> bool:
    """Answer the table's prompt as a bold player would; False once the game has a winner.

    Grabbing at the first chance ends the round at once: a match wins it, a miss puts this
    seat out and the other agent stands last (C8, C9), so a one-token game ends quickly.
    """
    page.wait_for_selector(".prompt, .winner", timeout=TIMEOUT)
    if page.locator(".winner").count():
        return False
    version = page.locator(".cards-body").get_attribute("data-version")
    prompt = page.locator(".prompt")
    kind = prompt.get_attribute("data-prompt")
    if kind == "action":
        prompt.get_by_role("button", name="Swap").click()
    elif kind == "grab":
        prompt.get_by_label("I am sure").check()
        prompt.get_by_role("button", name="Grab The Drop").click()
    else:  # give a card (C4) or hand one back (C7): the first offered
        prompt.get_by_role("button").first.click()
    page.wait_for_function(
        "v => !document.querySelector('.cards-body') ||"
        " document.querySelector('.cards-body').dataset.version !== v",
        arg=version,
        timeout=TIMEOUT,
    )
    return True


def play_until_won(*pages: Any, limit: int = 60) -> None:
    """Whoever's page shows a prompt answers it, until every page shows the winner."""
    for _ in range(limit):
        if all(page.locator(".winner").count() for page in pages):
            return
        for page in pages:
            if page.locator(".prompt").count() and not page.locator(".winner").count():
                take_turn(page)
                break
        else:
            pages[0].wait_for_selector(".prompt, .winner", timeout=TIMEOUT)
            for page in pages:
                page.wait_for_timeout(100)
    raise AssertionError("the game did not reach a winner")


def test_solo_game_against_a_bot_to_a_winner(cards_server: str, browser: Any) -> None:
    shots = screenshot_dir("cards-solo")
    for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        page.goto(f"{cards_server}/cards")
        page.screenshot(path=str(shots / f"lobby-{size_name}.png"), full_page=True)
        page.get_by_text("Choose the bots").click()
        page.get_by_label("How many bots you play against").select_option("1")
        page.get_by_label("Which kind").select_option("random")
        page.get_by_label("Tokens to win", exact=True).select_option("1")
        page.get_by_role("button", name="Play solo against bots").click()
        page.wait_for_url("**/cards/t/**")
        page.wait_for_selector(".prompt, .winner", timeout=TIMEOUT)
        page.screenshot(path=str(shots / f"table-{size_name}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"]
        play_until_won(page)
        assert "the game" in page.locator(".winner").inner_text().lower()
        page.screenshot(path=str(shots / f"winner-{size_name}.png"), full_page=True)
        # The finished game: its record downloads and it replays turn by turn.
        with page.expect_download() as download:
            page.get_by_role("link", name="Download the game record").click()
        assert download.value.suggested_filename.endswith(".json")
        page.get_by_role("link", name="Replay it turn by turn").click()
        page.get_by_role("link", name="Next").click()
        assert "Replay: move 1 of" in page.content()
        page.screenshot(path=str(shots / f"replay-{size_name}.png"), full_page=True)
        context.close()


def test_two_people_play_on_two_browsers(cards_server: str, browser: Any) -> None:
    shots = screenshot_dir("cards-friends")
    host = browser.new_context(viewport=DESKTOP)
    guest = browser.new_context(viewport=PHONE)
    first, second = host.new_page(), guest.new_page()
    first.goto(f"{cards_server}/cards")
    first.get_by_text("Open a table for friends or bots").click()
    first.get_by_label("Seats", exact=True).select_option("2")
    first.get_by_label("Seat 2 (used when the table has that many seats)").select_option("friend")
    first.get_by_label("Tokens to win the game").fill("1")
    first.get_by_role("button", name="Open the table").click()
    first.wait_for_url("**/cards/t/**")
    invite = first.get_by_label("Invite link").input_value()
    assert "Waiting for players" in first.content()
    second.goto(invite)
    second.get_by_role("button", name="Take a seat").click()
    second.wait_for_url("**/cards/t/**")
    # The host's page deals itself over the live stream, without a reload.
    first.wait_for_selector(".turn-banner", timeout=TIMEOUT)
    first.screenshot(path=str(shots / "host-desktop.png"), full_page=True)
    second.screenshot(path=str(shots / "friend-phone.png"), full_page=True)
    play_until_won(first, second)
    assert first.locator(".winner").count() and second.locator(".winner").count()
    second.screenshot(path=str(shots / "winner-phone.png"), full_page=True)
    host.close()
    guest.close()


# Whether an element's text fits its box: the widest option of a select measured in its own font.
_TEXT_FITS = """el => {
  const style = getComputedStyle(el);
  const context = document.createElement("canvas").getContext("2d");
  context.font = style.font;
  const text = el.tagName === "SELECT" ? el.options[el.selectedIndex].text : el.textContent;
  const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  // A select keeps about 1.5em on its right for the arrow.
  const arrow = el.tagName === "SELECT" ? 1.5 * parseFloat(style.fontSize) : 0;
  return {text: text.trim(), width: context.measureText(text.trim()).width, room: room - arrow,
          scroll: el.scrollWidth, client: el.clientWidth};
}"""

# The room the list's numbers have: the largest one (a reversed list counts down from it) with
# the ". " after it, in the item's font, against the list's left padding, which its scrolling
# clips everything outside of.
_MARKER_ROOM = """ol => {
  const items = ol.querySelectorAll(":scope > li");
  const context = document.createElement("canvas").getContext("2d");
  context.font = getComputedStyle(items[0]).font;
  return {count: items.length, marker: context.measureText(items.length + ". ").width,
          padding: parseFloat(getComputedStyle(ol).paddingLeft)};
}"""


def test_the_lobby_form_fits_phone_and_desktop(cards_server: str, browser: Any) -> None:
    shots = screenshot_dir("cards-lobby")
    for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        page.goto(f"{cards_server}/cards")
        page.get_by_text("Choose the bots").click()
        page.get_by_text("Open a table for friends or bots").click()
        page.screenshot(path=str(shots / f"lobby-open-{size_name}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        for name in ("Grab face down", "List the table publicly"):
            box = page.get_by_label(name).bounding_box()
            assert box is not None
            assert box["width"] <= 32 and box["height"] <= 32, (name, size_name, box)
            label = page.locator("label", has_text=name)
            fits = label.evaluate(_TEXT_FITS)
            assert fits["scroll"] <= fits["client"], fits
            label_box = label.bounding_box()
            assert label_box is not None and label_box["x"] + label_box["width"] <= size["width"]
        timer = page.get_by_label("Turn timer")
        for option in timer.locator("option").all_inner_texts():
            timer.select_option(label=option)
            fits = timer.evaluate(_TEXT_FITS)
            assert fits["width"] <= fits["room"], (size_name, fits)
        # The solo button comes after the choices it plays with.
        choices = page.locator(".solo-form details").bounding_box()
        button = page.get_by_role("button", name="Play solo against bots").bounding_box()
        assert choices is not None and button is not None
        assert button["y"] >= choices["y"] + choices["height"]
        assert page.get_by_label("How many bots you play against").is_visible()
        context.close()


def test_the_log_numbers_are_not_clipped(cards_server: str, browser: Any) -> None:
    shots = screenshot_dir("cards-log")
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{cards_server}/cards")
    page.get_by_text("Choose the bots").click()
    page.get_by_label("How many bots you play against").select_option("1")
    page.get_by_label("Which kind of bot").select_option("random")
    # Two tokens: at least two rounds, each a deal, a hand, an action, a grab and its end.
    page.get_by_label("Tokens to win", exact=True).select_option("2")
    page.get_by_role("button", name="Play solo against bots").click()
    page.wait_for_url("**/cards/t/**")
    play_until_won(page)
    log = page.locator(".log .log-lines")
    log.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "log-phone.png"), full_page=True)
    room = log.evaluate(_MARKER_ROOM)
    assert room["count"] >= 10 and room["marker"] <= room["padding"], room
    page.get_by_role("link", name="Replay it turn by turn").click()
    page.get_by_role("link", name="Last").click()
    replayed = page.locator(".log-lines").evaluate(_MARKER_ROOM)
    assert replayed["count"] >= 10 and replayed["marker"] <= replayed["padding"], replayed
    page.screenshot(path=str(shots / "replay-log-phone.png"), full_page=True)
    context.close()
