"""The tab bar's "new since I last looked" badges (issue 5): counted from the events a player
may see, cleared by looking, never for one's own doings, never a hint of a secret; SQLite and
PostgreSQL."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.roles import is_ring
from deaddrop.server.live.journal import last_seq
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.live import looks as looks_module
from deaddrop.server.station.live.routes import live_part
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.tabs import seen as seen_module
from deaddrop.server.station.tabs.badges import (
    KINDS_SHOWN_ON,
    Reader,
    badge_text,
    count_new,
    tabs_showing,
)
from deaddrop.server.station.tabs.context import TABS
from deaddrop.server.station.tabs.memos import PAGE_MEMOS_KEY, PageMemos
from deaddrop.server.station.tabs.seen import WINDOW, seen_of, tab_badges
from tests.server.station.live_applied import applied
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    set_spectators,
    six_players,
    started_table,
)
from tests.server.station.test_chat_routes import api_post, ring_and_station
from tests.server.station.test_live_stream import (
    Server,
    context_of,
    pushed,
    pushed_events,
    whisper,
)
from tests.server.visitor import Visitor

BADGE = re.compile(
    r'href="[^"]*/(\w+)"[^>]*>\w+ <span class="tab-badge">'
    r'<span class="visually-hidden">\(</span>([0-9+]+)<span class="visually-hidden"> new\)'
)


def badges(player: Visitor, table: Table, tab: str = "cable") -> dict[str, str]:
    """The badges on a tab page's tab bar: {tab: text}."""
    page = player.get(f"/games/{table.game_id}/{tab}").text
    return dict(BADGE.findall(page))


def vote(player: Visitor, table: Table, target: int) -> None:
    """Vote through the JSON API."""
    page = player.get(f"/games/{table.game_id}/floor").text
    token = page.split('name="_csrf_token" value="')[1].split('"')[0]
    answer = player.http.post(
        f"/api/games/{table.game_id}/vote",
        json={"vote": table.codenames[target]},
        headers={"x-csrftoken": token},
    )
    assert answer.status_code == 200, answer.text


def test_a_floor_post_is_new_to_everyone_but_its_writer_until_they_look(table: Table) -> None:
    for player in table.players:
        assert badges(player, table) == {}
    assert api_post(table.players[1], table, "floor", "BADGE1").status_code == 200
    assert api_post(table.players[2], table, "floor", "BADGE2").status_code == 200
    assert badges(table.players[1], table) == {"floor": "1"}  # only carol's is new to bob
    assert badges(table.players[3], table) == {"floor": "2"}
    table.players[3].get(f"/games/{table.game_id}/floor")  # dave looks
    assert badges(table.players[3], table) == {}
    assert badges(table.players[4], table) == {"floor": "2"}  # erin has not


def test_the_tab_being_read_shows_no_badge(table: Table) -> None:
    api_post(table.players[1], table, "floor", "BADGE3")
    page = table.players[0].get(f"/games/{table.game_id}/floor").text
    assert 'class="tab-badge"' not in page


def test_whispers_and_ring_talk_badge_only_their_readers(table: Table) -> None:
    """S29, S31: a badge is itself a hint, so only a reader of the channel gets one."""
    ring, station = ring_and_station(table)
    others = [s for s in range(6) if s not in (ring, station)]
    assert api_post(table.players[ring], table, "ring", "BADGERING").status_code == 200
    whisper(table.players[station], table, others[0], "BADGEWHISPER")
    for seat, player in enumerate(table.players):
        seen = badges(player, table)
        dossier = ("ring" if is_ring(table.roles[seat]) and seat != ring else "") + (
            "whisper" if seat == others[0] else ""
        )
        expected_dossier = {"ring": "1", "whisper": "1", "ringwhisper": "2"}.get(dossier)
        assert seen.get("dossier") == expected_dossier, (seat, seen)
        # Everyone but the sender learns of the whisper on the Floor (S31).
        assert seen.get("floor") == (None if seat == station else "1"), (seat, seen)


def test_votes_badge_the_floor_and_a_spectator_gets_no_badges(
    table: Table, run_db: RunDB, client: Visitor
) -> None:
    vote(table.players[1], table, 2)
    vote(table.players[1], table, 3)
    assert badges(table.players[0], table) == {"floor": "2"}
    assert badges(table.players[1], table) == {}
    token = set_spectators(run_db, table, True)
    assert 'class="tab-badge"' not in client.get(f"/watch/{token}/cable").text


