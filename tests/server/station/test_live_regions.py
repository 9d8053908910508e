"""The Floor's public regions (issue 15): a vote (S21) or a whisper's announcement (S31) reaches
every open page as the tally, the votes and the announcements rendered once for all readers, or
as a badge on another tab; the page with those pushes applied equals a fresh render for every
seat, the host and a spectator; the voter's own Floor (its ballot) and a whisper's parties'
Dossier are re-rendered for them alone; what a region holds is the same for every viewer.
SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.views import view
from deaddrop.server.live import journal
from deaddrop.server.live.fanout import Batch
from deaddrop.server.station.game.access import GameContext, access_game_for_spectator
from deaddrop.server.station.live import regions
from deaddrop.server.station.live import routes as station_live
from deaddrop.server.station.live.regions import region_part
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.tabs.floor_regions import REGIONS, floor_regions
from deaddrop.server.station.tabs.seen import listener_of
from tests.server.station.live_applied import applied
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    Moment,
    RunDB,
    Table,
    random_moments,
    render,
    scripted_moments,
    set_spectators,
    six_players,
    started_table,
)
from tests.server.station.test_live_fragments import after_of
from tests.server.station.test_live_stream import context_of, live, pushed_events
from tests.server.visitor import Visitor

Server = TestClient[Litestar]
SPECTATOR = None
"""A reader without a seat, behind the host's spectator link."""
Reader = int | None
Act = tuple[int, str, dict[str, str]]
"""(seat, API path after /api/games/{id}/, fields)."""


def token_of(player: Visitor, table: Table) -> str:
    """The player's CSRF token, read once before the pages under test open: acting through
    the API then looks at no tab (a look would move the badges of the open pages)."""
    page = player.get(f"/games/{table.game_id}/roster").text
    return page.split('name="_csrf_token" value="')[1].split('"')[0]


def act(table: Table, tokens: dict[int, str], done: Act) -> None:
    """A seat saves through the JSON API, as the page's script does."""
    seat, tail, fields = done
    answer = table.players[seat].http.post(
        f"/api/games/{table.game_id}/{tail}", json=fields, headers={"x-csrftoken": tokens[seat]}
    )
    assert answer.status_code == 200, (done, answer.text)


def vote(table: Table, seat: int, choice: int | None) -> Act:
    """Seat `seat` votes for seat `choice` (None: Abstain)."""
    return seat, "vote", {"vote": "abstain" if choice is None else table.codenames[choice]}


def whisper(table: Table, seat: int, to: int, text: str) -> Act:
    """Seat `seat` whispers `text` to seat `to`."""
    return seat, "whisper", {"recipient": table.codenames[to], "text": text}


def spectator_context(run_db: RunDB, token: str) -> GameContext:
    """The game as a spectator behind the link reaches it."""

    async def fetch(db: AsyncSession) -> GameContext:
        return await access_game_for_spectator(db, token)

    found: GameContext = run_db(fetch)
    return found


class Readers:
    """Every seat's and a spectator's pages of one game, with their contexts and URLs."""

    def __init__(self, run_db: RunDB, table: Table, spectator: Visitor) -> None:
        self.table, self.spectator = table, spectator
        self.token = set_spectators(run_db, table, True)
        assert self.token is not None
        self.contexts: dict[Reader, GameContext] = {
            seat: context_of(run_db, table, seat) for seat in range(6)
        }
        self.contexts[SPECTATOR] = spectator_context(run_db, self.token)

    def get(self, reader: Reader, tab: str) -> str:
        """The reader's tab, loaded afresh."""
        if reader is None:
            return self.spectator.get(f"/watch/{self.token}/{tab}").text
        return self.table.players[reader].get(f"/games/{self.table.game_id}/{tab}").text

    def check(
        self, server: Server, reader: Reader, tab: str, old: str, after: int | None = None
    ) -> tuple[str, list[tuple[int, str, str]]]:
        """The page `old` with what was pushed to it since its cursor `after` (by default the
        one it was loaded at) applied, checked against a fresh render; the page and the
        pushes."""
        since = after_of(old) if after is None else after
        pushes = pushed_events(server, self.contexts[reader], tab, since)
        now = applied(old, pushes)
        assert live(now) == live(self.get(reader, tab)), (reader, tab, pushes)
        return now, pushes


