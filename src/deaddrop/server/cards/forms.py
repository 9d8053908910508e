"""Reading the Cards forms: a new table, and a move (translated to the engine's action)."""

from __future__ import annotations

from deaddrop.engine.cards import (
    Action,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    ShareInfo,
    State,
    SwapStash,
)
from deaddrop.server.cards.runtime import PUBLIC_TURN_SECONDS
from deaddrop.server.cards.service import ActionMaker, TableForm
from deaddrop.server.hosting import forms
from deaddrop.server.hosting.forms import Fields, flag
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.numbers import BadNumber, whole_number


def number(fields: Fields, name: str, default: int | None = None) -> int:
    """An integer field; Refused when missing or malformed."""
    raw = fields.get(name, "").strip()
    if not raw and default is not None:
        return default
    try:
        return whole_number(raw, name)
    except BadNumber:
        raise Refused(f"Choose a {name.replace('_', ' ')}.") from None


def read_table_form(fields: Fields) -> TableForm:
    """A new table: `players`, `seat1`…`seat3` (friend or a bot), options, `public`, timer."""
    players = number(fields, "players", 2)
    if not 2 <= players <= 4:
        raise Refused("A table has 2 to 4 seats (rule C2).", "C2")
    others = tuple(fields.get(f"seat{i}", "heuristic").strip() for i in range(1, players))
    public = flag(fields, "public")
    timer = fields.get("turn_seconds", "").strip()
    if timer == "off":
        turn_seconds = None
    elif timer:
        turn_seconds = number(fields, "turn_seconds")
    else:
        # Issue 6: friends wait for each other by default; strangers get a 60-second timer.
        turn_seconds = PUBLIC_TURN_SECONDS if public else None
    return TableForm(
        others=others,
        grab_face_down=flag(fields, "grab_face_down"),
        tokens_to_win=number(fields, "tokens_to_win", 3),
        public=public,
        turn_seconds=turn_seconds,
    )


def solo_form(fields: Fields) -> TableForm:
    """One click against bots: `opponents` bots (default 2) of kind `bot` (default heuristic)."""
    count = number(fields, "opponents", 2)
    if not 1 <= count <= 3:
        raise Refused("Play against 1 to 3 bots (rule C2).", "C2")
    bot = fields.get("bot", "heuristic").strip() or "heuristic"
    return TableForm(others=(bot,) * count, tokens_to_win=number(fields, "tokens_to_win", 3))


def version_of(fields: Fields) -> int | None:
    """The table version the page was built from, when the form sent one."""
    return forms.version_of(fields, "The form is malformed; reload the page.")


def _pair(raw: str) -> tuple[int, int]:
    parts = raw.replace("+", "-").split("-")
    if len(parts) != 2:
        raise Refused("Choose two cards.")
    try:
        return (whole_number(parts[0], "pair"), whole_number(parts[1], "pair"))
    except BadNumber:
        raise Refused("Choose two cards.") from None


def action_maker(fields: Fields) -> ActionMaker:
    """The move a form names (`kind` and its fields), built for the acting seat."""
    kind = fields.get("kind", "")

    def make(state: State, seat: int) -> Action:
        if kind == "share_info":
            take = fields.get("take", "").strip()
            target = number(fields, "target")
            return ShareInfo(
                seat, target, number(fields, "give"), number(fields, "take") if take else None
            )
        if kind == "swap_stash":
            return SwapStash(seat, number(fields, "give"), number(fields, "take"))
        if kind == "sell_secrets":
            show = (number(fields, "show_a"), number(fields, "show_b"))
            return SellSecrets(seat, number(fields, "target"), show)
        if kind == "give_card":
            return GiveCard(seat, number(fields, "card"))
        if kind == "hand_back":
            return HandBack(seat, number(fields, "card"))
        if kind == "grab":
            # C8: a wrong grab eliminates; the form asks for an explicit confirmation.
            if not flag(fields, "confirm"):
                raise Refused("Tick the box to confirm the grab: a wrong sum puts you out (C8).")
            return Grab(seat, _pair(fields.get("pair", "")))
        if kind == "end_turn":
            return EndTurn(seat)
        raise Refused("Choose a move.")

    return make
