"""Cards tables over HTTP: solo play against bots, friends by invite, refusals in plain words."""

from __future__ import annotations

from tests.server.cards.helpers import (
    RunDb,
    open_solo,
    play_to_the_end,
    seat_rows,
    table_row,
)
from tests.server.visitor import Visitor


def test_guest_plays_solo_against_bots_to_a_winner(client: Visitor, run_db: RunDb) -> None:
    table_id = open_solo(client, tokens_to_win="1")
    page = client.get(f"/cards/t/{table_id}")
    assert "My hand" in page.text and "The Stash" in page.text
    seats = seat_rows(run_db, table_id)
    assert [s.bot for s in seats] == [None, "heuristic", "heuristic"]
    state = play_to_the_end({0: client}, run_db, table_id)
    assert state.winner is not None
    assert table_row(run_db, table_id).status == "over"
    final = client.get(f"/cards/t/{table_id}")
    assert "the game" in final.text and "Download the game record" in final.text
