"""The mailer: digests of departed Pouches, reminders before deadlines, retries; a loop.

Every mail is claimed in the ledger and committed before it is sent (`deliveries.py`), so
any number of mailers (`deaddrop serve` processes, `deaddrop worker`s) may run at once, and
a restart sends nothing twice. The mailer reads the time from the same `Clock` as the Pouch
runner, so tests move both together.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.background import DatabaseWorker, Loop
from deaddrop.server.clock import Clock
from deaddrop.server.mail import deliveries
from deaddrop.server.mail.deliveries import Claim, DeliveryKey
from deaddrop.server.mail.digest import compose_digest, digest_candidates
from deaddrop.server.mail.message import Mail, build_message
from deaddrop.server.mail.models import DIGEST, FAILED
from deaddrop.server.mail.recipients import Recipient, load_recipient
from deaddrop.server.mail.reminder import compose_reminder, reminder_candidates
from deaddrop.server.mail.send import Sender, smtp_sender
from deaddrop.server.mail.settings import MailSettings
from deaddrop.server.station.game.models import StationGame

logger = logging.getLogger("deaddrop.mail")

BATCH = 200
"""Digest candidates and retries looked at per round."""
MAX_ROUNDS = 50
"""Bound on rounds per `run_once` (a round stops the pass when it sends nothing new)."""
POLL_SECONDS = 30.0
"""Longest sleep between passes: Pouches are resolved by other processes too."""
AFTER_DEADLINE = timedelta(seconds=2)
"""Look again this long after a deadline, when the runner will have resolved the Pouch."""

Compose = Callable[
    [AsyncSession, DeliveryKey, Recipient, MailSettings, datetime], Awaitable[Mail | str]
]


class Mailer(DatabaseWorker):
    """Sends each digest and reminder at most once per (game, day, user), retrying failures."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Clock,
        settings: MailSettings,
        *,
        send: Sender | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(sessionmaker, clock, name, Loop(logger, "mailer", POLL_SECONDS))
        self.settings = settings
        self.send = send or smtp_sender(settings)

    async def run_once(self) -> int:
        """Send what is due now: retries, digests, reminders; returns the mails sent."""
        sent = 0
        for _ in range(MAX_ROUNDS):
            progressed = 0
            progressed += await self._retries()
            progressed += await self._new(await self._candidates(digests=True))
            progressed += await self._new(await self._candidates(digests=False))
            sent += progressed
            if not progressed:
                break
        return sent

    async def one_pass(self) -> float:
        """Send what is due; sleep until the next deadline, reminder or poll."""
        await self.run_once()
        return await self.seconds_to_next()

    async def seconds_to_next(self) -> float:
        """Until the next moment worth a look (a reminder window opens, a Pouch is resolved)."""
        now = self.clock.now()
        async with self.sessionmaker() as db:
            deadline = await db.scalar(
                select(func.min(StationGame.deadline)).where(
                    StationGame.status == "running", StationGame.deadline > now
                )
            )
        if deadline is None:
            return POLL_SECONDS
        moments = [deadline + AFTER_DEADLINE]
        window = timedelta(minutes=self.settings.reminder_minutes_before)
        if deadline - window > now:
            moments.append(deadline - window)
        wait = (min(moments) - now).total_seconds()
        return max(0.5, min(POLL_SECONDS, wait))

    async def _candidates(self, *, digests: bool) -> list[DeliveryKey]:
        now = self.clock.now()
        async with self.sessionmaker() as db:
            if digests:
                return await digest_candidates(db, now, limit=BATCH)
            return await reminder_candidates(db, self.settings, now)

    async def _new(self, keys: list[DeliveryKey]) -> int:
        """Compose, claim, send: for mails nobody has claimed yet."""
        sent = 0
        for key in keys:
            now = self.clock.now()
            try:
                async with self.sessionmaker() as db:
                    mail = await self._compose(db, key)
            except Exception:
                # One broken game must not stop the other mails; it is tried again next pass.
                logger.exception("composing mail %s failed", key)
                continue
            if isinstance(mail, str):
                continue  # nothing to send (e.g. everything saved): no row, look again later
            async with self.sessionmaker() as db:
                claim = await deliveries.claim_new(db, key, name=self.name, now=now)
            if claim is None:
                continue  # another mailer has it
            sent += await self._send(claim, mail)
        return sent

    async def _retries(self) -> int:
        """Claim again what failed or was abandoned, rebuild it from the state now, send."""
        sent = 0
        now = self.clock.now()
        async with self.sessionmaker() as db:
            rows = await deliveries.due_again(db, now, limit=BATCH)
        for row in rows:
            async with self.sessionmaker() as db:
                claim = await deliveries.reclaim(db, row, name=self.name, now=self.clock.now())
            if claim is None:
                continue
            try:
                async with self.sessionmaker() as db:
                    mail = await self._compose(db, claim.key)
            except Exception as error:
                await self._failed(claim, error)
                continue
            if isinstance(mail, str):
                async with self.sessionmaker() as db:
                    await deliveries.record_dropped(db, claim, self.clock.now(), mail)
                continue
            sent += await self._send(claim, mail)
        return sent

    async def _compose(self, db: AsyncSession, key: DeliveryKey) -> Mail | str:
        # Every mail is written to a recipient who still holds the seat and still wants it.
        recipient = await load_recipient(db, key)
        if isinstance(recipient, str):
            return recipient
        compose: Compose = compose_digest if key.kind == DIGEST else compose_reminder
        return await compose(db, key, recipient, self.settings, self.clock.now())

    async def _send(self, claim: Claim, mail: Mail) -> int:
        """Send a claimed mail and record the outcome; 1 if the SMTP server took it."""
        message = build_message(self.settings, mail, self.clock.now())
        try:
            await self.send(message)
        except Exception as error:
            await self._failed(claim, error)
            return 0
        async with self.sessionmaker() as db:
            if not await deliveries.record_sent(db, claim, self.clock.now()):
                logger.warning("mail %s sent, but its claim had been taken over", claim.key)
        logger.info(
            "mail sent: %s day %d to user %d", claim.key.kind, claim.key.day, claim.key.user_id
        )
        return 1

    async def _failed(self, claim: Claim, error: Exception) -> None:
        reason = f"{type(error).__name__}: {error}"
        async with self.sessionmaker() as db:
            status = await deliveries.record_failure(db, claim, self.clock.now(), reason)
        log = logger.error if status == FAILED else logger.warning
        log("mail %s attempt %d failed (%s): %s", claim.key, claim.attempt, status, reason)
