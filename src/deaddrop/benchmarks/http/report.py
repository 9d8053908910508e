"""The figures as tables (medians of the repeats, Dead Drop beside the bare app) or JSON."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from deaddrop.benchmarks.http.open_loop import OpenLoop
from deaddrop.benchmarks.http.plan import Plan, Results
from deaddrop.benchmarks.http.saturate import Saturation
from deaddrop.benchmarks.http.stats import median

LABELS = {
    "floor": "Floor GET",
    "cable": "Cable GET",
    "vote": "vote POST",
    "post": "Floor post POST",
    "icon": "Dead Drop's icon (its layers alone)",
    "hello": "bare: JSON hello",
    "page": "bare: HTML page",
    "save": "bare: durable save (SQLite)",
    "shared": "bare: durable save (SQLite), commits shared",
}
WRITES = ("vote", "post")
"""Dead Drop's saves, each compared with the bare app's plain durable save too."""
WIDTH = 150
"""Wide enough for the live table's columns, on a terminal or in a file."""
BUSY_LOAD = 0.5
"""A load average above this before the run: other work shared the cores, say so."""


def as_json(plan: Plan, results: Results) -> str:
    """The plan and every run's figures, as JSON."""

    def plain(value: Any) -> Any:
        return str(value) if isinstance(value, Path) else value

    data = {"plan": dataclasses.asdict(plan), "results": dataclasses.asdict(results)}
    return json.dumps(data, indent=2, default=plain)


def print_tables(plan: Plan, results: Results, console: Console | None = None) -> None:
    """Every table of the run."""
    out = console or Console(width=WIDTH)
    out.print(_machine_line(plan, results))
    if results.saturation:
        out.print(_saturation_table(results))
    if results.open_loop:
        out.print(_open_loop_table(results))
    if results.live:
        out.print(_live_table(plan, results))
        out.print(_pushes_table(results))
    if results.waves:
        out.print(_wave_table(results))
    if results.scaling:
        out.print(_scaling_table(plan, results))


def _machine_line(plan: Plan, results: Results) -> str:
    servers = "server" if plan.processes == 1 else f"{plan.processes} server processes"
    cores = f"{servers} from core {plan.server_core}, client on core {plan.client_core}"
    line = (
        f"{results.cpus} CPUs ({cores}); load average {results.load_before:.1f} before, "
        f"{results.load_after:.1f} after; medians of {plan.repeats} runs."
    )
    if plan.server_share is not None:
        line += f" Each server capped at {100 * plan.server_share:g}% of one core."
    if results.load_before > BUSY_LOAD:
        line += "\n[bold]The machine was busy with other work: these are not its figures.[/bold]"
    return line


def _saturation_table(results: Results) -> Table:
    table = Table(title="Saturation (wrk-style, closed loop)")
    columns = ["req/s", "% of bare hello", "p50 ms", "p99 ms", "CPU % server / client"]
    columns.append("client µs/req")
    for column in ("request", *columns, "replies"):
        table.add_column(column, justify="left" if column == "request" else "right")
    runs = results.saturation
    shares = hello_shares(results)
    for kind, label in LABELS.items():
        if kind not in runs:
            continue
        share = shares.get(kind)
        table.add_row(
            label,
            f"{median([run.rate for run in runs[kind]]):,.1f}",
            "-" if share is None else f"{100 * share:.1f}%",
            f"{median([r.p50_ms for r in runs[kind]]):,.1f}",
            f"{median([r.p99_ms for r in runs[kind]]):,.1f}",
            f"{median([r.server_cpu_percent for r in runs[kind]]):.0f} / "
            f"{median([r.client_cpu_percent for r in runs[kind]]):.0f}",
            f"{median([_client_cost(r) for r in runs[kind]]):,.0f}",
            _outcomes(run.outcomes for run in runs[kind]),
        )
    captions = [_pairs_line(results), _beside_the_bare_save(shares)]
    table.caption = "\n".join(line for line in captions if line) or None
    return table


