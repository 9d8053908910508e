"""Claiming a bot decision once: a row unique per (game, day, seat, fingerprint), committed
before deciding, so that runners in several processes never decide the same thing twice; a
claim not done within the timeout (its runner died) may be taken over."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.station.bot_seats.models import StationBotDecision


async def last_claim(db: AsyncSession, game_id: int, day: int, seat: int) -> datetime | None:
    """When this seat last claimed a decision today (None: not yet today)."""
    return await db.scalar(
        select(func.max(StationBotDecision.claimed_at)).where(
            StationBotDecision.game_id == game_id,
            StationBotDecision.day == day,
            StationBotDecision.seat == seat,
        )
    )


async def claim(
    db: AsyncSession,
    key: tuple[int, int, int, str],
    runner: str,
    now: datetime,
    timeout: timedelta,
) -> int | None:
    """Claim decision `key` (game, day, seat, fingerprint) and commit; its row id, or None when
    it is done or another runner's claim on it is still fresh."""
    game_id, day, seat, print_ = key
    if await _settled(db, key, now - timeout):
        return None  # the usual case of a pass: nothing new; no insert bound to fail
    row = StationBotDecision(
        game_id=game_id, day=day, seat=seat, fingerprint=print_, runner=runner, claimed_at=now
    )
    db.add(row)
    try:
        await db.commit()
        return row.id
    except IntegrityError:
        await db.rollback()
    # Taken already: take it over only if it was never done and its claim is stale (a crash).
    taken = await db.execute(
        update(StationBotDecision)
        .where(
            StationBotDecision.game_id == game_id,
            StationBotDecision.day == day,
            StationBotDecision.seat == seat,
            StationBotDecision.fingerprint == print_,
            StationBotDecision.done_at.is_(None),
            StationBotDecision.claimed_at < now - timeout,
        )
        .values(runner=runner, claimed_at=now)
        .returning(StationBotDecision.id)
    )
    taken_id = taken.scalar_one_or_none()
    await db.commit()
    return taken_id


async def _settled(db: AsyncSession, key: tuple[int, int, int, str], fresh_after: datetime) -> bool:
    """Whether decision `key` is done, or claimed since `fresh_after` (still in progress)."""
    game_id, day, seat, print_ = key
    found = await db.execute(
        select(StationBotDecision.done_at, StationBotDecision.claimed_at).where(
            StationBotDecision.game_id == game_id,
            StationBotDecision.day == day,
            StationBotDecision.seat == seat,
            StationBotDecision.fingerprint == print_,
        )
    )
    row = found.first()
    await db.commit()  # end the read's transaction before the claim's own
    return row is not None and (row.done_at is not None or row.claimed_at >= fresh_after)


async def finish(db: AsyncSession, decision_id: int, now: datetime) -> None:
    """Mark a decision done: its saves and posts were applied (or refused by the rules)."""
    await db.execute(
        update(StationBotDecision).where(StationBotDecision.id == decision_id).values(done_at=now)
    )
    await db.commit()


async def release(db: AsyncSession, decision_id: int) -> None:
    """Give back a claimed decision that failed before it was done, so that the next pass
    decides it again rather than waiting out the claim's timeout."""
    await db.execute(
        delete(StationBotDecision).where(
            StationBotDecision.id == decision_id, StationBotDecision.done_at.is_(None)
        )
    )
    await db.commit()
