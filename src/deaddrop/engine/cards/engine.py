"""Cards as the engine protocol sees it (`engine/core/protocol.py`)."""

from __future__ import annotations

from deaddrop.engine.cards.actions import Action
from deaddrop.engine.cards.codec import action_from_json, action_to_json
from deaddrop.engine.cards.rounds import start
from deaddrop.engine.cards.rules import apply
from deaddrop.engine.cards.state import Setup, State
from deaddrop.engine.cards.views import view
from deaddrop.engine.core.protocol import Engine

ENGINE: Engine[Setup, State, Action] = Engine(
    "cards", start, apply, view, action_to_json, action_from_json
)
