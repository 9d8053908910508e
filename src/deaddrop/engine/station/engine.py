"""Station as the engine protocol sees it (`engine/core/protocol.py`)."""

from __future__ import annotations

from deaddrop.engine.core.protocol import Engine
from deaddrop.engine.station.actions import Action
from deaddrop.engine.station.codec import action_from_json, action_to_json
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.setup import Setup, start
from deaddrop.engine.station.state import State
from deaddrop.engine.station.views import view

ENGINE: Engine[Setup, State, Action] = Engine(
    "station", start, apply, view, action_to_json, action_from_json
)
