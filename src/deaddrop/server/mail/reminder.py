"""The reminder before a deadline, to a living player who has left something unsaved today.

What is unsaved is read from the seat's own view (`view(state, seat)["me"]`): no vote saved,
or no Operation while the engine offers it targets (a Ringleader on Day 1 has none to save).
A player who marked themselves done for the day (S41) has decided, and gets no reminder.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.views import view
from deaddrop.server.accounts.models import User
from deaddrop.server.mail.deliveries import DeliveryKey, recorded
from deaddrop.server.mail.message import Mail, one_line, site_url
from deaddrop.server.mail.models import REMINDER
from deaddrop.server.mail.recipients import Recipient, opted_in, zone_of
from deaddrop.server.mail.render import render_mail
from deaddrop.server.mail.settings import MailSettings
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.tabs.context import when_text

OPERATION = "operation"
VOTE = "vote"


def reminder_window(settings: MailSettings, day_minutes: int) -> timedelta:
    """How long before the deadline the reminder goes: the setting, at most half the day
    (so a quick game's players are not mailed the moment each short day begins)."""
    return min(
        timedelta(minutes=settings.reminder_minutes_before), timedelta(minutes=day_minutes) / 2
    )


def unsaved(me: dict[str, Any], done: bool) -> tuple[str, ...]:
    """What a seat's own view says is still open today: operation and/or vote."""
    if not me["alive"] or done:
        return ()
    options = me["options"]
    can_operate = bool(options["ability_targets"] or options["order_targets"])
    missing = []
    if me["operation"] is None and can_operate:
        missing.append(OPERATION)
    if me["vote"] is None:
        missing.append(VOTE)
    return tuple(missing)


async def reminder_candidates(
    db: AsyncSession, settings: MailSettings, now: datetime
) -> list[DeliveryKey]:
    """(game, day, user) of running games inside their reminder window, not yet reminded.

    Not limited: players who saved everything stay candidates without a row all day, and a
    limit would let them crowd out the ones to remind (a window holds a few hundred at most).
    """
    if settings.reminder_minutes_before <= 0:
        return []
    rows = await db.execute(
        select(
            StationGame.id,
            StationGame.day,
            User.id,
            StationGame.day_minutes,
            StationGame.deadline,
        )
        .join(StationSeat, StationSeat.game_id == StationGame.id)
        .join(User, User.id == StationSeat.user_id)
        .where(
            StationGame.status == "running",  # not paused, not over
            StationGame.deadline > now,
            StationGame.deadline <= now + timedelta(minutes=settings.reminder_minutes_before),
            StationSeat.seat.is_not(None),
            opted_in(REMINDER),
            ~recorded(REMINDER, StationGame.id, StationGame.day, StationSeat.user_id),
        )
        .order_by(StationGame.deadline, StationGame.id, StationSeat.seat)
    )
    return [
        DeliveryKey(game_id, day, user_id, REMINDER)
        for game_id, day, user_id, day_minutes, deadline in rows
        if deadline is not None and deadline - reminder_window(settings, day_minutes) <= now
    ]


async def compose_reminder(
    db: AsyncSession, key: DeliveryKey, recipient: Recipient, settings: MailSettings, now: datetime
) -> Mail | str:
    """The reminder for `key` to its recipient, or why it should not be sent (any more)."""
    game, state, seat = recipient.game, recipient.state, recipient.seat
    if game.status != "running" or game.deadline is None:
        return "the game is not running"
    if game.day != key.day or state.day != key.day or game.deadline <= now:
        return "the day is over"
    own = view(state, seat)
    me = own["me"]
    missing = unsaved(me, done=me["codename"] in own["done"])
    if not missing:
        return "everything is saved, or the player is done or burned"
    zone = zone_of(recipient.user)
    base = f"/games/{game.public_id}"
    deadline = when_text(game.deadline, zone)
    title = one_line(game.title)
    context: dict[str, Any] = {
        "title": title,
        "day": key.day,
        "deadline": deadline,
        "left": _duration(game.deadline - now),
        "missing_operation": OPERATION in missing,
        "missing_vote": VOTE in missing,
        "operations_url": site_url(settings, f"{base}/operations"),
        "floor_url": site_url(settings, f"{base}/floor"),
        "profile_url": site_url(settings, "/account"),
    }
    text, html = render_mail("reminder", context)
    return Mail(
        to=str(recipient.user.email),
        subject=f"{title}: Day {key.day} ends {deadline}",
        text=text,
        html=html,
        message_id=f"reminder.{game.public_id}.d{key.day}.u{key.user_id}",
    )


def _duration(span: timedelta) -> str:
    """A time left in words: "1 hour 5 minutes", "45 minutes"."""
    minutes = max(1, round(span.total_seconds() / 60))
    hours, minutes = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour{'s' * (hours != 1)}")
    if minutes:
        parts.append(f"{minutes} minute{'s' * (minutes != 1)}")
    return " ".join(parts)
