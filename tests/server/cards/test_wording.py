"""What the Cards pages say: verbs that agree with "You", each hand named for its holder,
no rule codes in labels, counts with the right plural, and The Drop shown once the game is over.
"""

from __future__ import annotations

import html
import re

from deaddrop.engine.cards import Grab, SwapStash, legal_actions
from deaddrop.phrasebook.cards import log_line
from deaddrop.server.cards.models import CardsSeat
from deaddrop.server.cards.present import Namer
from tests.server.cards.helpers import (
    RunDb,
    fields_for,
    join_by_invite,
    open_solo,
    open_table,
    play_to_the_end,
    post_move,
    state_of,
    table_row,
)
from tests.server.visitor import Visitor

RULE_CODE = re.compile(r"\b[CS]\d{1,2}\b")
ONE_PLURAL = re.compile(r"\b1 (?:cards|tokens|players|agents|seats|turns|bots)\b")


def visible_text(page: str) -> str:
    """The words a person reads (tags, scripts and the flashes left out)."""
    page = re.sub(r'<div class="flashes".*?</div>', " ", page, flags=re.S)
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _namer(viewer: int | None) -> Namer:
    seats = [
        CardsSeat(seat=0, name="Alice Liddell"),
        CardsSeat(seat=1, name="Expert bot", bot="expert"),
    ]
    return Namer(seats, viewer)


def test_log_lines_about_me_say_you_with_a_verb_that_agrees() -> None:
    me = _namer(0)
    share = {"kind": "share_info", "seat": 0, "with": 1, "face_up": False}
    assert log_line(share, me) == "You shared info with Expert bot."
    assert log_line({**share, "seat": 1, "with": 0}, me) == "Expert bot shared info with you."
    out = {"kind": "eliminated", "seat": 0, "hand": [1, 2]}
    assert log_line(out, me) == "You are out of the round; your hand lies face up: 1, 2."
    assert log_line({**out, "seat": 1}, me) == (
        "Expert bot is out of the round; their hand lies face up: 1, 2."
    )
    deal = {"kind": "deal", "round": 2, "first": 0, "stash": [0, 3]}
    assert log_line(deal, me) == "Round 2 dealt; you start. The Stash: 0, 3."
    sale = {"kind": "sell_secrets", "seat": 1, "to": 0, "answer": "no", "cards_moved": False}
    assert log_line(sale, me) == "Expert bot sold secrets to you: the answer is no."
    won = {"kind": "round_end", "round": 1, "winner": 0, "by": "grab", "drop": 3}
    assert log_line(won, me).startswith("Round 1 goes to you by grabbing The Drop.")


def test_the_all_revealed_log_names_whose_hand_and_who_checked_the_drop() -> None:
    everyone = _namer(None)
    hand = {"kind": "hand", "round": 1, "seat": 1, "hand": [0, 4]}
    assert log_line(hand, everyone) == "Expert bot's hand for round 1: 0, 4."
    assert log_line(hand, _namer(1)) == "Your hand for round 1: 0, 4."
    checked = {"kind": "drop_checked", "seat": 1, "pair": [1, 2], "drop": 3, "matched": True}
    assert log_line(checked, everyone) == "Private: Expert bot checked The Drop. It is a 3."
    assert log_line(checked, _namer(1)) == "Private: you checked The Drop. It is a 3."


def test_the_all_revealed_replay_calls_no_bot_hand_yours(client: Visitor, run_db: RunDb) -> None:
    table_id = open_solo(client, tokens_to_win="1", opponents="1", bot="random")
    play_to_the_end({0: client}, run_db, table_id)
    steps = table_row(run_db, table_id).version
    text = visible_text(client.get(f"/cards/t/{table_id}/replay?seat=all&step={steps}").text)
    assert "Your hand" not in text
    assert "Random bot's hand for round 1" in text


