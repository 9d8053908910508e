"""Game records (scenarios/cards/README.md): the JSON document, read and checked as a document.

`parse_record` checks the format, every deal (C1, C2) and every round's start (C3) in record
order before anything is played; `record_play.play_record` then plays the turns through the
engine. Errors are one line naming where: `round 2: start must be seat 1 (C3)`,
`round 1, turn 4: seat 2: … (C7)`, or `record: …` for the document as a whole.
"""

from __future__ import annotations

from typing import Any

from deaddrop.engine.cards.deck import Deal, check_deal, check_players
from deaddrop.engine.cards.state import Options, Setup
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.records import record

FORMAT = "record"
"""The rule code of errors in the document's format (the README) rather than in play."""

ACTIONS = ("swap_stash", "share_info", "sell_secrets")
"""The turn keys naming its one action."""


class RecordError(IllegalAction):
    """A record that is not a legal game; str() is the one line the replay command prints."""

    def __init__(self, code: str, detail: str, where: str) -> None:
        super().__init__(code, f"{where}: {detail}")
        self.where = where
        """Which part of the record: "record", "round 2" or "round 1, turn 4: seat 2"."""
        self.detail = detail
        """What is wrong, without the place and the rule."""


@record
class RecordTurn:
    """One recorded turn: its seat, its one action (with any second decision) and a grab."""

    seat: int
    """The seat that moves (C3)."""
    kind: str
    """"swap_stash", "share_info" or "sell_secrets"."""
    target: int | None = None
    """share_info `with`, sell_secrets `to`."""
    give: int | None = None
    """swap_stash and share_info: the card given from the hand."""
    take: int | None = None
    """swap_stash `take`; share_info `receive` (the card the other seat hands over)."""
    show: tuple[int, int] | None = None
    """sell_secrets: the two cards shown."""
    hand_back: int | None = None
    """sell_secrets: the shown card handed back after a yes."""
    grab: tuple[int, int] | None = None
    """The pair placed next to The Drop after the action (C8), if any."""


@record
class RecordRound:
    """One recorded round."""

    deal: Deal
    """The Drop, The Stash and every hand."""
    start: int
    """The round's first seat."""
    turns: tuple[RecordTurn, ...]
    """The turns in order; the round may stop in the middle."""


@record
class Record:
    """A game record: the setup it implies (given deals, round 1's start) and its rounds."""

    name: str
    """Free text."""
    setup: Setup
    """Players, options, round 1's first seat and every round's deal."""
    rounds: tuple[RecordRound, ...]
    """The rounds in order."""


def _keys(data: object, allowed: set[str], required: set[str], what: str, where: str) -> None:
    if not isinstance(data, dict):
        raise RecordError(FORMAT, f"{what} must be a JSON object", where)
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise RecordError(FORMAT, f"{what} has unknown key {unknown[0]!r}", where)
    missing = sorted(required - set(data))
    if missing:
        raise RecordError(FORMAT, f"{what} needs {missing[0]!r}", where)


def _is_int(value: object) -> bool:
    return type(value) is int


def _ints(value: object) -> bool:
    return isinstance(value, list) and all(_is_int(card) for card in value)


def _pair(value: object) -> tuple[int, int] | None:
    if _ints(value) and isinstance(value, list) and len(value) == 2:
        return (value[0], value[1])
    return None


def parse_record(data: object) -> Record:
    """The checked record of a JSON document; RecordError naming the first problem."""
    _keys(
        data, {"name", "players", "options", "rounds", "expect"}, {"players"}, "a record", "record"
    )
    assert isinstance(data, dict)
    name = data.get("name", "")
    if not isinstance(name, str):
        raise RecordError(FORMAT, "name must be text", "record")
    try:
        players = check_players(data["players"])
    except IllegalAction as error:
        raise RecordError(error.code, error.message, "record") from None
    options = _options(data.get("options"))
    raw_rounds = data.get("rounds", [])
    if not isinstance(raw_rounds, list):
        raise RecordError(FORMAT, "rounds must be a list", "record")
    rounds: list[RecordRound] = []
    for number, raw in enumerate(raw_rounds, start=1):
        previous = rounds[-1].start if rounds else None
        rounds.append(_round(raw, number, players, previous))
    setup = Setup(
        players=players,
        options=options,
        first=rounds[0].start if rounds else None,
        deals=tuple(r.deal for r in rounds),
    )
    return Record(name, setup, tuple(rounds))