def hello_shares(results: Results) -> dict[str, float]:
    """Each kind's rate as a share of the bare hello's: the median of its runs' shares of the
    hello run right after each (its pair); for a kind without pairs, its median rate over the
    hello runs' median."""
    runs = results.saturation
    hello = median([run.rate for run in runs.get("hello", [])])
    shares = {"hello": 1.0} if hello else {}
    for kind, measured in runs.items():
        if kind == "hello":
            continue
        pairs = results.paired_hello.get(kind, [])
        if len(pairs) == len(measured) and all(pairs):
            each = zip(measured, pairs, strict=True)
            shares[kind] = median([run.rate / pair for run, pair in each])
        elif hello:
            shares[kind] = median([run.rate for run in measured]) / hello
    return shares


def _pairs_line(results: Results) -> str | None:
    """How the shares were taken, with how far the bare hello's rate moved over the run."""
    rates = [run.rate for run in results.saturation.get("hello", [])]
    rates += [rate for pairs in results.paired_hello.values() for rate in pairs]
    if not results.paired_hello or not rates:
        return None
    return (
        "% of bare hello: each run's rate over that of a bare hello run right after it, the "
        f"median of the pairs (the bare hello ran at {min(rates):,.0f}-{max(rates):,.0f} req/s "
        "over this run)"
    )


def _beside_the_bare_save(shares: dict[str, float]) -> str | None:
    """Dead Drop's saves as a share of the bare durable save's rate (the least a vote does)."""
    plain = shares.get("save")
    if not plain:
        return None
    found = [
        f"{LABELS[kind]} {100 * shares[kind] / plain:.1f}%" for kind in WRITES if kind in shares
    ]
    return "Of the bare durable save's rate: " + ", ".join(found) if found else None


def _client_cost(run: Saturation) -> float:
    """The client's CPU microseconds per request: 1,000,000 over it is the most requests a
    second that one core of this client could send, whatever the server."""
    return _per_request(run.client_cpu_percent, run)


def _outcomes(each: Iterable[dict[str, int]]) -> str:
    total: Counter[str] = Counter()
    for outcomes in each:
        total.update(outcomes)
    return " ".join(f"{key}×{count}" for key, count in sorted(total.items()))


def _open_loop_table(results: Results) -> Table:
    table = Table(title="Open loop at fixed rates (latency from each request's scheduled time)")
    columns = ("req/s", "Dead Drop p50 / p99 ms", "warm-up p99 ms", "done/s", "unanswered")
    for column in (*columns, "replies", "closed keep-alive", "server CPU"):
        table.add_column(column, justify="right")
    table.add_column("bare hello p50 / p99 ms", justify="right")
    dead, bare = results.open_loop.get("deaddrop", []), results.open_loop.get("bare", [])
    for rate in sorted({run.rate for run in dead + bare}):
        mine = [run for run in dead if run.rate == rate]
        theirs = [run for run in bare if run.rate == rate]
        table.add_row(
            f"{rate:g}",
            _p50_p99(mine),
            f"{median([run.warmup_p99_ms for run in mine]):,.1f}" if mine else "-",
            f"{median([run.done_rate for run in mine]):,.1f}" if mine else "-",
            str(sum(run.unanswered for run in mine)),
            _outcomes(run.outcomes for run in mine),
            # The harness's, apart from the server's replies and failures (open_loop.py).
            str(sum(run.closed_keep_alive for run in mine)),
            f"{median([run.server_cpu_percent for run in mine]):.0f}%" if mine else "-",
            _p50_p99(theirs),
        )
    return table


def _p50_p99(runs: list[OpenLoop] | list[Saturation]) -> str:
    if not runs:
        return "-"
    return f"{median([r.p50_ms for r in runs]):,.1f} / {median([r.p99_ms for r in runs]):,.1f}"


