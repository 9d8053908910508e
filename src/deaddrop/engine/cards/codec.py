"""The Cards action codec under the name every engine uses (`engine/core/protocol.py`)."""

from deaddrop.engine.cards.actions import action_from_json, action_to_json

__all__ = ["action_from_json", "action_to_json"]
