"""Station: the hidden-role game's pure rules engine (docs/rules/station.md, S1–S32, S40)."""

from deaddrop.engine.station.actions import (
    Action,
    CastVote,
    EditFinalCable,
    MarkDone,
    RemovePlayer,
    ResolvePouch,
    SaveOperation,
    SaveOrder,
    SendWhisper,
    WithdrawOperation,
    WithdrawVote,
    all_done,
)
from deaddrop.engine.station.codec import (
    action_from_json,
    action_to_json,
    setup_from_json,
    setup_to_json,
)
from deaddrop.engine.station.engine import ENGINE
from deaddrop.engine.station.game import apply, replay
from deaddrop.engine.station.setup import Setup, setup_from_deal, start
from deaddrop.engine.station.state import ABSTAIN, State

__all__ = [
    "ABSTAIN",
    "ENGINE",
    "Action",
    "CastVote",
    "EditFinalCable",
    "MarkDone",
    "RemovePlayer",
    "ResolvePouch",
    "SaveOperation",
    "SaveOrder",
    "SendWhisper",
    "Setup",
    "State",
    "WithdrawOperation",
    "WithdrawVote",
    "action_from_json",
    "action_to_json",
    "all_done",
    "apply",
    "replay",
    "setup_from_deal",
    "setup_from_json",
    "setup_to_json",
    "start",
]
