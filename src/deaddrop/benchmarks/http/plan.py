"""What a run measures (the plan) and what it found (the results)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from deaddrop.benchmarks.http.live import LiveStep
from deaddrop.benchmarks.http.open_loop import OpenLoop
from deaddrop.benchmarks.http.pouch_wave import Wave
from deaddrop.benchmarks.http.saturate import Saturation
from deaddrop.benchmarks.http.scaling import ScaleRun
from deaddrop.benchmarks.http.seed import Sizes

PHASES = ("saturate", "open", "live", "wave", "scale")
DEFAULT_PHASES = ("saturate", "open", "live", "wave")
"""`scale` runs only when asked for: it needs several processes."""


def default_cores() -> tuple[int | None, int | None]:
    """(server core, client core): 0 and 1 when there are two cores or more, else unpinned."""
    return (0, 1) if (os.cpu_count() or 1) >= 2 else (None, None)


@dataclass(frozen=True)
class Plan:
    """Every size, duration and rate of a run; the defaults are issue 15's."""

    database: str = "sqlite"
    """`sqlite` (a new file) or a PostgreSQL URL (a schema of the run's own in it)."""
    sizes: Sizes = field(default_factory=Sizes)
    connections: int = 10
    seconds: float = 10.0
    warmup: float = 2.0
    repeats: int = 3
    rates: tuple[float, ...] = (14.0, 22.0, 100.0)
    open_seconds: float = 20.0
    open_warmup: float = 10.0
    """Open loop: seconds at the same rate before each run, its p99 shown apart."""
    open_grace: float = 30.0
    streams: tuple[int, ...] = (200, 1000, 2000)
    interval: float = 30.0
    rounds: int = 2
    live_grace: float = 30.0
    live_votes: bool = False
    """Live: one vote per game halfway between two of its posts, too."""
    waves: tuple[int, ...] = (1000, 5000, 10000)
    wave_workers: tuple[int, ...] = (1,)
    processes: int = 1
    """`deaddrop serve` processes, on the server core and the next ones; more than one needs
    Redis for live delivery between them (and PostgreSQL to be a fair picture)."""
    redis_url: str | None = None
    server_share: float | None = None
    """Each server process (Dead Drop's and the bare app) capped at this share of one core, in
    a cgroup of its own (benchmarks/http/cpu_caps.py); None: uncapped."""
    server_core: int | None = 0
    client_core: int | None = 1
    phases: tuple[str, ...] = DEFAULT_PHASES
    var_dir: Path = Path("var/bench-http")


@dataclass
class Results:
    """The figures of every run of a plan, Dead Drop's beside the bare app's."""

    seeding_seconds: float = 0.0
    load_before: float = 0.0
    load_after: float = 0.0
    cpus: int = 0
    saturation: dict[str, list[Saturation]] = field(default_factory=dict)
    """By kind: floor, cable, vote, post (Dead Drop), hello, page (bare); one per repeat."""
    paired_hello: dict[str, list[float]] = field(default_factory=dict)
    """By kind but the hello: the rate of the bare hello run right after each of its runs."""
    open_loop: dict[str, list[OpenLoop]] = field(default_factory=dict)
    """`deaddrop` (the issue's mix) and `bare` (the JSON hello): every rate, every repeat."""
    live: dict[str, list[LiveStep]] = field(default_factory=dict)
    """`deaddrop` and `bare`: one per step."""
    waves: list[Wave] = field(default_factory=list)
    scaling: dict[str, list[ScaleRun]] = field(default_factory=dict)
    """By kind: each pair of runs on the first process alone and on all of them."""
