"""JSON for what the server stores: a game's setup and its action log (replay rebuilds it)."""

from __future__ import annotations

from typing import Any, TypeGuard

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.setup import Setup

JSON = dict[str, Any]

_KINDS: dict[str, type[A.Action]] = {
    "save_operation": A.SaveOperation,
    "save_order": A.SaveOrder,
    "withdraw_operation": A.WithdrawOperation,
    "cast_vote": A.CastVote,
    "withdraw_vote": A.WithdrawVote,
    "send_whisper": A.SendWhisper,
    "edit_final_cable": A.EditFinalCable,
    "mark_done": A.MarkDone,
    "resolve_pouch": A.ResolvePouch,
    "remove_player": A.RemovePlayer,
}
_NAMES = {cls: name for name, cls in _KINDS.items()}
_FIELDS: dict[type[A.Action], tuple[tuple[str, type], ...]] = {
    A.SaveOperation: (("seat", int), ("target", int)),
    A.SaveOrder: (("seat", int), ("target", int), ("performer", int)),
    A.WithdrawOperation: (("seat", int),),
    A.CastVote: (("seat", int), ("choice", int)),
    A.WithdrawVote: (("seat", int),),
    A.SendWhisper: (("seat", int), ("recipient", int), ("text", str)),
    A.EditFinalCable: (("seat", int), ("text", str)),
    A.MarkDone: (("seat", int), ("done", bool)),
    A.ResolvePouch: (),
    A.RemovePlayer: (("seat", int),),
}


def action_to_json(action: A.Action) -> JSON:
    """An action as a JSON object with a `kind`."""
    out: JSON = {"kind": _NAMES[type(action)]}
    for name, _ in _FIELDS[type(action)]:
        out[name] = getattr(action, name)
    return out


def action_from_json(data: Any) -> A.Action:
    """The action a JSON object describes; IllegalAction("format") when it is malformed."""
    if not isinstance(data, dict) or data.get("kind") not in _KINDS:
        raise IllegalAction("format", f"not a Station action: {data!r:.80}")
    cls = _KINDS[data["kind"]]
    values: list[Any] = []
    for name, kind in _FIELDS[cls]:
        value = data.get(name)
        if type(value) is not kind:
            raise IllegalAction("format", f"{data['kind']}: {name} must be a {kind.__name__}")
        values.append(value)
    return cls(*values)


def setup_to_json(setup: Setup) -> JSON:
    """A setup as JSON."""
    return {
        "players": list(setup.players),
        "seed": setup.seed,
        "deal": None if setup.deal is None else [list(pair) for pair in setup.deal],
    }


def setup_from_json(data: Any) -> Setup:
    """The setup a JSON object describes; IllegalAction("format") when it is malformed."""
    if not isinstance(data, dict):
        raise IllegalAction("format", "a setup is a JSON object")
    players, seed, deal = data.get("players"), data.get("seed"), data.get("deal")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise IllegalAction("format", "setup: players must be a list of names")
    if type(seed) is not int:
        raise IllegalAction("format", "setup: seed must be an integer")
    if deal is not None and not is_pairs(deal):
        raise IllegalAction("format", "setup: deal must be a list of [codename, role] pairs")
    fixed = None if deal is None else tuple((codename, role) for codename, role in deal)
    return Setup(tuple(players), seed, fixed)


def is_pairs(value: Any) -> TypeGuard[list[list[str]]]:
    """Whether a value is a list of [str, str] pairs (a deal: codename and role per seat)."""
    if not isinstance(value, list):
        return False
    for pair in value:  # a loop, not all() over a generator: a scenario's table is read each time
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and isinstance(pair[0], str)
            and isinstance(pair[1], str)
        ):
            return False
    return True
