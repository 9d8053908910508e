"""A whole run: seed, then measure Dead Drop and the bare app in turn, then the Pouch wave.

The bare app serves from the start (idle while Dead Drop is measured, on the same core): every
saturation run but the bare hello's own is followed at once by a bare hello run, its pair.
This machine's speed drifts by half from one minute to the next, so a share of the bare hello
taken between runs minutes apart said more of the drift than of the server; a run's share of
its pair's rate is taken under the same conditions.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from time import monotonic

from deaddrop.benchmarks.http.bare_save import remove_database
from deaddrop.benchmarks.http.copies import copy_database
from deaddrop.benchmarks.http.cpu_caps import capped_group, joining, this_machines_controller
from deaddrop.benchmarks.http.databases import fresh_database, is_sqlite, server_env
from deaddrop.benchmarks.http.live import live_step
from deaddrop.benchmarks.http.live_sites import BareSite, DeadDropSite, LiveSite
from deaddrop.benchmarks.http.load_collector import run_measured
from deaddrop.benchmarks.http.open_loop import open_loop
from deaddrop.benchmarks.http.plan import Plan, Results
from deaddrop.benchmarks.http.pouch_wave import (
    Wave,
    resolved_exactly_once,
    run_workers,
    seed_due_games,
)
from deaddrop.benchmarks.http.requests import (
    BARE_KINDS,
    DEADDROP_KINDS,
    RequestMaker,
    mix_schedule,
)
from deaddrop.benchmarks.http.saturate import Saturation, saturate
from deaddrop.benchmarks.http.scaling import measure_scaling
from deaddrop.benchmarks.http.seed import seed_world
from deaddrop.benchmarks.http.servers import (
    Server,
    bare_command,
    deaddrop_command,
    pin_this_process,
    running,
)
from deaddrop.benchmarks.http.world import World
from deaddrop.server.settings import Settings

Say = Callable[[str], None]


def run_bench(plan: Plan, say: Say = print) -> Results:
    """Run `plan`; progress goes to `say`."""
    plan.var_dir.mkdir(parents=True, exist_ok=True)
    pin_this_process(plan.client_core)
    _allow_many_files()
    results = Results(load_before=os.getloadavg()[0], cpus=os.cpu_count() or 1)
    if set(plan.phases) & {"saturate", "open", "live", "scale"}:
        settings, world = _seed(plan, results, say)
        with _bare_server(plan, say) as bare:
            _measure_deaddrop(plan, settings, world, results, say, bare)
            _measure_bare(plan, world, results, say, bare)
    if "wave" in plan.phases:
        _waves(plan, results, say)
    results.load_after = os.getloadavg()[0]
    return results


def _allow_many_files() -> None:
    """Thousands of open streams need as many descriptors (the servers inherit the limit)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _seed(plan: Plan, results: Results, say: Say) -> tuple[Settings, World]:
    say(f"Seeding {plan.sizes.games} games of {plan.sizes.players} on {_where(plan)}...")
    began = monotonic()
    settings = asyncio.run(fresh_database(plan.database, plan.var_dir, "bench_http"))
    world = asyncio.run(seed_world(settings, plan.sizes, say))
    results.seeding_seconds = monotonic() - began
    world.save(plan.var_dir / "world.json")
    say(f"  seeded in {results.seeding_seconds:.0f} s")
    return settings, world


def _where(plan: Plan) -> str:
    return "SQLite" if is_sqlite(plan.database) else "PostgreSQL"


