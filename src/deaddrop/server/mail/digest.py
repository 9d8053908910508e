"""The digest when a Pouch departs: the public Morning Cable, and a pointer to the Dossier.

It is built from the spectator's view, `view(state, None)`, and nothing else of the game: what
a mail says is what the whole table reads on the Cable. Every seat gets the same sentence
about the Dossier, whether or not it holds new results, so the mail reveals nothing about
its reader's role either.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from deaddrop.engine.station.views import view
from deaddrop.server.accounts.models import User
from deaddrop.server.mail.deliveries import DeliveryKey, recorded
from deaddrop.server.mail.message import Mail, one_line, site_url
from deaddrop.server.mail.models import DIGEST
from deaddrop.server.mail.recipients import Recipient, opted_in, zone_of
from deaddrop.server.mail.render import render_mail
from deaddrop.server.mail.settings import MailSettings
from deaddrop.server.station.game.models import StationGame, StationPouch, StationSeat
from deaddrop.server.station.tabs.context import cable_entry, when_text

MAX_AGE = timedelta(hours=12)
"""A Pouch that departed longer ago than this is no news: no digest (e.g. when mail is first
turned on, or someone opts in, old Pouches are not mailed)."""


async def digest_candidates(db: AsyncSession, now: datetime, *, limit: int) -> list[DeliveryKey]:
    """(game, day, user) of recent Pouches whose opted-in players have no digest row yet."""
    newer = aliased(StationPouch)
    later_pouch = exists().where(
        newer.game_id == StationPouch.game_id, newer.day > StationPouch.day
    )
    rows = await db.execute(
        select(StationPouch.game_id, StationPouch.day, User.id)
        .join(StationSeat, StationSeat.game_id == StationPouch.game_id)
        .join(User, User.id == StationSeat.user_id)
        .where(
            StationPouch.deadline > now - MAX_AGE,
            StationSeat.seat.is_not(None),
            opted_in(DIGEST),
            ~later_pouch,  # after downtime only the newest Pouch of a game is news
            ~recorded(DIGEST, StationPouch.game_id, StationPouch.day, StationSeat.user_id),
        )
        .order_by(StationPouch.deadline, StationPouch.game_id, StationSeat.seat)
        .limit(limit)
    )
    return [DeliveryKey(game_id, day, user_id, DIGEST) for game_id, day, user_id in rows]


async def compose_digest(
    db: AsyncSession, key: DeliveryKey, recipient: Recipient, settings: MailSettings, now: datetime
) -> Mail | str:
    """The digest for `key` to its recipient, or why it should not be sent (any more)."""
    newest = await db.scalar(
        select(StationPouch.day)
        .where(StationPouch.game_id == key.game_id)
        .order_by(StationPouch.day.desc())
        .limit(1)
    )
    if newest != key.day:
        return "a later Pouch has departed since"
    public = view(recipient.state, None)  # the spectator's view: public things only
    cables = [cable for cable in public["cables"] if cable["day"] == key.day]
    if not cables:
        return "no Morning Cable for that day"
    game, user = recipient.game, recipient.user
    zone = zone_of(user)
    base = f"/games/{game.public_id}"
    early = await db.scalar(
        select(StationPouch.early).where(
            StationPouch.game_id == key.game_id, StationPouch.day == key.day
        )
    )
    context: dict[str, Any] = {
        "title": one_line(game.title),
        "day": key.day,
        "early": bool(early),
        "cable": cable_entry(cables[0]),
        "over": public["over"],
        "paused": game.status == "paused",
        "next_deadline": _next_deadline(game, zone),
        "cable_url": site_url(settings, f"{base}/cable"),
        "dossier_url": site_url(settings, f"{base}/dossier"),
        "profile_url": site_url(settings, "/account"),
    }
    text, html = render_mail("digest", context)
    if public["over"]:
        subject = f"{context['title']}: the game is over after the Pouch of Day {key.day}"
    else:
        subject = f"{context['title']}: the Morning Cable of Day {key.day}"
    return Mail(
        to=str(user.email),
        subject=subject,
        text=text,
        html=html,
        message_id=f"digest.{game.public_id}.d{key.day}.u{key.user_id}",
    )


def _next_deadline(game: StationGame, zone: ZoneInfo) -> str | None:
    """The running day's deadline in the reader's zone, or None (paused, over)."""
    if game.status != "running" or game.deadline is None:
        return None
    return when_text(game.deadline, zone)
