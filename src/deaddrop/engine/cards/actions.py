"""What a seat may submit. Each action names its seat; `rules.apply` checks it is theirs to take.

A turn is one of ShareInfo, SwapStash or SellSecrets (answered by GiveCard or followed by
HandBack when the rules call for a second decision), then Grab or EndTurn.
"""

from __future__ import annotations

from deaddrop.engine.core.records import record

__all__ = [
    "Action",
    "EndTurn",
    "GiveCard",
    "Grab",
    "HandBack",
    "SellSecrets",
    "ShareInfo",
    "SwapStash",
]
"""What the package re-exports: every action, and their union."""


@record
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


@record
class SwapStash:
    """C6: put one card of the hand into The Stash and take one Stash card."""

    seat: int
    """The mover."""
    give: int
    """The card put face up into The Stash."""
    take: int
    """The Stash card taken."""


@record
class SellSecrets:
    """C7: show two cards of the hand to a seat still in the round."""

    seat: int
    """The mover (the seller)."""
    target: int
    """The seat shown the cards (the buyer); it answers truthfully."""
    show: tuple[int, int]
    """The two cards shown."""


@record
class GiveCard:
    """C4: the target of Share Info picks the card it gives."""

    seat: int
    """The target."""
    card: int
    """The card handed to the mover."""


@record
class HandBack:
    """C7: after a yes, the seller hands back one of the two shown cards."""

    seat: int
    """The seller."""
    card: int
    """One of the shown values."""


@record
class Grab:
    """C8: place two cards of the hand next to The Drop and check it."""

    seat: int
    """The mover."""
    pair: tuple[int, int]
    """The two cards placed."""


@record
class EndTurn:
    """C8: the mover does not grab; the turn passes (C3)."""

    seat: int
    """The mover."""


Action = ShareInfo | SwapStash | SellSecrets | GiveCard | HandBack | Grab | EndTurn
"""Anything a seat may submit."""