def _measure_deaddrop(
    plan: Plan, settings: Settings, world: World, results: Results, say: Say, bare: Server
) -> None:
    env = server_env(settings, plan.var_dir, plan.redis_url)
    with contextlib.ExitStack() as stack:
        servers = []
        for number in range(plan.processes):
            log = plan.var_dir / f"deaddrop-{number}.log"
            command = _capped(plan, stack, deaddrop_command(_core_of(plan, number)), number)
            servers.append(stack.enter_context(running(command, env, log, "/api/health")))
            say(f"Dead Drop at {servers[-1].address.base_url} (log: {log})")
        addresses = [server.address for server in servers]
        maker = RequestMaker(addresses, world)
        if "saturate" in plan.phases:
            _saturation(plan, servers, maker, DEADDROP_KINDS, results, say, bare)
        if "open" in plan.phases:
            _open_loop(plan, servers, maker, "deaddrop", mix_schedule(10_000), results, say)
        if "live" in plan.phases:
            _live(plan, DeadDropSite(addresses, world), servers, "deaddrop", results, say)
        if "scale" in plan.phases:
            say(f"Scaling from one process to {len(servers)}:")
            measure = partial(_saturated_on, plan)
            runs = measure_scaling(servers, world, plan.connections, plan.repeats, measure, say)
            results.scaling.update(runs)


def _capped(plan: Plan, stack: contextlib.ExitStack, command: list[str], name: object) -> list[str]:
    """`command` in a cgroup of its own capped at the plan's share of a core (if it has one),
    the group removed once the run is done with it (after its process, which `running` ends)."""
    if plan.server_share is None:
        return command
    group = f"deaddrop-bench-{os.getpid()}-{name}"
    controller = this_machines_controller()
    procs = stack.enter_context(capped_group(controller, group, plan.server_share))
    return joining(procs, command)


def _core_of(plan: Plan, number: int) -> int | None:
    """The core of the `number`-th server process: the server core, then the next ones."""
    if plan.server_core is None:
        return None
    return (plan.server_core + number) % (os.cpu_count() or 1)


@contextlib.contextmanager
def _bare_server(plan: Plan, say: Say) -> Iterator[Server]:
    """The bare app, serving on the server core until the run is done with it."""
    log = plan.var_dir / "bare.log"
    saves = plan.var_dir / "bare_save.sqlite3"
    remove_database(saves)
    with contextlib.ExitStack() as stack:
        command = _capped(plan, stack, bare_command(plan.server_core, saves), "bare")
        server = stack.enter_context(running(command, os.environ, log, "/hello"))
        say(f"Bare Litestar at {server.address.base_url} (log: {log})")
        yield server


def _measure_bare(plan: Plan, world: World, results: Results, say: Say, server: Server) -> None:
    say("Bare Litestar:")
    maker = RequestMaker([server.address])
    if "saturate" in plan.phases:
        _saturation(plan, [server], maker, BARE_KINDS, results, say, server)
    if "open" in plan.phases:
        _open_loop(plan, [server], maker, "bare", ["hello"], results, say)
    if "live" in plan.phases:
        _live(plan, BareSite([server.address], world), [server], "bare", results, say)


def _saturation(
    plan: Plan,
    servers: list[Server],
    maker: RequestMaker,
    kinds: tuple[str, ...],
    results: Results,
    say: Say,
    bare: Server,
) -> None:
    """Each kind's runs, each but the bare hello's own followed by its pair on `bare`."""
    hello = RequestMaker([bare.address])
    for kind in kinds:
        for _ in range(plan.repeats):
            run = _saturated(plan, servers, maker, kind)
            results.saturation.setdefault(kind, []).append(run)
            say(
                f"  saturated {kind}: {run.rate:,.1f} req/s {run.outcomes}, CPU: server "
                f"{run.server_cpu_percent:.0f}%, client {run.client_cpu_percent:.0f}%"
            )
            if kind != "hello":
                pair = _saturated(plan, [bare], hello, "hello")
                results.paired_hello.setdefault(kind, []).append(pair.rate)
                say(f"    bare hello right after: {pair.rate:,.1f} req/s")


def _saturated(plan: Plan, servers: list[Server], maker: RequestMaker, kind: str) -> Saturation:
    """One saturation run of `kind`."""
    return _saturated_on(plan, servers, maker, kind, plan.connections)


