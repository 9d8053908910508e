"""S42: a bot seat's input is that seat's own view and the chat it may read, never more —
checked for every seat of a ten-seat table, on every day of a whole game the runner plays."""

from __future__ import annotations

import json
from typing import Any

import pytest
from litestar import Litestar

from deaddrop.engine.station.channels import Channel, can_read
from deaddrop.engine.station.roles import is_ring
from deaddrop.engine.station.state import State
from deaddrop.engine.station.views import view
from deaddrop.server.station.bot_seats.seat_input import SeatInput
from tests.server.station.games.bot_helpers import bot_table, record_inputs, run_bots
from tests.server.station.games.helpers import Person, RunDB

LEVELS = ["expert", "heuristic", "random"] * 3
MAX_DAYS = 30


def test_s42_every_bot_input_is_its_own_view_and_readable_chat_over_a_whole_game(
    host: Person, run_db: RunDB, app: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = record_inputs(monkeypatch)
    table = bot_table(host, [], LEVELS, run_db, app)
    for _ in range(MAX_DAYS):
        run_bots(table)
        run_bots(table)  # again: what the others saved and posted is news
        table.pouch()
        if table.state().over:
            break
    assert table.state().over
    assert {seat for _, seat, _ in seen} == set(range(1, 10))
    assert len({state.day for state, _, _ in seen}) > 1
    channels = {post.channel for _, _, given in seen for post in given.posts}
    assert {"floor", "whisper"} <= channels  # the check below is not a vacuous one
    for state, seat, given in seen:
        _check_only_own(state, seat, given)


def _check_only_own(state: State, seat: int, given: SeatInput) -> None:
    """The input equals the seat's view (JSON) plus posts of channels it may read."""
    own: dict[str, Any] = json.loads(json.dumps(view(state, seat)))
    assert given.seen == own
    ring = is_ring(state.seats[seat].role)
    if not ring:
        assert "ring" not in given.seen or not given.seen["ring"]
    whispers = {(w["day"], w["sender"], w["text"]) for w in own["me"]["whispers"]}
    for post in given.posts:
        if post.channel == "whisper":  # only whispers it sent or received (S31)
            assert (post.day, post.author, post.text) in whispers
        else:
            assert post.channel == "floor" or ring  # the Ring Channel for the Ring (S29)
            assert can_read(state, seat, Channel(post.channel), post.day)
