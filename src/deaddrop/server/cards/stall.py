"""Rounds left to bots alone must end: after a long stall a bot grabs its likeliest pair.

The rules have no turn limit, and two careful bots (say two heuristics, each keeping the half
pair the other needs) could trade forever while the people who were eliminated wait for the
next round. So when every seat still in the round is played by a bot (or by a stand-in for an
away person) and the round has run STALL_TURNS turns, the seat to move, when it may grab,
grabs the pair the exact posterior of its own view likes best. This is a bot's choice made
from its view (C13) and a legal move (C8), not a new rule: the engine judges it as any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deaddrop.engine.cards.actions import Action, Grab
from deaddrop.engine.cards.inference import CONSISTENT, belief_from_view, pair_success
from deaddrop.engine.cards.legal import legal_actions_for_view

STALL_TURNS = 120
"""Turns of one round after which bots alone are nudged to grab (random 4-seat rounds: ~15)."""
_MAIN_ACTIONS = {"swap_stash", "share_info", "sell_secrets"}


def turns_this_round(view: Mapping[str, Any]) -> int:
    """Main actions taken since this round's deal, from the public log."""
    turns = 0
    for entry in view["log"]:
        if entry["kind"] == "deal":
            turns = 0
        elif entry["kind"] in _MAIN_ACTIONS and entry["public"]:
            turns += 1
    return turns


def closing_grab(view: Mapping[str, Any]) -> Action | None:
    """The likeliest grab when the round has stalled and the viewer may grab; else None."""
    pending = view["pending"]
    if pending is None or pending["kind"] != "grab" or turns_this_round(view) < STALL_TURNS:
        return None
    grabs = [action for action in legal_actions_for_view(view) if isinstance(action, Grab)]
    if not grabs:
        return None
    belief = belief_from_view(view, CONSISTENT)
    return max(grabs, key=lambda grab: pair_success(belief, grab.pair))
