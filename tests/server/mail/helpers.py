"""Driving mailers in the app's event loop, and setting people's mail preferences."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.mail.mailer import Mailer
from deaddrop.server.mail.models import MailDelivery
from deaddrop.server.mail.send import Sender
from deaddrop.server.mail.settings import MailSettings
from tests.server.station.games.helpers import RunDB, Table, user_named


def address(username: str) -> str:
    """The test address of a username."""
    return f"{username}@players.test"


def set_mail(
    run_db: RunDB,
    username: str,
    *,
    email: str | None = "",
    digests: bool = True,
    reminders: bool = True,
    zone: str | None = None,
) -> None:
    """Store someone's address (default: `address(username)`) and mail choices directly."""

    async def store(db: AsyncSession) -> None:
        user = await user_named(db, username)
        user.email = address(username) if email == "" else email
        user.mail_digests = digests
        user.mail_reminders = reminders
        if zone is not None:
            user.time_zone = zone
        await db.commit()

    run_db(store)


def mailer(
    table: Table, settings: MailSettings, *, send: Sender | None = None, name: str = "m1"
) -> Mailer:
    """A mailer on the table's database and clock."""
    return Mailer(table.app.state.sessionmaker, table.clock, settings, send=send, name=name)


def run_mailer(table: Table, chosen: Mailer) -> int:
    """One pass of a mailer in the app's event loop; the mails it sent."""

    async def once(_db: AsyncSession) -> int:
        return await chosen.run_once()

    sent: int = table.run_db(once)
    return sent


def ledger(table: Table) -> list[MailDelivery]:
    """Every row of the delivery ledger, in order."""

    async def read(db: AsyncSession) -> list[MailDelivery]:
        return list(await db.scalars(select(MailDelivery).order_by(MailDelivery.id)))

    rows: list[MailDelivery] = table.run_db(read)
    return rows


def vote_all(table: Table, target: int, seats: list[int] | None = None) -> None:
    """Every living seat (or `seats`) votes for `target` through the Floor's form."""
    state = table.state()
    for seat in seats if seats is not None else state.living():
        response = table.people[seat].form(table.path("/vote"), {"vote": table.codenames[target]})
        assert response.status_code == 303, response.text
