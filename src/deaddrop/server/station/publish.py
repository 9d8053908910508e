"""Events after commit, in this process: each listener hears only what the engine's audience
allows, and the Pouch runner hears when a save made a Pouch due at once (S41).

Open pages do not listen here: they read the journal (`server/live/`, `live_events.py`),
which also reaches other processes and replays after a reconnect.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from deaddrop.engine.core.events import Event

logger = logging.getLogger("deaddrop.station")

Listener = Callable[[str, Event], None]
"""Called with (game public id, event) for every event its audience allows it to see."""


@dataclass(frozen=True)
class Subscription:
    """One listener on one game, as a seat (or None for the public)."""

    game_id: str
    seat: int | None
    listener: Listener


class Hub:
    """Fans committed events out to subscribers, filtered by audience."""

    def __init__(self) -> None:
        self._subscriptions: list[Subscription] = []
        self._due_listeners: list[Callable[[], None]] = []

    def on_pouch_due(self, listener: Callable[[], None]) -> None:
        """Be told when a Pouch became due early (S41), e.g. to wake the in-process runner."""
        self._due_listeners.append(listener)

    def off_pouch_due(self, listener: Callable[[], None]) -> None:
        """Stop being told."""
        if listener in self._due_listeners:
            self._due_listeners.remove(listener)

    def pouch_due(self) -> None:
        """A committed change made a Pouch due now."""
        for listener in list(self._due_listeners):
            listener()

    def subscribe(self, game_id: str, seat: int | None, listener: Listener) -> Subscription:
        """Listen to a game as a seat; None hears public events only."""
        subscription = Subscription(game_id, seat, listener)
        self._subscriptions.append(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Stop listening."""
        if subscription in self._subscriptions:
            self._subscriptions.remove(subscription)

    def publish(self, game_id: str, events: Iterable[Event]) -> None:
        """Deliver committed events; call only after the transaction that made them commits."""
        for event in events:
            for subscription in list(self._subscriptions):
                if subscription.game_id == game_id and event.audience.includes(subscription.seat):
                    try:
                        subscription.listener(game_id, event)
                    except Exception:  # one broken listener must not stop the others
                        logger.exception("listener failed on %s", event.kind)


HUB = Hub()
"""The process's hub: the service and the runner publish here after commit."""
