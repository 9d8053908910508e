"""The Cards action log as JSON (`engine/core/protocol.py`: the codec every engine has)."""

from __future__ import annotations

from typing import Any

from deaddrop.engine.cards.actions import (
    Action,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    ShareInfo,
    SwapStash,
)
from deaddrop.engine.core.errors import IllegalAction


def action_to_json(action: Action) -> dict[str, Any]:
    """A JSON-ready dict for an action, e.g. {"kind": "grab", "seat": 1, "pair": [1, 3]}."""
    if isinstance(action, ShareInfo):
        out: dict[str, Any] = {"kind": "share_info", "seat": action.seat}
        out.update(target=action.target, give=action.give, take=action.take)
        return out
    if isinstance(action, SwapStash):
        return {"kind": "swap_stash", "seat": action.seat, "give": action.give, "take": action.take}
    if isinstance(action, SellSecrets):
        return {
            "kind": "sell_secrets",
            "seat": action.seat,
            "target": action.target,
            "show": list(action.show),
        }
    if isinstance(action, GiveCard):
        return {"kind": "give_card", "seat": action.seat, "card": action.card}
    if isinstance(action, HandBack):
        return {"kind": "hand_back", "seat": action.seat, "card": action.card}
    if isinstance(action, Grab):
        return {"kind": "grab", "seat": action.seat, "pair": list(action.pair)}
    return {"kind": "end_turn", "seat": action.seat}


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if type(value) is not int:
        raise IllegalAction("action", f"{key} must be an integer")
    return value


def _pair(data: dict[str, Any], key: str) -> tuple[int, int]:
    value = data.get(key)
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise IllegalAction("action", f"{key} must be two cards")
    a, b = value
    if type(a) is not int or type(b) is not int:
        raise IllegalAction("action", f"{key} must be two cards")
    return (a, b)


def action_from_json(data: object) -> Action:
    """The action of an `action_to_json` dict; IllegalAction("action", …) if malformed."""
    if not isinstance(data, dict):
        raise IllegalAction("action", "an action is a JSON object")
    kind, seat = data.get("kind"), _int(data, "seat")
    if kind == "share_info":
        take = data.get("take")
        if take is not None and type(take) is not int:
            raise IllegalAction("action", "take must be an integer or null")
        return ShareInfo(seat, _int(data, "target"), _int(data, "give"), take)
    if kind == "swap_stash":
        return SwapStash(seat, _int(data, "give"), _int(data, "take"))
    if kind == "sell_secrets":
        return SellSecrets(seat, _int(data, "target"), _pair(data, "show"))
    if kind == "give_card":
        return GiveCard(seat, _int(data, "card"))
    if kind == "hand_back":
        return HandBack(seat, _int(data, "card"))
    if kind == "grab":
        return Grab(seat, _pair(data, "pair"))
    if kind == "end_turn":
        return EndTurn(seat)
    raise IllegalAction("action", f"unknown action kind {kind!r}")
