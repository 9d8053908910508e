"""`deaddrop serve` (migrate, then run the web server) and `deaddrop migrate`."""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys

from deaddrop.server.settings import Settings


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `serve` and `migrate`."""
    serve = commands.add_parser(
        "serve", help="migrate the database, then serve the web app (http://127.0.0.1:8000)"
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to bind (default 8000)")
    serve.add_argument(
        "--proxy-headers",
        action="store_true",
        help="trust X-Forwarded-For/-Proto from a reverse proxy on this machine",
    )
    serve.set_defaults(handler=run_serve)

    migrate = commands.add_parser("migrate", help="bring the database schema up to date")
    migrate.add_argument(
        "--new",
        metavar="MESSAGE",
        help="instead, write the next numbered migration from the current models (developers)",
    )
    migrate.set_defaults(handler=run_migrate)


def run_serve(args: argparse.Namespace) -> int:
    """Migrate, then serve until interrupted (Ctrl+C or SIGTERM: a clean stop, status 0)."""
    import uvicorn

    from deaddrop.commands.gc_tuning import tune_for_serving
    from deaddrop.commands.graceful import GracefulServer
    from deaddrop.server.app import create_app
    from deaddrop.server.live.shutdown import shutdown_event
    from deaddrop.server.testing.clocks import OffsetClock

    settings = Settings.from_env()
    revision = asyncio.run(_upgrade(settings))
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Database at revision {revision} ({_describe(settings)}).", flush=True)
    print(f"Dead Drop is serving on http://{host}:{args.port}  (Ctrl+C to stop)", flush=True)
    app = create_app(settings, clock=OffsetClock.from_env())  # None unless a test sets it
    tune_for_serving()  # the cycle collector's long pauses were the live pages' p99
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        proxy_headers=args.proxy_headers,
        forwarded_allow_ips="127.0.0.1" if args.proxy_headers else None,
        log_level="info",
        timeout_graceful_shutdown=GRACE_SECONDS,
    )
    server = GracefulServer(config, stopping=shutdown_event(app))
    server.run()
    return 0 if server.started else STARTUP_FAILURE


GRACE_SECONDS = 5
"""How long a stop waits for requests in flight (live streams end at once) before it cuts
them off, so that a process manager's SIGTERM ends the process within seconds."""
STARTUP_FAILURE = 3
"""Exit status when the server could not start (e.g. the port is taken), as uvicorn's."""


def run_migrate(args: argparse.Namespace) -> int:
    """Upgrade the database to the newest migration, or write a new one."""
    settings = Settings.from_env()
    if args.new:
        path = asyncio.run(_new_revision(settings, args.new))
        _tidy(path)
        print(f"Wrote {path}; review it before committing.")
        return 0
    revision = asyncio.run(_upgrade(settings))
    print(f"Database at revision {revision} ({_describe(settings)}).")
    return 0


async def _upgrade(settings: Settings) -> str | None:
    from deaddrop.server.db.engine import create_engine
    from deaddrop.server.db.migrate import current_revision, upgrade_head

    engine = create_engine(settings)
    try:
        await upgrade_head(engine)
        return await current_revision(engine)
    finally:
        await engine.dispose()


async def _new_revision(settings: Settings, message: str) -> str:
    from deaddrop.server.db.engine import create_engine
    from deaddrop.server.db.migrate import new_revision

    engine = create_engine(settings)
    try:
        return str(await new_revision(engine, message))
    finally:
        await engine.dispose()


def _tidy(path: str) -> None:
    # Generated code goes through the same formatter as the rest, when ruff is installed.
    for command in (["format", "--quiet"], ["check", "--fix", "--quiet", "--exit-zero"]):
        try:
            subprocess.run([sys.executable, "-m", "ruff", *command, path], check=False)
        except OSError:
            return


def _describe(settings: Settings) -> str:
    from deaddrop.server.db.engine import normalise_url

    return normalise_url(settings.database_url).render_as_string(hide_password=True)
