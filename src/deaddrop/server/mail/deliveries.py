"""The delivery ledger's writes: claim a mail before sending it, then record how it went.

Exactly once, as far as a mail can be:

- **Claim, commit, then send.** A first attempt inserts the (game, day, user, kind) row with
  status `sending` (`INSERT … ON CONFLICT DO NOTHING`) and commits before the SMTP
  conversation starts. The unique key lets one mailer win; every other mailer, and this one
  after a restart, sees the row and sends nothing.
- **Failures retry.** An SMTP refusal or a lost connection means the server did not take the
  mail: the row becomes `retry` with a growing delay, and is claimed again (a conditional
  update on its status and attempt number, so again only one mailer wins) until
  `MAX_ATTEMPTS`, then `failed`.
- **A crash is retried after a lease.** A mailer that dies between its claim and its record
  leaves a `sending` row behind. After `LEASE` (far longer than any SMTP timeout) another
  mailer takes it over and sends. If the crash came in the instant after the SMTP server
  accepted the mail and before the `sent` record, that one mail goes out twice, with the same
  Message-ID, which many mail systems fold into one. This is the chosen side of the trade-off:
  a duplicate in that narrow window rather than a reminder silently lost to every crash.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Exists, exists, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db.upsert import insert_for
from deaddrop.server.mail.models import DROPPED, FAILED, RETRY, SENDING, SENT, MailDelivery

MAX_ATTEMPTS = 5
"""Attempts (claims) per mail before it is given up as `failed`."""
LEASE = timedelta(minutes=15)
"""How long a `sending` claim is honoured before another mailer may take it over."""
FIRST_RETRY = timedelta(minutes=1)
"""The delay after the first failure; it doubles after each further one."""
ERROR_MAX = 500
"""Characters of an error message kept in the ledger."""


@dataclass(frozen=True, slots=True)
class DeliveryKey:
    """Which mail: the ledger's unique key."""

    game_id: int
    """The game (internal id)."""
    day: int
    """The departed Pouch's day (digest) or the running day (reminder)."""
    user_id: int
    """The recipient's account."""
    kind: str
    """digest or reminder."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A mail this mailer holds: it may send it now, and must record the outcome."""

    delivery_id: int
    """The ledger row."""
    key: DeliveryKey
    """Which mail."""
    attempt: int
    """This attempt's number, from 1; recording checks it so a stale holder records nothing."""


def recorded(kind: str, game_id: Any, day: Any, user_id: Any) -> Exists:
    """The SQL condition: the ledger already has this mail (whatever became of it), for the
    given columns or values of game, day and user."""
    return exists().where(
        MailDelivery.game_id == game_id,
        MailDelivery.day == day,
        MailDelivery.user_id == user_id,
        MailDelivery.kind == kind,
    )


async def claim_new(
    db: AsyncSession, key: DeliveryKey, *, name: str, now: datetime
) -> Claim | None:
    """Insert the ledger row as `sending` and commit; None when any mailer already has one."""
    values: dict[str, Any] = {
        "game_id": key.game_id,
        "day": key.day,
        "user_id": key.user_id,
        "kind": key.kind,
        "status": SENDING,
        "attempts": 1,
        "claimed_by": name,
        "claimed_at": now,
    }
    statement = (
        insert_for(db, MailDelivery)
        .values(**values)
        .on_conflict_do_nothing(index_elements=["game_id", "day", "user_id", "kind"])
        .returning(MailDelivery.id)
    )
    delivery_id = await db.scalar(statement)
    await db.commit()
    return None if delivery_id is None else Claim(delivery_id, key, 1)


async def due_again(db: AsyncSession, now: datetime, *, limit: int) -> list[MailDelivery]:
    """Rows to try again: failed ones whose delay is over, and claims older than the lease."""
    rows = await db.scalars(
        select(MailDelivery)
        .where(
            or_(
                (MailDelivery.status == RETRY) & (MailDelivery.next_attempt_at <= now),
                (MailDelivery.status == SENDING) & (MailDelivery.claimed_at <= now - LEASE),
            )
        )
        .order_by(MailDelivery.id)
        .limit(limit)
    )
    return list(rows)


async def reclaim(db: AsyncSession, row: MailDelivery, *, name: str, now: datetime) -> Claim | None:
    """Take over a row seen by `due_again`, unless another mailer changed it first."""
    key = DeliveryKey(row.game_id, row.day, row.user_id, row.kind)
    if row.attempts >= MAX_ATTEMPTS:
        # An abandoned last attempt: give up rather than try a sixth time.
        await _finish(db, row.id, row.attempts, FAILED, now, "abandoned by a mailer", row.status)
        return None
    result = await db.execute(
        update(MailDelivery)
        .where(
            MailDelivery.id == row.id,
            MailDelivery.status == row.status,  # nobody else took it since we read it
            MailDelivery.attempts == row.attempts,
        )
        .values(
            status=SENDING,
            attempts=row.attempts + 1,
            claimed_by=name,
            claimed_at=now,
            next_attempt_at=None,
        )
        .execution_options(synchronize_session=False)
    )
    await db.commit()
    if _rowcount(result) != 1:
        return None
    return Claim(row.id, key, row.attempts + 1)


async def record_sent(db: AsyncSession, claim: Claim, now: datetime) -> bool:
    """The SMTP server took it; False if the claim had been taken over meanwhile."""
    return await _finish(db, claim.delivery_id, claim.attempt, SENT, now, None, SENDING)


async def record_dropped(db: AsyncSession, claim: Claim, now: datetime, reason: str) -> bool:
    """Not sent, and never will be: it no longer made sense when its turn came."""
    return await _finish(db, claim.delivery_id, claim.attempt, DROPPED, now, reason, SENDING)


async def record_failure(db: AsyncSession, claim: Claim, now: datetime, error: str) -> str:
    """The attempt failed: `retry` later with a doubled delay, or `failed` after the last."""
    if claim.attempt >= MAX_ATTEMPTS:
        await _finish(db, claim.delivery_id, claim.attempt, FAILED, now, error, SENDING)
        return FAILED
    delay = FIRST_RETRY * 2 ** (claim.attempt - 1)
    await db.execute(
        update(MailDelivery)
        .where(
            MailDelivery.id == claim.delivery_id,
            MailDelivery.status == SENDING,
            MailDelivery.attempts == claim.attempt,
        )
        .values(status=RETRY, next_attempt_at=now + delay, last_error=error[:ERROR_MAX])
        .execution_options(synchronize_session=False)
    )
    await db.commit()
    return RETRY


async def _finish(
    db: AsyncSession,
    delivery_id: int,
    attempt: int,
    status: str,
    now: datetime,
    error: str | None,
    expected: str,
) -> bool:
    values: dict[str, Any] = {"status": status, "next_attempt_at": None}
    if status == SENT:
        values["sent_at"] = now
    if error is not None:
        values["last_error"] = error[:ERROR_MAX]
    result = await db.execute(
        update(MailDelivery)
        .where(
            MailDelivery.id == delivery_id,
            MailDelivery.status == expected,
            MailDelivery.attempts == attempt,
        )
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    await db.commit()
    return _rowcount(result) == 1


def _rowcount(result: Any) -> int:
    # An UPDATE's CursorResult; the attribute is untyped on the generic Result.
    return int(getattr(result, "rowcount", 0))
