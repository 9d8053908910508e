"""The Floor's markup puts the conversation first (issue 11): on a phone it is what people
open the tab for; the Tribunal's tally, ballot and vote table follow."""

from __future__ import annotations

from deaddrop.engine.station import setup_from_deal, start
from tests.server.station.tabs_fixtures import SIX, render


def test_the_floor_chat_comes_before_the_tribunal() -> None:
    state = start(setup_from_deal(SIX, seed=7))
    for seat in (0, None):  # a player and a spectator
        page = render("floor", state, seat)
        assert page.index('class="floor-chat"') < page.index('class="floor-tribunal"')