def _options(raw: object) -> Options:
    if raw is None:
        return Options()
    _keys(raw, {"grab_face_down", "tokens_to_win"}, set(), "options", "record")
    assert isinstance(raw, dict)
    face_down = raw.get("grab_face_down", False)
    if type(face_down) is not bool:
        raise RecordError("C8", "grab_face_down must be true or false", "record")
    tokens = raw.get("tokens_to_win", 3)
    if not _is_int(tokens) or tokens < 1:
        raise RecordError("C11", "tokens_to_win must be a positive integer", "record")
    return Options(grab_face_down=face_down, tokens_to_win=tokens)


def _round(raw: object, number: int, players: int, previous: int | None) -> RecordRound:
    where = f"round {number}"
    _keys(raw, {"deal", "start", "turns"}, {"deal", "start"}, "a round", where)
    assert isinstance(raw, dict)
    deal = _deal(raw["deal"], players, where)
    start = raw["start"]
    if not _is_int(start) or start not in range(players):
        raise RecordError("C3", f"start must be a seat from 0 to {players - 1}", where)
    if previous is not None and start != (previous + 1) % players:
        # C3: each later round starts with the seat after the previous round's first seat.
        raise RecordError("C3", f"start must be seat {(previous + 1) % players}", where)
    raw_turns = raw.get("turns", [])
    if not isinstance(raw_turns, list):
        raise RecordError(FORMAT, "turns must be a list", where)
    turns = tuple(_turn(t, f"{where}, turn {i}") for i, t in enumerate(raw_turns, start=1))
    return RecordRound(deal, start, turns)


def _deal(raw: object, players: int, where: str) -> Deal:
    _keys(raw, {"drop", "stash", "hands"}, {"drop", "stash", "hands"}, "the deal", where)
    assert isinstance(raw, dict)
    drop, stash, hands = raw["drop"], raw["stash"], raw["hands"]
    if not (
        _is_int(drop)
        and _ints(stash)
        and isinstance(hands, list)
        and all(_ints(hand) for hand in hands)
    ):
        raise RecordError(FORMAT, "the deal's drop, stash and hands are card values", where)
    deal = Deal.of(drop, tuple(stash), tuple(tuple(hand) for hand in hands))
    try:
        check_deal(deal, players)
    except IllegalAction as error:
        raise RecordError(error.code, error.message, where) from None
    return deal


def _turn(raw: object, where: str) -> RecordTurn:
    _keys(raw, {"seat", "grab", *ACTIONS}, {"seat"}, "a turn", where)
    assert isinstance(raw, dict)
    seat = raw["seat"]
    if not _is_int(seat):
        raise RecordError(FORMAT, "a turn's seat is a number", where)
    where = f"{where}: seat {seat}"
    kinds = [kind for kind in ACTIONS if kind in raw]
    if len(kinds) != 1:
        # C4 (the turn's heading): exactly one action a turn, then optionally a grab.
        named = (
            ", ".join(kinds[:-1]) + " and " + kinds[-1]
            if kinds
            else "swap_stash, share_info or sell_secrets"
        )
        detail = f"a turn has exactly one action, not {len(kinds)}: {named}"
        raise RecordError("C4", detail, where)
    kind = kinds[0]
    grab = None
    if raw.get("grab") is not None:
        grab = _pair(raw["grab"])
        if grab is None:
            raise RecordError(FORMAT, "grab is two card values", where)
    body = raw[kind]
    fields = _action_fields(kind, body, where)
    return RecordTurn(seat=seat, kind=kind, grab=grab, **fields)


def _action_fields(kind: str, body: object, where: str) -> dict[str, Any]:
    if kind == "swap_stash":
        _keys(body, {"give", "take"}, {"give", "take"}, kind, where)
        assert isinstance(body, dict)
        _need_ints(body, ("give", "take"), kind, where)
        return {"give": body["give"], "take": body["take"]}
    if kind == "share_info":
        keys = {"with", "give", "receive"}
        _keys(body, keys, keys, kind, where)
        assert isinstance(body, dict)
        _need_ints(body, ("with", "give", "receive"), kind, where)
        return {"target": body["with"], "give": body["give"], "take": body["receive"]}
    _keys(body, {"to", "show", "hand_back"}, {"to", "show"}, kind, where)
    assert isinstance(body, dict)
    _need_ints(body, ("to",), kind, where)
    show = _pair(body["show"])
    if show is None:
        raise RecordError(FORMAT, "sell_secrets shows two card values", where)
    hand_back = body.get("hand_back")
    if hand_back is not None and not _is_int(hand_back):
        raise RecordError(FORMAT, "hand_back is a card value or null", where)
    return {"target": body["to"], "show": show, "hand_back": hand_back}


def _need_ints(body: dict[str, Any], keys: tuple[str, ...], kind: str, where: str) -> None:
    for key in keys:
        if not _is_int(body[key]):
            raise RecordError(FORMAT, f"{kind} {key} must be a number", where)
