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
from deaddrop.engine.station.engine import ENGINE, Setup, State
from deaddrop.engine.station.game import apply, replay
from deaddrop.engine.station.setup import StationSetup, setup_from_deal, start
from deaddrop.engine.station.state import ABSTAIN, StationState

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
    "StationSetup",
    "StationState",
    "WithdrawOperation",
    "WithdrawVote",
    "all_done",
    "apply",
    "replay",
    "setup_from_deal",
    "start",
]
