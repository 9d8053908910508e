"""What a seat may submit. Each action names its seat; `rules.apply` checks it is theirs to take.

A turn is one of ShareInfo, SwapStash or SellSecrets (answered by GiveCard or followed by
HandBack when the rules call for a second decision), then Grab or EndTurn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deaddrop.engine.core.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class ShareInfo:
    """C4/C5: trade one card of the hand with another seat."""

    seat: int
    """The mover."""
    target: int
    """The other seat."""
    give: int
    """The card the mover gives."""
    take: int | None = None
    """C5: the face-up card taken from an eliminated seat; None for a seat still in the round."""


@dataclass(frozen=True, slots=True)
class SwapStash:
    """C6: put one card of the hand into The Stash and take one Stash card."""

    seat: int
    """The mover."""
    give: int
    """The card put face up into The Stash."""
    take: int
    """The Stash card taken."""


@dataclass(frozen=True, slots=True)
class SellSecrets:
    """C7: show two cards of the hand to a seat still in the round."""

    seat: int
    """The mover (the seller)."""
    target: int
    """The seat shown the cards (the buyer); it answers truthfully."""
    show: tuple[int, int]
    """The two cards shown."""


@dataclass(frozen=True, slots=True)
class GiveCard:
    """C4: the target of Share Info picks the card it gives."""

    seat: int
    """The target."""
    card: int
    """The card handed to the mover."""


@dataclass(frozen=True, slots=True)
class HandBack:
    """C7: after a yes, the seller hands back one of the two shown cards."""

    seat: int
    """The seller."""
    card: int
    """One of the shown values."""


@dataclass(frozen=True, slots=True)
class Grab:
    """C8: place two cards of the hand next to The Drop and check it."""

    seat: int
    """The mover."""
    pair: tuple[int, int]
    """The two cards placed."""


@dataclass(frozen=True, slots=True)
class EndTurn:
    """C8: the mover does not grab; the turn passes (C3)."""

    seat: int
    """The mover."""


Action = ShareInfo | SwapStash | SellSecrets | GiveCard | HandBack | Grab | EndTurn
"""Anything a seat may submit."""


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
