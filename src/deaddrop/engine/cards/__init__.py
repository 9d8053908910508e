"""Cards: the rules engine of the deduction card game (docs/rules/cards.md, C1–C12).

Pure and deterministic. A game is a `Setup` (players, seed, options, optionally round 1's
first seat and given deals) plus its action log: `start(setup)`, then
`apply(state, action) -> (state, events)` for each decision; `replay(setup, log)` rebuilds the
state exactly. `legal_actions(state)` lists the distinct options of the seat that must decide.

Decisions (`state.pending`; each has `.seat`, the seat that decides):

- `ChooseAction(mover)`: `ShareInfo`, `SwapStash` or `SellSecrets`.
- `ChooseGive(target, mover, offered)`: Share Info with a seat in the round; the target picks
  the card it gives (`GiveCard`) without seeing `offered` (C4). With an eliminated seat the
  mover names the face-up card in `ShareInfo.take` and there is no second step (C5).
- `ChooseHandBack(seller, buyer, show)`: a sale answered yes; the seller picks which shown card
  goes back (`HandBack`); the buyer's card of the sum's value moves by itself (C7). The answer
  is computed from the buyer's hand, never chosen.
- `MayGrab(mover)`: the action is done; `Grab(pair)` (C8) or `EndTurn`; then the next seat
  still in the round moves (C3). The round ends on a matching grab or the last agent standing
  (C9); the next round is dealt at once from the game's RNG (C10); `pending` is None once
  someone holds `tokens_to_win` tokens (C11).

Events carry their audience. Public: `deal`, `swap_stash`, `share_info` (the cards only when
face up, C5), `sell_secrets` (answer, cards_moved), `grab` (pair None when `grab_face_down`),
`eliminated` (hand and pair face up), `round_end` (every card, C10), `game_end`. Private to
the parties: `hand` (a seat's dealt hand), `share_info_cards`, `sell_secrets_shown`,
`sell_secrets_cards`, and `drop_checked` to the grabber alone, who sees The Drop's value
whether the grab matched or not (the rulebook: they "secretly check The Drop").

`view(state, seat)` (seat None: a spectator) is the JSON-ready C12 view; `export_record` and
`replay_record` write and read the game-record format of scenarios/cards/README.md.
"""

# The actions and the state's records are re-exported as their modules list them (`__all__`),
# so that a new one is named in one place.
from deaddrop.engine.cards import actions, state
from deaddrop.engine.cards.actions import *  # noqa: F403
from deaddrop.engine.cards.codec import action_from_json, action_to_json
from deaddrop.engine.cards.deck import DECK, HAND_SIZES, Deal, check_deal, deal_from_rng
from deaddrop.engine.cards.engine import ENGINE
from deaddrop.engine.cards.legal import legal_actions
from deaddrop.engine.cards.record import Record, RecordError, parse_record
from deaddrop.engine.cards.record_export import export_record
from deaddrop.engine.cards.record_play import outcome, play_record, record_game, replay_record
from deaddrop.engine.cards.replay import replay
from deaddrop.engine.cards.rounds import start
from deaddrop.engine.cards.rules import apply
from deaddrop.engine.cards.state import *  # noqa: F403
from deaddrop.engine.cards.views import log_entry, pending_view, round_reveal, view

__all__ = [
    *actions.__all__,
    *state.__all__,
    "DECK",
    "ENGINE",
    "HAND_SIZES",
    "Deal",
    "Record",
    "RecordError",
    "action_from_json",
    "action_to_json",
    "apply",
    "check_deal",
    "deal_from_rng",
    "export_record",
    "legal_actions",
    "log_entry",
    "outcome",
    "parse_record",
    "pending_view",
    "play_record",
    "record_game",
    "replay",
    "replay_record",
    "round_reveal",
    "start",
    "view",
]
