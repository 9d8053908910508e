"""`deaddrop bench http`: the web server under load beside a bare Litestar app (issue 15)."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the CLI starts fast: the harness loads only when it runs
    from deaddrop.benchmarks.http.plan import Plan

FULL: dict[str, Any] = {
    "games": 200,
    "posts": 30,
    "votes": 5,
    "connections": 10,
    "seconds": 10.0,
    "warmup": 2.0,
    "repeats": 3,
    "rates": "14,22,100",
    "open_seconds": 20.0,
    "open_warmup": 10.0,
    "open_grace": 30.0,
    "streams": "200,1000,2000",
    "interval": 30.0,
    "rounds": 2,
    "live_grace": 30.0,
    "waves": "1000,5000,10000",
}
"""Issue 15's sizes, durations and rates."""
QUICK: dict[str, Any] = {
    **FULL,
    "games": 3,
    "seconds": 2.0,
    "warmup": 0.5,
    "repeats": 1,
    "rates": "5,10",
    "open_seconds": 2.0,
    "open_warmup": 0.5,
    "open_grace": 10.0,
    "streams": "30",
    "interval": 2.0,
    "live_grace": 10.0,
    "waves": "20",
}
"""`--quick`: every phase at a tiny size in a minute or two; a smoke test, not a measurement."""
_HELP = {
    "games": "Station games of 10 players",
    "posts": "Floor posts per game",
    "votes": "votes per game",
    "connections": "saturation: keep-alive connections",
    "seconds": "saturation: measured seconds per run",
    "warmup": "saturation: unmeasured seconds first",
    "repeats": "runs of each measurement (the tables show medians)",
    "rates": "open loop: rates in requests per second",
    "open_seconds": "open loop: seconds per run",
    "open_warmup": "open loop: seconds at the same rate before each run (p99 shown apart)",
    "open_grace": "open loop: seconds to wait for late replies",
    "streams": "live: open streams at each step",
    "interval": "live: seconds between two posts of a game",
    "rounds": "live: posts per game at each step",
    "live_grace": "live: seconds to wait for deliveries after the last post",
    "waves": "Pouch wave: games due at once, one wave each",
}


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `bench http`."""
    bench = commands.add_parser("bench", help="measure the product (see `bench http -h`)")
    kinds = bench.add_subparsers(dest="bench", required=True, metavar="WHAT")
    http = kinds.add_parser(
        "http",
        help="the web server under load, beside a bare Litestar app (issue 15's table)",
        description="Seed a world, serve it pinned to one core and load it from another; the "
        "same for a bare Litestar app; then the Pouch wave. The defaults are issue 15's.",
    )
    http.add_argument(
        "--database",
        default="sqlite",
        help="`sqlite` (a new file) or a PostgreSQL URL (the run uses schemas of its own there)",
    )
    for name, default in FULL.items():
        kind = type(default) if not isinstance(default, str) else str
        flag = "--" + name.replace("_", "-")
        http.add_argument(flag, type=kind, default=None, help=f"{_HELP[name]} ({default})")
    http.add_argument("--wave-workers", default=None, help="workers per wave (1; PostgreSQL: 1,2)")
    http.add_argument(
        "--processes", type=int, default=1, help="deaddrop serve processes (1; more need --redis)"
    )
    http.add_argument("--redis", default=None, help="REDIS_URL of the servers (several processes)")
    http.add_argument(
        "--live-votes",
        action="store_true",
        help="live: one vote per game halfway between two of its posts, too",
    )
    http.add_argument(
        "--server-share",
        type=float,
        default=None,
        help="cap each server at this share of one core (0.3: 30%%), a cgroup each, so several "
        "servers and the load fit on few cores (uncapped)",
    )
    http.add_argument(
        "--phases",
        default="saturate,open,live,wave",
        help="what to measure; `scale` (one process against all, needs --processes 2 or more) "
        "only when named",
    )
    http.add_argument("--server-core", type=int, help="the servers' core (0 on 2+ cores)")
    http.add_argument("--client-core", type=int, help="the load's core (1 on 2+ cores)")
    http.add_argument("--no-pin", action="store_true", help="pin nothing to a core")
    http.add_argument("--var-dir", type=Path, default=Path("var/bench-http"), help="files, logs")
    http.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    http.add_argument("--json", action="store_true", help="print the figures as JSON")
    http.set_defaults(handler=run_bench_http)


def run_bench_http(args: argparse.Namespace) -> int:
    """Run the plan the options describe and print its tables (or JSON)."""
    from deaddrop.benchmarks.http.cpu_caps import CannotCap
    from deaddrop.benchmarks.http.plan import PHASES
    from deaddrop.benchmarks.http.report import as_json, print_tables
    from deaddrop.benchmarks.http.run import run_bench

    refusal = _refusal(args, PHASES)
    if refusal:
        print(refusal)
        return 2
    plan = plan_of(args)
    stop_on_term()
    progress = sys.stderr if args.json else sys.stdout
    try:
        results = run_bench(plan, say=lambda line: print(line, file=progress, flush=True))
    except CannotCap as error:
        print(f"--server-share cannot be kept here: {error}.")
        return 2
    if args.json:
        print(as_json(plan, results))
    else:
        print_tables(plan, results)
    return 0 if all(wave.exactly_once for wave in results.waves) else 1


def stop_on_term() -> None:
    """A SIGTERM (`kill`, a job's timeout) stops a run as Ctrl-C does: its servers stopped and
    its cgroups removed on the way out, where the default ends the run at once and leaves its
    servers running, each in its group."""

    def interrupt(_signal: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def _refusal(args: argparse.Namespace, phases: tuple[str, ...]) -> str | None:
    """Why the options cannot be run, or None."""
    asked = set(args.phases.split(","))
    unknown = asked - set(phases)
    if unknown:
        return f"No such phase: {', '.join(sorted(unknown))} ({', '.join(phases)})."
    if args.processes > 1 and not args.redis:
        return "Several processes deliver live events to each other through Redis: give --redis."
    if "scale" in asked and args.processes < 2:
        return "The scale phase compares one process with several: give --processes 2 or more."
    if args.server_share is not None and not 0 < args.server_share <= 1:
        return "--server-share is a share of one core: above 0 and at most 1 (0.3 is 30%)."
    return None


def plan_of(args: argparse.Namespace) -> Plan:
    """The run's plan: the options given, else `--quick`'s or issue 15's values."""
    from deaddrop.benchmarks.http.databases import is_sqlite
    from deaddrop.benchmarks.http.plan import Plan, default_cores
    from deaddrop.benchmarks.http.seed import Sizes

    base = QUICK if args.quick else FULL
    value = {
        name: base[name] if getattr(args, name) is None else getattr(args, name) for name in FULL
    }
    workers = args.wave_workers or ("1" if is_sqlite(args.database) else "1,2")
    server_core, client_core = default_cores()
    if args.server_core is not None:
        server_core = args.server_core
    if args.client_core is not None:
        client_core = args.client_core
    return Plan(
        database=args.database,
        sizes=Sizes(games=value["games"], posts=value["posts"], votes=value["votes"]),
        connections=value["connections"],
        seconds=value["seconds"],
        warmup=value["warmup"],
        repeats=value["repeats"],
        rates=_numbers(value["rates"], float),
        open_seconds=value["open_seconds"],
        open_warmup=value["open_warmup"],
        open_grace=value["open_grace"],
        streams=_numbers(value["streams"], int),
        interval=value["interval"],
        rounds=value["rounds"],
        live_grace=value["live_grace"],
        live_votes=args.live_votes,
        waves=_numbers(value["waves"], int),
        wave_workers=_numbers(workers, int),
        processes=args.processes,
        redis_url=args.redis,
        server_share=args.server_share,
        server_core=None if args.no_pin else server_core,
        client_core=None if args.no_pin else client_core,
        phases=tuple(args.phases.split(",")),
        var_dir=args.var_dir,
    )


def _numbers(text: str, kind: type[Any]) -> tuple[Any, ...]:
    return tuple(kind(part) for part in text.split(",") if part.strip())
