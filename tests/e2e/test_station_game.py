"""Station in a real browser: six people sign up, open and join a game, and play it to a win.

A real `deaddrop serve` reads Station time through the test-only offset clock
(`DEADDROP_TEST_CLOCK_FILE`): the test moves the clock past each day's Pouch and the server's
own runner resolves it. Every player acts through the pages (forms, labels, buttons) and learns
roles only from their own Dossier. Pictures of every tab at phone and desktop size go to
`var/screenshots/station/`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from deaddrop.server.testing.clocks import CLOCK_FILE_VARIABLE
from tests.e2e.harness import need_browser, running_server, screenshot_dir
from tests.e2e.station_helpers import Agent, TestClock, new_agent, wait_for_pouch

DAY_MINUTES = 5
"""The quickest day the create-game form offers."""
SLACK_SECONDS = 5
"""How far past a deadline each jump of the clock lands."""
NAMES = ("hostess", "bruno", "clara", "dieter", "elke", "franz")


@pytest.fixture(scope="module")
def station_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, TestClock]]:
    """A real server whose Station clock the test moves through a file."""
    need_browser()
    var_dir: Path = tmp_path_factory.mktemp("e2e-station")
    clock = TestClock(var_dir / "clock-offset")
    with running_server(var_dir, {CLOCK_FILE_VARIABLE: str(clock.path)}) as base:
        yield base, clock


def open_game(host: Agent, others: list[Agent]) -> str:
    """The host opens a quick game, the others join by the invite link, the host starts it."""
    page = host.page
    page.goto(f"{host.base}/games/new")
    # The page also offers a practice game, with a day length of its own: fill in the new game's.
    form = page.get_by_role("region", name="New game of Station")
    form.get_by_label("Title").fill("Checkpoint Charlie")
    form.get_by_label("Pouch time").fill("21:00")
    form.get_by_label("Day length").select_option(str(DAY_MINUTES))
    form.get_by_role("button", name="Open the lobby").click()
    page.wait_for_url("**/lobby")
    lobby_url = page.url
    invite = page.get_by_role("textbox", name="Link").input_value()
    for agent in others:
        agent.page.goto(invite)
        agent.page.get_by_role("button", name="Join the game").click()
        agent.page.wait_for_url("**/lobby")
    page.goto(lobby_url)
    page.get_by_role("button", name="Start with 6 players").click()
    page.wait_for_url("**/cable")
    game_url: str = page.url.removesuffix("/cable")
    for agent in (host, *others):
        agent.game_url = game_url
    return game_url


def by_role(agents: list[Agent], role: str) -> list[Agent]:
    """The players whose Dossier names `role`."""
    return [agent for agent in agents if agent.role == role]


def end_day(clock: TestClock, day: int, watcher: Agent, header: str) -> None:
    """Move the clock just past the Pouch of `day` and wait until the runner has resolved it."""
    clock.jump_to(day * DAY_MINUTES * 60 + SLACK_SECONDS)
    wait_for_pouch(watcher, header)


def test_six_people_play_station_to_a_win(
    station_server: tuple[str, TestClock], browser: Any
) -> None:
    base, clock = station_server
    shots = screenshot_dir("station")
    agents = [new_agent(browser, base, name) for name in NAMES]
    host, others = agents[0], agents[1:]
    game_url = open_game(host, others)
    host.page.screenshot(path=str(shots / "day1-start-cable-phone.png"), full_page=True)

    # Everyone reads their own Dossier: one role each; only the Ring sees the Ring.
    for agent in agents:
        agent.read_dossier()
    codenames = {agent.codename for agent in agents}
    assert len(codenames) == 6
    (ringleader,) = by_role(agents, "Ringleader")
    (forger,) = by_role(agents, "Forger")
    (analyst,) = by_role(agents, "Analyst")
    (keeper,) = by_role(agents, "Safehouse Keeper")
    agent_a, agent_b = by_role(agents, "Field Agent")
    ring = {ringleader.codename, forger.codename}
    assert set(ringleader.ring) == ring and set(forger.ring) == ring
    for agent in (analyst, keeper, agent_a, agent_b):
        assert agent.ring == []
        dossier = agent.tab("dossier").content()
        # A Station officer's page names no Ring role: not even the word "Ringleader" in a table.
        assert "Members of the Ring" not in dossier

    # Day 1: Final Cables, Operations, and a Tribunal that abstains (no recall).
    for agent in agents:
        agent.write_final_cable(f"{agent.codename} to the Station: trust the Tribunal.")
    analyst.operate(ringleader.codename)
    keeper.operate(analyst.codename)
    agent_a.operate(ringleader.codename)
    forger.operate(agent_b.codename)
    ops_page = ringleader.tab("operations").content()
    assert "cannot liquidate anyone on Day 1" in ops_page
    for agent in agents:
        agent.vote("Abstain")
    end_day(clock, 1, host, "Day 2")

    # Day 2: the Ringleader files the order; the Station recalls the Ringleader.
    ringleader.order(agent_a.codename, forger.codename)
    keeper.operate(analyst.codename)
    analyst.operate(forger.codename)
    for agent in (analyst, keeper, agent_a, agent_b):
        agent.vote(ringleader.codename)
    forger.vote("Abstain")
    ringleader.vote("Abstain")
    ringleader.shoot_tabs(shots, "day2")  # the Ring's view: its roster, its order, the tally
    end_day(clock, 2, host, "Day 3")
    cable = host.tab("cable").content()
    assert f'The Tribunal recalled <span class="codename">{ringleader.codename}</span>' in cable
    assert f"{agent_a.codename}</span> was" in cable  # liquidated by the Forger
    assert f"{ringleader.codename} to the Station: trust the Tribunal." in cable
    roster = host.tab("roster").content()
    assert "burned" in roster.lower()

    # Day 3: the Forger inherits the order (S11) and files it; the Tribunal recalls the Forger.
    assert "You hold the Ring's order now" in forger.tab("operations").content()
    forger.order(keeper.codename, forger.codename)
    for agent in (analyst, keeper, agent_b):
        agent.vote(forger.codename)
    forger.vote(analyst.codename)
    end_day(clock, 3, host, "Game over")

    # The end: the verdict and the reveal of every role, for every seat, the dead included.
    for agent in agents:
        page = agent.tab("cable")
        reveal = page.locator("section.reveal")
        assert "Station" in (reveal.locator(".verdict").text_content() or "")
        table = reveal.locator("tbody").text_content() or ""
        for other in agents:
            assert other.codename in table
            assert other.role in table
    host.shoot_tabs(shots, "end")

    # Somebody who is not in the game gets a plain 404 on every tab.
    outsider = new_agent(browser, base, "outsider")
    for tab in ("cable", "floor", "dossier", "operations", "roster"):
        response = outsider.page.goto(f"{game_url}/{tab}")
        assert response is not None and response.status == 404
    for agent in (*agents, outsider):
        agent.page.context.close()
    assert len(list(shots.glob("*.png"))) >= 20