def events(pushes: list[tuple[int, str, str]]) -> list[str]:
    """The pushes' event names."""
    return [event for _, event, _ in pushes]


def test_each_vote_and_whisper_reaches_every_open_floor_as_its_regions(
    server: Server, run_db: RunDB, table: Table, client: Visitor
) -> None:
    """Every seat (the host's too) and a spectator keep the Floor open and never reload it:
    after each vote, vote change, Abstain and whisper, the page with its pushes applied is a
    fresh render; a bystander gets the regions alone, the same text for every reader, and the
    voter's own Floor is re-rendered for them (their ballot is theirs alone)."""
    tokens = {seat: token_of(table.players[seat], table) for seat in range(6)}
    readers = Readers(run_db, table, client)
    pages = {reader: readers.get(reader, "floor") for reader in readers.contexts}
    cursors = {reader: after_of(page) for reader, page in pages.items()}
    acts: list[tuple[Act, tuple[str, ...]]] = [
        (vote(table, 1, 2), ("tally", "votes")),
        (vote(table, 1, 4), ("tally", "votes")),  # changed: only the last one counts
        (vote(table, 3, None), ("tally", "votes")),
        (whisper(table, 2, 4, "REGIONWHISPERTEXT"), ("announced",)),
    ]
    for done, names in acts:
        act(table, tokens, done)
        shared: dict[str, set[str]] = {}
        for reader, old in pages.items():
            pages[reader], pushes = readers.check(server, reader, "floor", old, cursors[reader])
            cursors[reader] = pushes[-1][0] if pushes else cursors[reader]
            assert all("REGIONWHISPERTEXT" not in data for _, _, data in pushes), reader
            if done[1] == "vote" and reader == done[0]:
                assert "page" in events(pushes), (done, reader)  # the voter's own ballot
                continue
            assert "page" not in events(pushes), (done, reader, pushes)
            found = [json.loads(data) for _, event, data in pushes if event == "region"]
            assert tuple(region["name"] for region in found) == names, (done, reader)
            for region in found:
                shared.setdefault(region["name"], set()).add(region["html"])
        assert all(len(htmls) == 1 for htmls in shared.values()), shared  # one for all


def test_votes_and_whispers_reach_the_other_tabs_as_badges(
    server: Server, run_db: RunDB, table: Table, client: Visitor
) -> None:
    """The other tabs of every seat and a spectator, open while votes, a vote change, a
    withdrawal and two whispers come all at once: a Floor badge for each vote and
    announcement that is not the reader's own, a Dossier badge for a whisper received, the
    whispers' parties' Dossier re-rendered; nothing else changes, and each page with its
    pushes applied is a fresh render (the Dossier last: a look at it clears its badge)."""
    tokens = {seat: token_of(table.players[seat], table) for seat in range(6)}
    readers = Readers(run_db, table, client)
    tabs: dict[Reader, tuple[str, ...]] = {
        seat: ("cable", "operations", "roster", "dossier") for seat in range(6)
    }
    tabs[SPECTATOR] = ("cable", "roster")
    pages = {(reader, tab): readers.get(reader, tab) for reader in tabs for tab in tabs[reader]}
    for done in (
        vote(table, 1, 2),
        vote(table, 3, 2),
        vote(table, 1, 4),
        vote(table, 4, None),
        (3, "vote/withdraw", {}),
        whisper(table, 2, 4, "BADGEWHISPER1"),
        whisper(table, 5, 0, "BADGEWHISPER2"),
    ):
        act(table, tokens, done)
    parties = {2, 4, 5, 0}
    for (reader, tab), old in pages.items():
        _page, pushes = readers.check(server, reader, tab, old)
        rerendered = tab == "dossier" and reader in parties
        assert ("page" in events(pushes)) == rerendered, (reader, tab, pushes)
        if rerendered:
            continue
        badges = [json.loads(data) for _, event, data in pushes if event == "badge"]
        if reader is None:
            assert badges == [], tab  # a spectator has no badges
        elif tab != "dossier":
            own = {1: 2, 3: 2, 4: 1, 2: 1, 5: 1, 0: 0}[reader]  # their votes, their whisper
            assert {"tab": "floor", "add": 7 - own} in badges, (reader, tab, badges)


