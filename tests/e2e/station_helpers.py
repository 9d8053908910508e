"""What a Station player does in the browser, as a person would: labels, radios and buttons.

Each `Agent` is one browser context (one person, one phone). Nothing here reads the database:
roles and codenames come from each player's own Dossier, exactly as the players learn them.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from deaddrop.server.testing.clocks import write_offset
from tests.e2e.harness import DESKTOP, PHONE
from tests.e2e.test_accounts_in_a_browser import sign_up

TABS = ("cable", "floor", "dossier", "operations", "roster")
POUCH_WAIT_SECONDS = 20.0
"""How long the runner may take to resolve a Pouch after the clock jumped (it is woken)."""


@dataclass
class Agent:
    """One person at the table: their browser page and what their Dossier told them."""

    username: str
    page: Any
    base: str
    game_url: str = ""
    codename: str = ""
    role: str = ""
    ring: list[str] = field(default_factory=list)

    def tab(self, name: str) -> Any:
        """Open one of the five tabs; returns the page."""
        self.page.goto(f"{self.game_url}/{name}")
        return self.page

    def read_dossier(self) -> None:
        """Learn codename, role and (for the Ring) the other members from the Dossier."""
        page = self.tab("dossier")
        self.codename = (page.locator(".game-head .codename").text_content() or "").strip()
        self.role = (page.locator("#role-title").text_content() or "").strip()
        members = page.locator(".ring-roster tbody th").all_text_contents()
        self.ring = [re.sub(r"\s*\(you\)$", "", text.strip()) for text in members]

    def saved(self, message: str) -> None:
        """The page came back with the success notice `message`, not a refusal."""
        errors = self.page.locator(".flash-error")
        if errors.count():
            raise AssertionError(f"{self.codename}: refused: {errors.first.inner_text()}")
        expect(self.page.locator(".flash-success")).to_contain_text(message)

    def write_final_cable(self, text: str) -> None:
        """Save a Final Cable on the Dossier tab."""
        page = self.tab("dossier")
        page.get_by_label("Text of the Final Cable").fill(text)
        page.get_by_role("button", name="Save Final Cable").click()
        self.saved("Final Cable")

    def vote(self, choice: str) -> None:
        """Cast a vote on the Floor: a codename or "Abstain"."""
        page = self.tab("floor")
        ballot = page.locator(f"form[action='{self.action_path('vote')}']")
        ballot.get_by_role("radio", name=choice, exact=True).check()
        ballot.get_by_role("button", name="Cast vote").click()
        self.saved("Vote saved.")

    def operate(self, target: str) -> None:
        """Save the role's own Operation on `target` (Operations tab)."""
        page = self.tab("operations")
        form = page.locator(f"form[action='{self.action_path('operation')}']")
        form.get_by_role("radio", name=re.compile(rf"^{target}\b")).check()
        form.get_by_role("button", name="Save Operation").click()
        self.saved("Operation saved.")

    def order(self, target: str, performer: str) -> None:
        """File the Ring's order (S10): a target outside the Ring and a Ring performer."""
        page = self.tab("operations")
        form = page.locator("section.ring-order form")
        form.get_by_role("group", name="Target").get_by_role("radio", name=target).check()
        performers = form.get_by_role("group", name="Performer")
        performers.get_by_role("radio", name=re.compile(rf"^{performer}\b")).check()
        form.get_by_role("button", name="File the order").click()
        self.saved("Ring order filed.")

    def action_path(self, tail: str) -> str:
        """The path a tab's form posts to."""
        return f"{self.game_url.removeprefix(self.base)}/{tail}"

    def shoot_tabs(self, folder: Path, label: str) -> None:
        """A picture of every tab at phone and desktop size.

        The phone picture is the screen as a phone shows it, with the tab bar fixed at its
        bottom (a full-page capture would paint that bar halfway down the page); the desktop
        one is the whole page.
        """
        for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
            self.page.set_viewport_size(size)
            for name in TABS:
                page = self.tab(name)
                path = folder / f"{label}-{name}-{size_name}.png"
                page.screenshot(path=str(path), full_page=size is DESKTOP)
        self.page.set_viewport_size(PHONE)


def new_agent(browser: Any, base: str, username: str) -> Agent:
    """A person on a phone-sized browser context who has just signed up."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_up(page, base, username)
    page.wait_for_url(f"{base}/")
    return Agent(username, page, base)


class TestClock:
    """Moves the server's Station clock by writing the offset file it reads."""

    __test__ = False  # not a pytest class

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0.0
        write_offset(path, 0)

    def jump_to(self, seconds: float) -> None:
        """Set the server's time to the machine's time plus `seconds`."""
        self.offset = seconds
        write_offset(self.path, self.offset)


def wait_for_pouch(agent: Agent, header: str) -> None:
    """Reload the Cable until the letterhead reads `header` ("Day 3", "Game over")."""
    deadline = time.monotonic() + POUCH_WAIT_SECONDS
    while True:
        page = agent.tab("cable")
        if header in (page.locator(".game-head .cable-head").text_content() or ""):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the Pouch did not leave: still {page.title()!r}")
        time.sleep(0.25)
