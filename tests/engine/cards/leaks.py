"""The C12 check of one view against the full state: what a seat may see and nothing else."""

from __future__ import annotations

from typing import Any

from deaddrop.engine.cards import (
    Action,
    ChooseGive,
    ChooseHandBack,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    ShareInfo,
    State,
    log_entry,
    view,
)

SEAT_KEYS = {
    "viewer",
    "players",
    "options",
    "round",
    "first",
    "turn",
    "pending",
    "winner",
    "tokens",
    "hand",
    "stash",
    "hand_sizes",
    "eliminated",
    "rounds",
    "log",
}
SPECTATOR_KEYS = SEAT_KEYS - {"hand"}

# Keys a public log entry may carry, by kind (beyond "kind" and "public").
PUBLIC_KEYS = {
    "deal": {"round", "first", "stash", "hand_sizes"},
    "swap_stash": {"seat", "give", "take"},
    "share_info": {"seat", "with", "face_up", "give", "receive"},
    "sell_secrets": {"seat", "to", "answer", "cards_moved"},
    "grab": {"seat", "pair", "matched"},
    "eliminated": {"seat", "hand", "pair"},
    "round_end": {"round", "winner", "by", "eliminated", "drop", "stash", "hands", "tokens"},
    "game_end": {"winner", "tokens"},
}
PRIVATE_KINDS = {"hand", "share_info_cards", "sell_secrets_shown", "sell_secrets_cards"}


def _parties(entry: dict[str, Any]) -> set[int]:
    return {entry[key] for key in ("seat", "with", "to") if key in entry}


def assert_c12(state: State, seat: int | None) -> dict[str, Any]:
    """Check the seat's view holds exactly what C12 allows; return it."""
    seen = view(state, seat)
    assert set(seen) == (SPECTATOR_KEYS if seat is None else SEAT_KEYS)
    if seat is not None:
        assert seen["hand"] == list(state.hands[seat])
    assert seen["stash"] == list(state.stash)
    assert seen["eliminated"] == [
        {"seat": s, "hand": list(state.hands[s])} for s in state.eliminated
    ]
    assert seen["log"] == [log_entry(e) for e in state.log if e.audience.includes(seat)]
    face_down = state.setup.options.grab_face_down
    for entry in seen["log"]:
        kind = entry["kind"]
        if not entry["public"]:
            # A private entry goes to the seats it is about, and this seat is one of them.
            assert seat is not None
            if kind == "drop_checked":
                assert entry["seat"] == seat  # the grabber alone checks The Drop
            else:
                assert kind in PRIVATE_KINDS
                assert seat in _parties(entry)
            continue
        assert set(entry) - {"kind", "public"} <= PUBLIC_KEYS[kind], entry
        if kind == "share_info" and not entry["face_up"]:
            assert "give" not in entry and "receive" not in entry  # C4: the cards stay private
        if kind == "grab" and face_down:
            assert entry["pair"] is None  # C8: face down
    pending = seen["pending"]
    if pending is not None:
        if "offered" in pending:
            assert isinstance(state.pending, ChooseGive) and seat == state.pending.mover
        if "show" in pending:
            assert isinstance(state.pending, ChooseHandBack)
            assert seat in (state.pending.seat, state.pending.buyer)
    # The Drop of the round under way appears nowhere but in the grabber's own check.
    if state.pending is not None:
        assert "drop" not in seen
        current = [e for e in seen["log"][_round_start(seen["log"], state.round) :]]
        assert all(e["kind"] == "drop_checked" for e in current if "drop" in e)
    return seen


def _round_start(log: list[dict[str, Any]], number: int) -> int:
    for index, entry in enumerate(log):
        if entry["kind"] == "deal" and entry["round"] == number:
            return index
    raise AssertionError(f"no deal for round {number}")


def reduce_private(entry: dict[str, Any]) -> tuple[str, tuple[int, ...]]:
    """A private log entry as (kind, the card values it tells)."""
    kind = entry["kind"]
    if kind == "hand":
        return kind, tuple(entry["hand"])
    if kind in ("share_info_cards", "sell_secrets_cards"):
        return kind, (entry["give"], entry["receive"])
    if kind == "sell_secrets_shown":
        return kind, tuple(entry["show"])
    assert kind == "drop_checked", kind
    return kind, (entry["drop"],)


def referee(states: list[State], log: list[Action]) -> dict[int, list[tuple[str, tuple[int, ...]]]]:
    """What each seat may privately learn per C12, worked out from the actions alone.

    Independent of the engine's events: its own hand at each deal, the two cards of a trade it
    made, the cards shown in a sale it was party to and the cards that then moved, and The
    Drop when it grabbed.
    """
    players = states[0].setup.players
    known: dict[int, list[tuple[str, tuple[int, ...]]]] = {s: [] for s in range(players)}

    def dealt(state: State) -> None:
        for seat in range(players):
            known[seat].append(("hand", state.hands[seat]))

    dealt(states[0])
    offered: tuple[int, int, int] | None = None
    sale: tuple[int, int, tuple[int, int]] | None = None
    for before, action, after in zip(states, log, states[1:], strict=False):
        if isinstance(action, ShareInfo) and action.take is None:
            offered = (action.seat, action.target, action.give)
        elif isinstance(action, GiveCard):
            assert offered is not None
            mover, target, card = offered
            for seat in (mover, target):
                known[seat].append(("share_info_cards", (card, action.card)))
        elif isinstance(action, SellSecrets):
            low, high = sorted(action.show)
            sale = (action.seat, action.target, (low, high))
            for seat in (action.seat, action.target):
                known[seat].append(("sell_secrets_shown", (low, high)))
        elif isinstance(action, HandBack):
            assert sale is not None
            seller, buyer, show = sale
            for seat in (seller, buyer):
                known[seat].append(("sell_secrets_cards", (action.card, show[0] + show[1])))
        elif isinstance(action, Grab):
            known[action.seat].append(("drop_checked", (before.drop,)))
        if after.round != before.round:
            dealt(after)
    return known
