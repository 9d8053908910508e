"""`deaddrop worker`: the Pouch runner alone, for when the web app is scaled out.

Any number of workers and `deaddrop serve` processes may run against one database at once:
the runner's claims make each Pouch leave exactly once (server/station/runner.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging

from deaddrop.server.settings import Settings


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `worker`."""
    worker = commands.add_parser(
        "worker", help="run the Pouch runner alone (resolves due Station days; Ctrl+C to stop)"
    )
    worker.add_argument(
        "--once", action="store_true", help="resolve what is due now, then exit (for cron)"
    )
    worker.set_defaults(handler=run_worker)


def run_worker(args: argparse.Namespace) -> int:
    """Run the runner until interrupted (or one pass with --once)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    settings = Settings.from_env()
    with contextlib.suppress(KeyboardInterrupt):
        resolved = asyncio.run(_run(settings, once=args.once))
        if args.once:
            print(f"Resolved {resolved} Pouch{'es' * (resolved != 1)}.", flush=True)
    return 0


async def _run(settings: Settings, *, once: bool) -> int:
    from deaddrop.server.db.engine import create_engine, create_sessionmaker
    from deaddrop.server.station.clock import SystemClock
    from deaddrop.server.station.runner import PouchRunner

    engine = create_engine(settings)
    try:
        runner = PouchRunner(create_sessionmaker(engine), SystemClock())
        if once:
            return await runner.run_once()
        print(f"Pouch runner {runner.name} started (Ctrl+C to stop).", flush=True)
        await runner.run_forever()
        return 0
    finally:
        await engine.dispose()