def test_a_push_to_an_open_page_carries_the_badges(
    server: Server, run_db: RunDB, table: Table
) -> None:
    player = table.players[4]
    page = player.get(f"/games/{table.game_id}/cable").text
    after = int(page.split('data-live-after="')[1].split('"')[0])
    api_post(table.players[1], table, "floor", "BADGEPUSH")
    # What the push changed (the Floor's badge), applied as the page's script applies it.
    fragments = pushed_events(server, context_of(run_db, table, 4), "cable", after)
    shown = live_part(applied(page, fragments))
    assert fragments and dict(BADGE.findall(shown)) == {"floor": "1"}
    # The page open on the Floor is being read: its push clears the Floor's badge.
    pushed(server, context_of(run_db, table, 4), "floor", after)
    assert badges(player, table) == {}


async def _going_on_and_afresh(
    db: AsyncSession,
    kept: PageMemos,
    context: GameContext,
    codename: str,
    tabs: list[str],
    looks: dict[str, int],
    at: int,
) -> tuple[dict[str, str], dict[str, str]]:
    """A seat's badges counted on from the memos `kept`, then afresh from none."""
    counted = []
    for memos in (kept, PageMemos()):
        db.info[PAGE_MEMOS_KEY] = memos
        counted.append(await tab_badges(db, context, codename, tabs, looks, at))
    return counted[0], counted[1]


def _news_between_checks(table: Table, tag: str, check: Callable[[], None]) -> None:
    """Floor posts, a vote, Ring talk and a whisper, each followed by `check`."""
    ring, station = ring_and_station(table)
    others = [seat for seat in range(6) if seat not in (ring, station)]
    for number in range(3):
        assert api_post(table.players[number], table, "floor", f"{tag}{number}").status_code == 200
        check()
    vote(table.players[others[0]], table, others[1])
    check()
    assert api_post(table.players[ring], table, "ring", f"{tag}RING").status_code == 200
    check()
    whisper(table.players[station], table, others[0], f"{tag}WHISPER")
    check()


def test_badges_counted_on_from_an_older_position_equal_a_count_afresh(
    run_db: RunDB, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's count at a newer journal position goes on from its count at an older one (the
    rows after it alone): the same badges as counting afresh, for every seat, the window's
    bound included (a small window makes the count start afresh when it would pass it)."""
    contexts = [context_of(run_db, table, seat) for seat in range(6)]
    stream = stream_of(table.game_id)
    tabs = [name for name, _ in TABS]
    kept = PageMemos()

    def check() -> None:
        async def both(db: AsyncSession) -> list[tuple[dict[str, str], dict[str, str]]]:
            at = await last_seq(db, stream)
            found = []
            for seat, context in enumerate(contexts):
                looks = {"floor": at - 2} if seat % 2 else {}  # one tab looked at lately
                codename = table.codenames[seat]
                found.append(
                    await _going_on_and_afresh(db, kept, context, codename, tabs, looks, at)
                )
            return found

        for seat, (going_on, afresh) in enumerate(run_db(both)):
            assert going_on == afresh, seat

    for window in (WINDOW, 3):
        monkeypatch.setattr(seen_module, "WINDOW", window)
        _news_between_checks(table, "TALLY", check)


def test_badges_counted_on_as_looks_move_and_pages_change_equal_a_count_afresh(
    run_db: RunDB, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat reading the Cable, then Operations, then the Cable again (each page counts the
    other tabs, and each look moves on to where its page was read), half the seats reading the
    Floor elsewhere meanwhile: the counts that go on from the seat's last count, for the tabs
    whose look is the same, equal a count afresh, for every seat, between posts, votes, Ring
    talk and whispers, the window's bound included."""
    contexts = [context_of(run_db, table, seat) for seat in range(6)]
    stream = stream_of(table.game_id)
    every_tab = [name for name, _ in TABS]
    kept = PageMemos()
    looks: list[dict[str, int]] = [{} for _ in range(6)]
    reading = ["cable"] * 6

    def check() -> None:
        async def both(db: AsyncSession) -> list[tuple[dict[str, str], dict[str, str]]]:
            at = await last_seq(db, stream)
            found = []
            for seat, context in enumerate(contexts):
                tab = reading[seat]
                shown = [name for name in every_tab if name != tab]
                if seat % 2:  # another browser of the seat read the Floor meanwhile
                    looks[seat]["floor"] = max(looks[seat].get("floor", 0), at - 1)
                codename = table.codenames[seat]
                found.append(
                    await _going_on_and_afresh(db, kept, context, codename, shown, looks[seat], at)
                )
                # The page was read: its look moves on; the seat reads the other tab next.
                looks[seat][tab] = at
                reading[seat] = "operations" if tab == "cable" else "cable"
            return found

        for seat, (going_on, afresh) in enumerate(run_db(both)):
            assert going_on == afresh, seat

    for window in (WINDOW, 4):
        monkeypatch.setattr(seen_module, "WINDOW", window)
        _news_between_checks(table, f"MOVING{window}-", check)
        check()  # nothing new: the looks alone moved


# --- The pure counting rules ---------------------------------------------------------------

ME = Reader(seat=2, codename="VIPER")


