"""`deaddrop worker`: the background jobs alone (server/jobs.py), for when the app is scaled out.

Any number of workers and `deaddrop serve` processes may run against one database at once:
the runner's claims make each Pouch leave exactly once (server/station/play/pouch_runner.py),
and the mail ledger sends each mail once (server/mail/deliveries.py). The mailer runs only when
`SMTP_HOST` is set.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING

from deaddrop.server.settings import Settings

if TYPE_CHECKING:  # the CLI starts fast: SQLAlchemy loads only when the worker runs
    from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `worker`."""
    worker = commands.add_parser(
        "worker",
        help="run the background jobs alone (Pouches, Cards bots, mail, purge; Ctrl+C to stop)",
    )
    worker.add_argument(
        "--once",
        action="store_true",
        help="resolve what is due now and send the mail that is due, then exit (for cron)",
    )
    worker.set_defaults(handler=run_worker)


def run_worker(args: argparse.Namespace) -> int:
    """Run the runner (and the mailer) until interrupted, or one pass each with --once."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    settings = Settings.from_env()
    with contextlib.suppress(KeyboardInterrupt):
        resolved, sent = asyncio.run(_run(settings, once=args.once))
        if args.once:
            print(f"Resolved {resolved} Pouch{'es' * (resolved != 1)}.", flush=True)
            if settings.mail.enabled:
                print(f"Sent {sent} mail{'s' * (sent != 1)}.", flush=True)
    return 0


async def _run(settings: Settings, *, once: bool) -> tuple[int, int]:
    from deaddrop.server.db.engine import create_engine, create_sessionmaker
    from deaddrop.server.live.wakeup import WAKEUPS_KEY, Wakeups, worker_broker
    from deaddrop.server.station.chat.rate import CHAT_RATE_KEY, chat_rate

    engine = create_engine(settings)
    try:
        # What is written here (Pouches, bot moves) must wake the open pages of every server.
        wakeups = Wakeups()
        async with worker_broker(settings.redis_url, wakeups):
            # The bots' posts are held to the servers' flood limit.
            info = {WAKEUPS_KEY: wakeups, CHAT_RATE_KEY: chat_rate(settings)}
            sessionmaker = create_sessionmaker(engine, info)
            if once:
                return await _once(settings, sessionmaker)
            await _work(settings, sessionmaker)
            return 0, 0
    finally:
        await engine.dispose()


async def _once(
    settings: Settings, sessionmaker: async_sessionmaker[AsyncSession]
) -> tuple[int, int]:
    """One pass: the Pouches first, so that the digests of what was just resolved go out now."""
    from deaddrop.server.clock import SystemClock
    from deaddrop.server.mail.mailer import Mailer
    from deaddrop.server.station.play.pouch_runner import PouchRunner

    clock = SystemClock()
    resolved = await PouchRunner(sessionmaker, clock).run_once()
    mail = settings.mail
    sent = await Mailer(sessionmaker, clock, mail).run_once() if mail.enabled else 0
    return resolved, sent


async def _work(
    settings: Settings,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    """The background jobs of `deaddrop serve` (server/jobs.py), until interrupted."""
    from deaddrop.server.cards.runtime import Runtime, bot_delay_from_env
    from deaddrop.server.clock import SystemClock
    from deaddrop.server.jobs import Jobs, Wanted, bot_timing, standard_jobs
    from deaddrop.server.station.play.pouch_runner import PouchRunner

    cards = Runtime(bot_delay=bot_delay_from_env())
    timing = bot_timing(settings)
    jobs = Jobs(standard_jobs(sessionmaker, SystemClock(), settings.mail, cards, Wanted(), timing))
    for job in jobs.jobs:
        if isinstance(job.worker, PouchRunner):
            print(f"Pouch runner {job.worker.name} started (Ctrl+C to stop).", flush=True)
    if settings.mail.enabled:
        print(f"Mailer started, sending through {settings.mail.smtp_host}.", flush=True)
    print(f"Jobs: {', '.join(jobs.names())}.", flush=True)
    _stop_on_signals([jobs.stop])
    await jobs.run()
    print("Stopped.", flush=True)


def _stop_on_signals(stoppers: list[Callable[[], None]]) -> None:
    """SIGTERM (a process manager, a container) or Ctrl+C ends each loop after its current pass:
    a Pouch or a mail in progress is committed, not cut off, and the command exits 0."""
    loop = asyncio.get_running_loop()

    def stop() -> None:
        for each in stoppers:
            each()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)