def _live_table(plan: Plan, results: Results) -> Table:
    title = (
        f"Live: a Floor post to its game's readers, commit to reader "
        f"(one post per game every {plan.interval:g} s, {plan.rounds} rounds"
        f"{', one vote per game between posts' if plan.live_votes else ''})"
    )
    table = Table(title=title)
    columns = ("streams", "p50 / p99 ms", "lost", "failed posts", "drops", "refused opens")
    extra = ("push KB", "RSS MB", "CPU %", "bare p50 / p99 ms", "bare lost", "bare RSS MB")
    for column in (*columns, *extra):
        table.add_column(column, justify="right")
    bare = {step.streams: step for step in results.live.get("bare", [])}
    for step in results.live.get("deaddrop", []):
        other = bare.get(step.streams)
        table.add_row(
            f"{step.connected}/{step.streams}",
            f"{step.p50_ms:,.1f} / {step.p99_ms:,.1f}",
            f"{step.lost}/{step.deliveries}",
            _outcomes([step.failed_posts]) or "0",
            str(step.drops),
            _outcomes([step.refused]) or "0",  # stream opens turned away: each is a drop too
            f"{step.push_bytes_median / 1024:,.1f}",
            f"{step.rss_bytes / 2**20:,.0f}",
            f"{step.cpu_percent:,.0f}",
            f"{other.p50_ms:,.1f} / {other.p99_ms:,.1f}" if other else "-",
            f"{other.lost}/{other.deliveries}" if other else "-",
            f"{other.rss_bytes / 2**20:,.0f}" if other else "-",
        )
    return table


def _pushes_table(results: Results) -> Table:
    table = Table(title="Live pushes on Dead Drop by kind: how many arrived, median size")
    for column in ("streams", "votes sent", "failed votes", "pushes"):
        table.add_column(column, justify="right")
    for step in results.live.get("deaddrop", []):
        kinds = " · ".join(
            f"{event} {count:,} × {size / 1024:,.1f} KB"
            for event, (count, size) in step.pushes.items()
        )
        table.add_row(
            f"{step.streams}", str(step.votes), _outcomes([step.failed_votes]) or "0", kinds
        )
    return table


def _wave_table(results: Results) -> Table:
    table = Table(title="Pouch wave: `deaddrop worker --once`, every game due at once")
    for column in ("games", "workers", "seconds", "resolved", "exactly once"):
        table.add_column(column, justify="right")
    for wave in results.waves:
        table.add_row(
            f"{wave.games:,}",
            str(wave.workers),
            f"{wave.seconds:,.1f}",
            f"{wave.resolved:,}",
            "yes" if wave.exactly_once else "NO",
        )
    return table


def _scaling_table(plan: Plan, results: Results) -> Table:
    processes = plan.processes
    table = Table(title=f"Scaling: one server process, then {processes} (saturated, in turn)")
    columns = ("1 process req/s", f"{processes} processes req/s", f"{processes} / 1")
    for column in ("request", *columns, "server µs/req 1 / all", "replies"):
        table.add_column(column, justify="left" if column == "request" else "right")
    for kind, runs in results.scaling.items():
        table.add_row(
            LABELS[kind],
            f"{median([run.one.rate for run in runs]):,.1f}",
            f"{median([run.several.rate for run in runs]):,.1f}",
            f"{median([run.ratio for run in runs]):.2f}x",
            f"{median([server_cost(run.one) for run in runs]):,.0f} / "
            f"{median([server_cost(run.several) for run in runs]):,.0f}",
            _outcomes(run.several.outcomes for run in runs),
        )
    share = plan.server_share
    table.caption = (
        f"{processes} / 1: the median of each pair's ratio; every server had "
        f"{plan.connections} connections. "
        + (
            f"Each server capped at {100 * share:g}% of one core: near-linear is near {processes}x."
            if share is not None
            else f"Uncapped: with fewer than {processes + 1} cores the servers share them with "
            "the load, and the ratio measures the machine (see --server-share)."
        )
    )
    return table


def server_cost(run: Saturation) -> float:
    """The servers' CPU microseconds per request."""
    return _per_request(run.server_cpu_percent, run)


def _per_request(cpu_percent: float, run: Saturation) -> float:
    """CPU microseconds per request of a process that used `cpu_percent` over `run`."""
    return cpu_percent / 100 * run.seconds / run.done * 1e6 if run.done else 0.0