def test_a_bot_seat_is_not_called_bot_twice(client: Visitor) -> None:
    table_id = open_solo(client, opponents="1", bot="heuristic")
    text = visible_text(client.get(f"/cards/t/{table_id}").text)
    assert "Heuristic bot" in text
    assert "bot bot" not in text.lower()


def test_labels_carry_no_rule_codes_c4_c8_c11(alice: Visitor, bob: Visitor, run_db: RunDb) -> None:
    assert not RULE_CODE.findall(visible_text(alice.get("/cards").text))
    # Two people and no bot: the first mover's page shows the action prompt, then the grab's.
    table_id = open_table(alice, players="2", seat1="friend")
    join_by_invite(bob, run_db, table_id)
    state = state_of(run_db, table_id)
    assert state.pending is not None
    mover = {0: alice, 1: bob}[state.pending.seat]
    action_prompt = visible_text(mover.get(f"/cards/t/{table_id}").text)
    assert "Swap the Stash" in action_prompt and not RULE_CODE.findall(action_prompt)
    swap = next(a for a in legal_actions(state) if isinstance(a, SwapStash))
    assert post_move(mover, table_id, fields_for(swap), json=True).is_success
    state = state_of(run_db, table_id)
    assert any(isinstance(a, Grab) for a in legal_actions(state))
    grab_prompt = visible_text(mover.get(f"/cards/t/{table_id}").text)
    assert "I am sure" in grab_prompt and not RULE_CODE.findall(grab_prompt)


def test_a_refusal_still_names_its_rule(alice: Visitor, bob: Visitor, run_db: RunDb) -> None:
    table_id = open_table(alice, players="2", seat1="friend", public="yes")
    bob.submit(f"/cards/t/{table_id}", {}, action=f"/cards/t/{table_id}/join")
    state = state_of(run_db, table_id)
    assert state.pending is not None
    waiting = {0: alice, 1: bob}[1 - state.pending.seat]
    refused = post_move(waiting, table_id, {"kind": "end_turn"}, json=True)
    assert "rule C3" in refused.json()["detail"]


def test_one_of_a_thing_is_singular_on_every_cards_page(
    alice: Visitor, bob: Visitor, run_db: RunDb
) -> None:
    table_id = open_table(alice, players="2", seat1="friend", tokens_to_win="1")
    token = table_row(run_db, table_id).invite_token
    invite = bob.get(f"/cards/invite/{token}").text
    assert "first to 1 token." in visible_text(invite)
    bob.submit(f"/cards/invite/{token}", {})
    pages = [alice.get("/cards").text, alice.get(f"/cards/t/{table_id}").text]
    play_to_the_end({0: alice, 1: bob}, run_db, table_id, fold=True)
    steps = table_row(run_db, table_id).version
    final = alice.get(f"/cards/t/{table_id}").text
    assert 'aria-label="1 token"' in final
    pages += [final, alice.get(f"/cards/t/{table_id}/replay?seat=all&step={steps}").text]
    for page in pages:
        assert not ONE_PLURAL.findall(html.unescape(page))


def test_the_drop_is_shown_once_the_game_is_over_c12(
    alice: Visitor, bob: Visitor, outsider: Visitor, run_db: RunDb
) -> None:
    table_id = open_table(alice, players="2", seat1="friend", public="yes", tokens_to_win="1")
    bob.submit(f"/cards/t/{table_id}", {}, action=f"/cards/t/{table_id}/join")
    face_down = 'The Drop: <span class="card card-back" aria-label="face down">?</span>'
    for visitor in (alice, bob, outsider):
        assert face_down in visitor.get(f"/cards/t/{table_id}").text
    state = play_to_the_end({0: alice, 1: bob}, run_db, table_id, fold=True)
    drop = f'The Drop: <span class="card card-up" data-value="{state.drop}">{state.drop}</span>'
    for visitor in (alice, outsider):
        over = visitor.get(f"/cards/t/{table_id}").text
        assert drop in over and 'aria-label="face down"' not in over