def _saturated_on(
    plan: Plan, servers: list[Server], maker: RequestMaker, kind: str, connections: int
) -> Saturation:
    """One saturation run of `kind` on `connections` connections."""
    return run_measured(
        saturate(
            maker,
            kind,
            connections=connections,
            seconds=plan.seconds,
            warmup=plan.warmup,
            server_cpu=lambda: _cpu_seconds(servers),
        )
    )


def _cpu_seconds(servers: list[Server]) -> float:
    """The CPU time the server processes have used so far, together."""
    return sum(server.cpu_seconds() for server in servers)


def _open_loop(
    plan: Plan,
    servers: list[Server],
    maker: RequestMaker,
    target: str,
    kinds: list[str],
    results: Results,
    say: Say,
) -> None:
    for rate in plan.rates:
        for _ in range(plan.repeats):
            began, cpu = monotonic(), _cpu_seconds(servers)
            run = run_measured(
                open_loop(
                    maker,
                    kinds,
                    rate=rate,
                    seconds=plan.open_seconds,
                    grace=plan.open_grace,
                    warmup=plan.open_warmup,
                )
            )
            used = _cpu_seconds(servers) - cpu
            run = replace(run, server_cpu_percent=100 * used / max(monotonic() - began, 1e-9))
            results.open_loop.setdefault(target, []).append(run)
            lost = f", {run.closed_keep_alive} on closed keep-alive connections"
            say(
                f"  open loop {target} at {rate:g}/s: p99 {run.p99_ms:,.1f} ms {run.outcomes}{lost}"
                f", server CPU {run.server_cpu_percent:.0f}%; the {run.warmup_seconds:g} s warm-up"
                f" before it: p99 {run.warmup_p99_ms:,.1f} ms"
            )


def _live(
    plan: Plan, site: LiveSite, servers: list[Server], target: str, results: Results, say: Say
) -> None:
    def probe() -> tuple[int, float]:
        rss = sum(server.rss_bytes() for server in servers)
        return rss, _cpu_seconds(servers)

    for streams in plan.streams:
        step = run_measured(
            live_step(
                site,
                streams,
                interval=plan.interval,
                rounds=plan.rounds,
                grace=plan.live_grace,
                probe=probe,
                votes=plan.live_votes,
            )
        )
        results.live.setdefault(target, []).append(step)
        stragglers = "".join(f", {where} {count}" for where, count in step.stragglers.items())
        say(
            f"  live {target} at {streams} streams: p99 {step.p99_ms:,.1f} ms, "
            f"max {step.max_ms:,.1f} ms, lost {step.lost}{stragglers}"
        )


def _waves(plan: Plan, results: Results, say: Say) -> None:
    """Each wave on a copy of its own of one template database, which grows from wave to wave
    (the seeding is most of a wave's time)."""
    template = asyncio.run(fresh_database(plan.database, plan.var_dir, "bench_wave_template"))
    had = 0
    for games in sorted(plan.waves):
        say(f"Pouch wave: seeding {games - had} more due games on {_where(plan)}...")
        asyncio.run(seed_due_games(template, games - had, say, had=had))
        had = games
        for workers in plan.wave_workers:
            name = f"bench_wave_{games}_{workers}"
            copy = asyncio.run(copy_database(plan.database, template, plan.var_dir, name))
            results.waves.append(_wave(plan, copy, games, workers, say))


def _wave(plan: Plan, settings: Settings, games: int, workers: int, say: Say) -> Wave:
    seconds, resolved = run_workers(settings, plan.var_dir, workers, plan.server_core)
    once = asyncio.run(resolved_exactly_once(settings, games)) and resolved == games
    say(f"  {workers} worker(s): {seconds:.1f} s, resolved {resolved}, exactly once: {once}")
    return Wave(games, workers, seconds, resolved, once)
