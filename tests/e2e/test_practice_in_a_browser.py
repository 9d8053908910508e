"""A guest practises a whole game of Station with bots on a phone, from the home page to the
final Cable (issue 14), on the quick clock: the Pouch leaves when the guest marks done.

A real `deaddrop serve` plays the bots (its bot runner, woken when a day opens) and resolves
the Pouches (its Pouch runner, woken by the last done mark, S41). The guest plays every day
through the pages; once burned, they press Jump to the end. A handful of small pictures go to
`var/screenshots/practice/` (the README's "Practice Station with bots" shows copies of them
from `docs/screenshots/`: a test run leaves the checkout clean).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.harness import PHONE, screenshot_dir, server_log_tail

DAY_SECONDS = 60.0
"""The longest one day may take here: the bots' decisions and the Pouch (seconds, normally)."""
HEAD = ".game-head .cable-head"
CLICK_MS = 3_000
"""How long a button may take to be there and still (the live part redraws the page)."""
_DONE = re.compile(r"/games/[^/]+/done$")
"""The address the Operations tab's form posts the done mark to."""
JUMP_MS = 120_000
"""The longest Jump to the end may take: up to nine days of bots on a busy machine."""
_JUMP = re.compile(r"/games/[^/]+/practice/jump$")
"""The address the banner's Jump to the end posts to."""
SENT_MS = 5_000
"""How long a clicked Jump to the end may take to send its post: a click that lands as the
live part redraws the banner sends none, and waiting for its answer would wait for nothing."""


def _head(page: Any) -> str:
    return (page.locator(HEAD).text_content() or "").strip()


def _next_day(page: Any, game_url: str, before: str) -> str:
    """Reload the Operations tab until the letterhead changes (a Pouch left); the new one."""
    give_up = time.monotonic() + DAY_SECONDS
    while time.monotonic() < give_up:
        page.goto(f"{game_url}/operations")
        head = _head(page)
        if head != before:
            return head
        time.sleep(0.2)
    late = f"no Pouch left within {DAY_SECONDS} s: still {before!r}"
    raise AssertionError(f"{late}\n{server_log_tail(game_url)}")


def _jump_or_watch(page: Any, game_url: str) -> tuple[str, bool]:
    """Burned: press Jump to the end, unless the bots, done at once each day, finish first
    (the page's live part is redrawn at each of their Pouches); the final letterhead, and
    whether the jump was pressed."""
    give_up = time.monotonic() + JUMP_MS / 1000
    while time.monotonic() < give_up:
        page.goto(f"{game_url}/cable")
        head = _head(page)
        if "Game over" in head:
            return head, False
        jump = page.get_by_role("button", name="Jump to the end")
        try:
            # The answer comes once the bots' remaining days are played, at once.
            with (
                page.expect_navigation(timeout=JUMP_MS),
                page.expect_request(_is_jump, timeout=SENT_MS),
            ):
                jump.click(timeout=CLICK_MS, no_wait_after=True)
        except PlaywrightTimeout:
            continue  # redrawn under the click (no post left), or over meanwhile: look again
        return _head(page), True
    late = "the game did not end after the guest was burned"
    raise AssertionError(f"{late}\n{server_log_tail(game_url)}")


def _is_jump(request: Any) -> bool:
    """Whether `request` is Jump to the end's post."""
    return request.method == "POST" and _JUMP.search(request.url) is not None


def _mark_done(page: Any, game_url: str) -> None:
    """Press "I am done for today" and wait for the post's answer (the redirect back)."""
    try:
        with page.expect_response(_DONE) as marked:
            page.get_by_role("button", name="I am done for today").click()
    except PlaywrightTimeout as timeout:
        raise AssertionError(f"{timeout}\n{server_log_tail(game_url)}") from timeout
    assert marked.value.status == 303, marked.value.status


def _shoot(page: Any, folder: Path, name: str) -> None:
    """A small picture of the phone's screen (not the whole page)."""
    page.screenshot(path=str(folder / f"practice-{name}-phone.png"))


def test_a_guest_practises_a_whole_game_on_a_phone(live_server: str, browser: Any) -> None:
    started = time.monotonic()
    pictures = screenshot_dir("practice")
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server}/")
    practice = page.locator("form.practice-form")
    practice.scroll_into_view_if_needed()
    _shoot(page, pictures, "home")
    page.goto(f"{live_server}/practice")
    form = page.locator("form.practice-form")
    form.get_by_label("Players").select_option("6")
    form.get_by_label("Bots' level").select_option("heuristic")
    form.get_by_label("Day length").select_option("none")
    _shoot(page, pictures, "form")
    form.get_by_role("button", name="Practice Station with bots").click()
    page.wait_for_url("**/cable")
    game_url = page.url.removesuffix("/cable")
    assert "practice" in page.locator(".practice-banner").inner_text().lower()
    page.goto(f"{game_url}/dossier")
    assert page.locator("#role-title").inner_text().strip()  # a role, dealt like any game

    head, days, jumped, burned = _head(page), 0, False, False
    while "Game over" not in head:
        page.goto(f"{game_url}/operations")
        if "(burned)" in head:
            burned = True
            head, jumped = _jump_or_watch(page, game_url)
            break
        if days < 2:  # Day 1's pictures, then Day 2's over them (the bots' claims by then)
            _shoot(page, pictures, "operations")
            page.goto(f"{game_url}/floor")
            _shoot(page, pictures, "floor")
            page.goto(f"{game_url}/operations")
        # The mark is a form post: wait for its answer (the redirect back) before reloading,
        # or the reload may cancel it before it leaves and the Pouch wait for a mark never sent.
        _mark_done(page, game_url)
        head = _next_day(page, game_url, head)
        days += 1
    assert "Game over" in head, head
    page.goto(f"{game_url}/roster")
    assert page.locator(".revealed").count() == 6  # S26: every role, the bots' included
    page.goto(f"{game_url}/cable")
    assert "The game is over." in page.locator(".game-status").inner_text()
    _shoot(page, pictures, "end")
    elapsed = time.monotonic() - started
    how = "burned, then jumped" if jumped else "burned, the bots finished" if burned else "alive"
    print(f"practice game: {days} days played by the guest, {how}, in {elapsed:.1f} s")
    assert elapsed < 300  # a whole practice game takes minutes at most
    context.close()
