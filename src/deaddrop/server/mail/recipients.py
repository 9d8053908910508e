"""Who may get a mail about a game: a current seat holder who opted in and has an address."""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import ColumnElement, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from deaddrop.engine.station import State
from deaddrop.server.accounts.models import User
from deaddrop.server.mail.deliveries import DeliveryKey
from deaddrop.server.mail.models import DIGEST, REMINDER
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.game.store import load_state


@dataclass(frozen=True, slots=True)
class Recipient:
    """Everything a mail about one game is written from."""

    user: User
    """The account (address, time zone)."""
    game: StationGame
    """The game row (title, status, deadline)."""
    seat: int
    """The engine seat the user holds now."""
    state: State
    """The game's engine state now; mails read it only through `views.view`."""


WANTS = {DIGEST: "mail_digests", REMINDER: "mail_reminders"}
"""The account's preference that asks for each kind of mail."""


def opted_in(kind: str) -> ColumnElement[bool]:
    """The SQL condition: this account wants mails of `kind` and has an address."""
    wants: InstrumentedAttribute[bool] = getattr(User, WANTS[kind])
    return wants.is_(True) & User.email.is_not(None) & (User.email != "")


async def load_recipient(db: AsyncSession, key: DeliveryKey) -> Recipient | str:
    """The recipient of the mail `key`, or why there is none any more."""
    found = (
        await db.execute(
            select(User, StationGame, StationSeat.seat)
            .join(StationSeat, StationSeat.user_id == User.id)
            .join(StationGame, StationGame.id == StationSeat.game_id)
            .where(User.id == key.user_id, StationGame.id == key.game_id)
        )
    ).first()
    if found is None:
        return "no longer holds a seat in the game"  # replaced by the host, or the game is gone
    user, game, seat = found
    if not user.email:
        return "no e-mail address"
    if not getattr(user, WANTS[key.kind]):
        return "opted out"
    if seat is None or game.setup is None:
        return "the game has not started"
    if game.practice:
        # A practice game is one person against bots over minutes: a mail per Pouch would
        # arrive long after the game it speaks of is over.
        return "a practice game sends no mail"
    return Recipient(user, game, seat, await load_state(db, game))


def zone_of(user: User) -> ZoneInfo:
    """The user's time zone; UTC when the stored name is unknown to this machine."""
    try:
        return ZoneInfo(user.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")