def test_the_regions_are_rendered_once_for_every_open_floor(
    server: Server, run_db: RunDB, table: Table, client: Visitor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seven open Floors given one batch with a vote: the game's public side is read once and
    each region rendered once, whoever reads it."""
    tokens = {seat: token_of(table.players[seat], table) for seat in range(6)}
    readers = Readers(run_db, table, client)
    calls: dict[str, int] = {"read": 0, "render": 0}
    counted = {"public_floor": "read", "_rendered": "render"}
    for name, kind in counted.items():
        monkeypatch.setattr(regions, name, _counting(getattr(regions, name), calls, kind))
    before = _newest(server, table)
    act(table, tokens, vote(table, 1, 2))
    request = SimpleNamespace(app=server.app, scope={"state": {}})

    async def render_all() -> list[list[str]]:
        async with server.app.state.sessionmaker() as db:
            rows = await journal.read_after(db, stream_of(table.game_id), before)
        batch = Batch(rows)
        out = []
        for reader, context in readers.contexts.items():
            if reader == 1:
                continue  # the voter: re-rendered, as the other test checks
            render = station_live.page_renderer(request, context, "floor", "/")  # type: ignore[arg-type]
            visible = [row for row in rows if journal.visible_to(row, listener_of(context))]
            made = await render(batch, visible)
            assert made is not None
            out.append([str(message.event) for message in made])
        return out

    made = server.blocking_portal.call(render_all)
    assert made == [["region", "region"]] * 6
    assert calls == {"read": 1, "render": 2}


def _counting(
    original: Callable[..., object], calls: dict[str, int], kind: str
) -> Callable[..., object]:
    async def counted(*args: object) -> object:
        calls[kind] += 1
        return await original(*args)  # type: ignore[misc]

    return counted


def _newest(server: Server, table: Table) -> int:
    async def read() -> int:
        async with server.app.state.sessionmaker() as db:
            return await journal.last_seq(db, stream_of(table.game_id))

    found: int = server.blocking_portal.call(read)
    return found


def _moments() -> list[Moment]:
    """Scripted moments and random games of 6, 8 and 10 before their end (the regions leave
    the Floor when the Tribunal rises)."""
    found = list(scripted_moments())
    for players, seed in ((6, 11), (8, 12), (10, 13)):
        found.extend(random_moments(players, seed))
    return [moment for moment in found if not moment.state.over]


MOMENTS = _moments()


@pytest.mark.parametrize("moment", MOMENTS, ids=[moment.name for moment in MOMENTS])
def test_a_region_is_the_same_for_every_reader(moment: Moment) -> None:
    """What a region holds comes from fields every viewer's view holds alike (S21, S31), and
    every seat's Floor shows each region exactly as the spectator's does: nothing of a seat's
    own (its ballot, its whispers' text) is in a region, so one rendering serves them all."""
    state = moment.state
    public = floor_regions(view(state, None))
    spectator = render("floor", state, None)
    for seat in range(len(state.seats)):
        assert floor_regions(view(state, seat)) == public, seat
        page = render("floor", state, seat)
        for name in REGIONS:
            assert region_part(page, name) == region_part(spectator, name), (seat, name)
