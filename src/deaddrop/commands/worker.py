"""`deaddrop worker`: the Pouch runner (and the mailer) alone, for when the app is scaled out.

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
        help="run the Pouch runner alone (resolves due Station days, sends mail; Ctrl+C to stop)",
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
    from deaddrop.server.station.live.stream import worker_broker

    engine = create_engine(settings)
    try:
        # The Pouches resolved here must wake the open pages of every server process.
        async with worker_broker(settings.redis_url):
            return await _work(settings, create_sessionmaker(engine), once=once)
    finally:
        await engine.dispose()


async def _work(
    settings: Settings, sessionmaker: async_sessionmaker[AsyncSession], *, once: bool
) -> tuple[int, int]:
    """The runner and the mailer: one pass each, or until interrupted."""
    from deaddrop.server.clock import SystemClock
    from deaddrop.server.mail.mailer import Mailer
    from deaddrop.server.station.play.pouch_runner import PouchRunner

    clock = SystemClock()
    runner = PouchRunner(sessionmaker, clock)
    mailer = Mailer(sessionmaker, clock, settings.mail) if settings.mail.enabled else None
    if once:
        # The Pouches first, so that the digests of what was just resolved go out now.
        resolved = await runner.run_once()
        sent = await mailer.run_once() if mailer is not None else 0
        return resolved, sent
    print(f"Pouch runner {runner.name} started (Ctrl+C to stop).", flush=True)
    loops = [runner.run_forever()]
    if mailer is not None:
        print(f"Mailer started, sending through {settings.mail.smtp_host}.", flush=True)
        loops.append(mailer.run_forever())
    stoppers = [runner.stop] + ([mailer.stop] if mailer is not None else [])
    _stop_on_signals(stoppers)
    await asyncio.gather(*loops)
    print("Stopped.", flush=True)
    return 0, 0


def _stop_on_signals(stoppers: list[Callable[[], None]]) -> None:
    """SIGTERM (a process manager, a container) or Ctrl+C ends each loop after its current pass:
    a Pouch or a mail in progress is committed, not cut off, and the command exits 0."""
    loop = asyncio.get_running_loop()

    def stop() -> None:
        for each in stoppers:
            each()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)
