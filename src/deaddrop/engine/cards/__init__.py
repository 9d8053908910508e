"""Cards: the rules engine of the deduction card game (rules/cards.md, C1–C12).

Pure and deterministic: `new_game(setup)`, `legal_actions(state)`, `apply(state, action)`,
`view(state, seat)`, `replay(setup, log)`, and game records in and out.
"""

from deaddrop.engine.cards.actions import (
    Action,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    ShareInfo,
    SwapStash,
    action_from_json,
    action_to_json,
)
from deaddrop.engine.cards.deck import DECK, HAND_SIZES, Deal, check_deal, deal_from_rng
from deaddrop.engine.cards.legal import legal_actions
from deaddrop.engine.cards.record import Record, RecordError, parse_record
from deaddrop.engine.cards.record_export import export_record
from deaddrop.engine.cards.record_play import outcome, play_record, record_game, replay_record
from deaddrop.engine.cards.replay import replay
from deaddrop.engine.cards.rounds import new_game
from deaddrop.engine.cards.rules import apply
from deaddrop.engine.cards.state import (
    ChooseAction,
    ChooseGive,
    ChooseHandBack,
    MayGrab,
    Options,
    Pending,
    RoundResult,
    Setup,
    State,
)
from deaddrop.engine.cards.views import log_entry, pending_view, round_reveal, view

__all__ = [
    "DECK",
    "HAND_SIZES",
    "Action",
    "ChooseAction",
    "ChooseGive",
    "ChooseHandBack",
    "Deal",
    "EndTurn",
    "GiveCard",
    "Grab",
    "HandBack",
    "MayGrab",
    "Options",
    "Pending",
    "Record",
    "RecordError",
    "RoundResult",
    "SellSecrets",
    "Setup",
    "ShareInfo",
    "State",
    "SwapStash",
    "action_from_json",
    "action_to_json",
    "apply",
    "check_deal",
    "deal_from_rng",
    "export_record",
    "legal_actions",
    "log_entry",
    "new_game",
    "outcome",
    "parse_record",
    "pending_view",
    "play_record",
    "record_game",
    "replay",
    "replay_record",
    "round_reveal",
    "view",
]