def test_own_doings_are_never_news() -> None:
    assert tabs_showing("message", {"channel": "floor", "seat": 2}, ME) == ()
    assert tabs_showing("vote", {"voter": "VIPER"}, ME) == ()
    assert tabs_showing("whisper_announced", {"sender": "VIPER"}, ME) == ()
    assert tabs_showing("whisper", {"sender": "VIPER"}, ME) == ()
    assert tabs_showing("operation_saved", {"codename": "VIPER"}, ME) == ()
    assert tabs_showing("done_marked", {"codename": "VIPER"}, ME) == ()
    assert tabs_showing("final_cable_saved", {"text": "x"}, ME) == ()


def test_each_event_badges_the_tab_that_shows_it() -> None:
    assert tabs_showing("message", {"channel": "floor", "seat": 1}, ME) == ("floor",)
    for channel in ("ring", "archive", "interrogation"):
        assert tabs_showing("message", {"channel": channel, "seat": 1}, ME) == ("dossier",)
    assert tabs_showing("whisper", {"sender": "COBRA"}, ME) == ("dossier",)
    assert tabs_showing("private_results", {}, ME) == ("dossier",)
    assert tabs_showing("morning_cable", {}, ME) == ("cable",)
    assert tabs_showing("host_notice", {}, ME) == ("cable",)
    assert tabs_showing("player_removed", {}, ME) == ("cable", "roster")
    assert tabs_showing("operation_saved", {"codename": "COBRA"}, ME) == ("operations",)


def test_counts_start_after_each_tabs_own_look() -> None:
    events = [(seq, "vote", {"voter": "COBRA"}) for seq in range(1, 6)]
    events.append((6, "morning_cable", {}))
    assert count_new(events, {"floor": 3}, ME) == {"floor": 2, "cable": 1}
    assert count_new(events, {"floor": 5, "cable": 6}, ME) == {}
    assert badge_text(7) == "7" and badge_text(99) == "99" and badge_text(100) == "99+"


def test_a_page_records_its_look_after_the_answer_and_the_next_page_counts_it_already(
    run_db: RunDB, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page's look joins the process's looks writer (one write for many pages, after the
    answer); until it is written, the player's next page of this process counts it."""
    monkeypatch.setattr(looks_module, "GATHER_SECONDS", 1.0)
    player, context = table.players[3], context_of(run_db, table, 3)

    async def floor_seen(db: AsyncSession) -> int | None:
        assert context.user is not None
        return (await seen_of(db, context.game.id, context.user.id)).get("floor")

    assert api_post(table.players[1], table, "floor", "LOOKLATER").status_code == 200
    before = run_db(floor_seen)
    page = player.get(f"/games/{table.game_id}/floor").text
    after = int(page.split('data-live-after="')[1].split('"')[0])
    assert run_db(floor_seen) == before  # not written by the request
    assert badges(player, table) == {}  # yet the Cable, next, shows no Floor badge
    deadline = time.monotonic() + 10
    while run_db(floor_seen) != after and time.monotonic() < deadline:
        time.sleep(0.1)
    assert run_db(floor_seen) == after  # written a moment later


def test_only_a_push_with_news_for_its_tab_records_a_look(
    server: Server, run_db: RunDB, table: Table
) -> None:
    """Most pushes concern other tabs: they must not cost a write per open page."""
    player = table.players[4]
    page = player.get(f"/games/{table.game_id}/cable").text
    after = int(page.split('data-live-after="')[1].split('"')[0])
    context = context_of(run_db, table, 4)

    async def cable_seen(db: AsyncSession) -> int:
        assert context.user is not None
        return (await seen_of(db, context.game.id, context.user.id))["cable"]

    api_post(table.players[1], table, "floor", "NOTFORTHECABLE")
    assert pushed(server, context, "cable", after)
    assert run_db(cable_seen) == after
    answer = table.players[0].submit(
        f"/games/{table.game_id}/host", {}, action=f"/games/{table.game_id}/host/pause"
    )
    assert answer.status_code == 200
    assert pushed(server, context, "cable", after)
    assert run_db(cable_seen) > after


def test_the_database_reads_every_kind_a_tab_may_count() -> None:
    """`KINDS_SHOWN_ON` narrows the query: it must hold whatever `tabs_showing` counts."""
    other = {"seat": 1, "voter": "COBRA", "codename": "COBRA", "sender": "COBRA"}
    samples = [("message", {**other, "channel": channel}) for channel in CHANNEL_NAMES]
    kinds = set().union(*KINDS_SHOWN_ON.values()) | {"final_cable_saved", "trade"}
    samples += [(kind, other) for kind in kinds if kind != "message"]
    for kind, payload in samples:
        for tab in tabs_showing(kind, payload, ME):
            assert kind in KINDS_SHOWN_ON[tab], (kind, tab)


CHANNEL_NAMES = ("floor", "ring", "archive", "interrogation")
