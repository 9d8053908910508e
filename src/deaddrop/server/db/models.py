"""Every table, imported in one place so that Alembic sees the complete metadata.

A new feature's tables live in its own `models.py`; import them here.
"""

from __future__ import annotations

from deaddrop.server.accounts.models import User
from deaddrop.server.cards.models import CardsAction, CardsSeat, CardsTable
from deaddrop.server.db.base import Base
from deaddrop.server.db.kv import KeyValue
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.mail.models import MailDelivery
from deaddrop.server.station.bot_seats.models import StationBotDecision
from deaddrop.server.station.bot_seats.pending_models import StationBotPendingPost
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game.models import (
    StationAction,
    StationAnnouncement,
    StationGame,
    StationPouch,
    StationSeat,
    StationSeatHolder,
)
from deaddrop.server.station.standins.models import StationStandIn, StationStandInOption
from deaddrop.server.station.tabs.seen_models import StationTabSeen

metadata = Base.metadata

__all__ = [
    "Base",
    "CardsAction",
    "CardsSeat",
    "CardsTable",
    "KeyValue",
    "LiveEvent",
    "MailDelivery",
    "StationAction",
    "StationAnnouncement",
    "StationBotDecision",
    "StationBotPendingPost",
    "StationGame",
    "StationMessage",
    "StationPouch",
    "StationSeat",
    "StationSeatHolder",
    "StationStandIn",
    "StationStandInOption",
    "StationTabSeen",
    "User",
    "metadata",
]
