"""What the new-game form and the lobby say (issue 11): the first Pouch where it is set, with
the 12-hour minimum of Day 1 (the server's own `next_deadline`), counts in good English, and a
Start button the server disabled stays disabled in the markup."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

from deaddrop.server.testing.clocks import ManualClock
from deaddrop.server.words import counted
from tests.server.station.games.conftest import START
from tests.server.station.games.helpers import (
    Person,
    RunDB,
    game_row,
    invite_token,
    join,
    open_lobby,
)

START_BUTTON = re.compile(r"<button type=\"submit\"( disabled)?>Start with ([^<]*)</button>")


def test_counted_says_one_player_and_six_players() -> None:
    assert counted(1, "player") == "1 player"
    assert counted(0, "player") == "0 players"
    assert counted(6, "player") == "6 players"
    assert counted(1, "vote") == "1 vote" and counted(2, "vote") == "2 votes"


def test_a_lone_host_reads_start_with_1_player_and_the_button_is_disabled(host: Person) -> None:
    game_id = open_lobby(host)
    found = START_BUTTON.search(host.get(f"/games/{game_id}/lobby").text)
    assert found is not None
    assert found.groups() == (" disabled", "1 player")


def test_s40_the_lobby_says_when_the_first_pouch_leaves_if_started_now(
    host: Person,
    make_players: Callable[[int], list[Person]],
    run_db: RunDB,
    clock: ManualClock,
) -> None:
    # Friday 13:00 in Berlin: 21:00 today is less than 12 hours away, so Day 1 runs to Saturday.
    assert clock.now() == START == datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
    game_id = open_lobby(host)
    lobby = host.get(f"/games/{game_id}/lobby").text
    assert "first Pouch: Sat 28 Mar, 21:00 CET, then every day at 21:00" in lobby
    assert "at least 12 hours" in lobby
    token = invite_token(host, game_id)
    for person in make_players(5):
        join(person, token)
    # The lobby's promise is the server's own schedule: starting now gives exactly that Pouch.
    assert host.form(f"/games/{game_id}/start").status_code == 303
    game = run_db(lambda db: game_row(db, game_id))
    assert game.deadline == datetime(2026, 3, 28, 20, 0, tzinfo=UTC)


def test_s40_early_in_the_day_the_first_pouch_is_today(host: Person, clock: ManualClock) -> None:
    clock.set(datetime(2026, 3, 27, 8, 0, tzinfo=UTC))  # 09:00 in Berlin: 21:00 is 12 h away
    game_id = open_lobby(host)
    lobby = host.get(f"/games/{game_id}/lobby").text
    assert "first Pouch: Fri 27 Mar, 21:00 CET, then every day at 21:00" in lobby


def test_s40_the_new_game_form_says_when_the_first_pouch_would_leave(host: Person) -> None:
    form = host.get("/games/new").text  # Alice's zone is UTC; the form offers 21:00
    assert "first Pouch: Sat 28 Mar, 21:00 UTC, then every day at 21:00" in form
    assert "at least 12 hours" in form


def test_a_quick_lobby_says_its_first_pouch_follows_the_start(host: Person) -> None:
    game_id = open_lobby(host, day_minutes="60")
    lobby = host.get(f"/games/{game_id}/lobby").text
    assert "each day lasts 1 hour" in lobby
    assert "first Pouch: 1 hour after the start" in lobby


def test_the_new_game_form_lets_the_browser_pick_an_unchosen_zone(host: Person) -> None:
    form = host.get("/games/new").text  # Alice never chose a zone: UTC, as without JavaScript
    assert "data-zone-from-device" in form
    assert '<option value="UTC" selected>UTC</option>' in form
    # A zone the person sent back (a refused form) is theirs: the script leaves it alone.
    refused = host.form("/games/new", {"title": "", "pouch_time": "21:00", "time_zone": "UTC"})
    assert refused.status_code == 422
    assert "data-zone-from-device" not in refused.text


def test_the_invite_link_stays_selectable_text_with_a_share_hook(host: Person) -> None:
    lobby = host.get(f"/games/{open_lobby(host)}/lobby").text
    assert re.search(
        r'<input id="invite-url" type="text" readonly value="http://[^"]+/join/'
        r'[^"]+" data-share-link>',
        lobby,
    )
