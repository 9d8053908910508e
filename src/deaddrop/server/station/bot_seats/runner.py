"""The bot runner: plays the bot seats of running games, each exactly as a person would.

A bot decides at the start of each day, again when what it has seen changes (its fingerprint,
`seat_input.py`; at most once every `min_interval`), and once more in the last minutes before
the Pouch. Its input is its own seat's view and readable chat only (S42); its saves go through
`do_act` and its posts through `do_post`, the very paths of a person's forms (the same rule
checks, refusals, journal and wake-ups). Each decision is claimed once (`decisions.py`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.bots.station.base import DayPlan
from deaddrop.bots.station.registry import level
from deaddrop.engine.station import setup_from_json
from deaddrop.engine.station.channels import Channel
from deaddrop.server.background import DatabaseWorker, Loop
from deaddrop.server.clock import Clock
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.live.wakeup import wakeups_in
from deaddrop.server.station.bot_seats import decisions
from deaddrop.server.station.bot_seats.bot_due import BOT_RUNNER as BOT_RUNNER
from deaddrop.server.station.bot_seats.pending_posts import keep_for_later, post_pending
from deaddrop.server.station.bot_seats.seat_input import bot_rng, fingerprint, seat_input
from deaddrop.server.station.chat.channels import RateLimited, do_post
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.play.service import do_act
from deaddrop.server.station.practice.pace import done_when_decided
from deaddrop.server.station.standins.start import seats_to_play

logger = logging.getLogger("deaddrop.station.bots")

POLL_SECONDS = 20.0
"""How often running games are looked at for bot seats with something to decide."""
LAST_CALL = "last-call"
"""The fingerprint of the decision in the last minutes before the Pouch (one per day)."""


@dataclass(frozen=True)
class BotTiming:
    """When bots decide (tests set `min_interval` to zero)."""

    min_interval: timedelta = timedelta(minutes=3)
    """At most one decision per seat this often, however much it sees change."""
    last_call: timedelta = timedelta(minutes=5)
    """How long before the Pouch the last decision of the day is made."""
    claim_timeout: timedelta = timedelta(minutes=2)
    """A claimed decision not done after this long (its runner died) is taken over."""


class BotRunner(DatabaseWorker):
    """Plays every bot seat of every running game; safe to run in many processes at once."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Clock,
        timing: BotTiming = BotTiming(),
        *,
        name: str | None = None,
    ) -> None:
        super().__init__(sessionmaker, clock, name, Loop(logger, "bot runner", POLL_SECONDS))
        self.timing = timing
        # The wake-ups of the app whose sessionmaker this is: a day that opens wakes it.
        self.wakeups = wakeups_in(sessionmaker)

    async def run_forever(self) -> None:
        """Run passes until stopped, sleeping until the next poll or a wake-up."""
        with self.wakeups.listening(BOT_RUNNER, self.wake):
            await self._loop.run(self.one_pass)

    async def one_pass(self) -> float:
        """Decide for every bot seat that has something to decide; look again soon."""
        await self.run_once()
        return POLL_SECONDS

    async def run_once(self) -> int:
        """One look at every bot seat of a running game; returns the decisions made."""
        async with self.sessionmaker() as db:
            seats = await seats_to_play(db, self.clock.now())  # bot seats and stand-ins
            await post_pending(db, self.clock)  # posts the rate limit held back before
        made = 0
        for game_id, seat_id in seats:
            try:
                async with self.sessionmaker() as db:
                    made += await self.play_seat(db, game_id, seat_id)
            except Exception:
                # One broken seat must not stop the others; it is looked at again next pass.
                logger.exception("bot seat %s of game %s failed", seat_id, game_id)
        return made

    async def play_seat(self, db: AsyncSession, game_id: int, seat_id: int) -> int:
        """Decide for one bot seat if it has something to decide; 1 when it decided."""
        game = await db.get(StationGame, game_id)
        row = await db.get(StationSeat, seat_id)
        now = self.clock.now()
        if game is None or row is None or row.seat is None or row.bot_level is None:
            return 0
        if game.status != "running" or game.setup is None or _closed(game, now):
            return 0
        state = await load_state(db, game)
        seat, day = row.seat, state.day
        if state.over or not state.alive[seat]:
            return 0
        seed, bot_level = setup_from_json(game.setup).seed, row.bot_level
        given = await seat_input(db, game.id, state, seat)
        print_ = await self._due_print(db, game, seat, fingerprint(given), now)
        if print_ is None:
            return 0
        decision = await decisions.claim(
            db, (game.id, day, seat, print_), self.name, now, self.timing.claim_timeout
        )
        if decision is None:
            return 0
        try:
            plan, _ = level(bot_level)(given.seen, given.posts, bot_rng(seed, day, seat, print_))
            for stale in (game, row):  # a claim taken over rolled back first: read them again
                await db.refresh(stale)
            if game.practice:
                plan = done_when_decided(plan, seat)
            await self._carry_out(db, GameContext(game, None, row), plan)
        except Exception:
            await _give_back(db, decision)
            raise
        await decisions.finish(db, decision, self.clock.now())
        return 1

    async def _due_print(
        self, db: AsyncSession, game: StationGame, seat: int, print_: str, now: datetime
    ) -> str | None:
        """The key of the decision due now: the last call, a new fingerprint, or none yet."""
        if game.deadline is not None and game.deadline - now <= self.timing.last_call:
            return LAST_CALL  # claimed once per day: later passes find it taken
        last = await decisions.last_claim(db, game.id, game.day, seat)
        if last is not None and now - last < self.timing.min_interval:
            return None  # decided a moment ago: wait, whatever changed
        return print_

    async def _carry_out(self, db: AsyncSession, context: GameContext, plan: DayPlan) -> None:
        """Post, then save, each through a person's own path; a refusal skips only that one."""
        for post in plan.posts:
            try:
                await do_post(db, context, Channel(post.channel), post.text, self.clock.now())
            except RateLimited:  # not dropped: posted at a later pass
                await keep_for_later(
                    db, context, Channel(post.channel), post.text, self.clock.now()
                )
            except Refused as refusal:
                logger.info("a bot's post was refused: %s", refusal.message)
        for action in plan.actions:
            try:
                await do_act(db, context, action, clock=self.clock)
            except Refused as refusal:
                logger.info("a bot's save was refused: %s", refusal.message)


async def _give_back(db: AsyncSession, decision: int) -> None:
    """Give a failed decision back at once (a locked database, say): kept, its claim would hold
    the seat, and a practice game's Pouch, until it timed out. If even that fails, the claim
    stays until its timeout and the decision's own error is the one raised."""
    try:
        await db.rollback()
        await decisions.release(db, decision)
    except Exception:
        logger.warning("a failed decision's claim stays until its timeout", exc_info=True)


def _closed(game: StationGame, now: datetime) -> bool:
    """Today's Pouch has left (the Pouch runner is about to resolve it): nothing to save."""
    return game.deadline is not None and game.deadline <= now
