"""The processes measured: `deaddrop serve` and the bare app, each pinned to the server core."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from deaddrop.benchmarks.http.wire import Address

STARTUP_SECONDS = 120.0
"""How long a server may take to answer (a loaded machine takes a while to import it all)."""
_LISTENING = re.compile(r"Uvicorn running on http://127\.0\.0\.1:(\d+)")
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Server:
    """A running server process and where it listens."""

    process: subprocess.Popen[bytes]
    address: Address

    def rss_bytes(self) -> int:
        """Resident memory now (/proc), 0 once the process is gone."""
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return 0
        found = re.search(r"VmRSS:\s+(\d+) kB", status)
        return int(found.group(1)) * 1024 if found else 0

    def cpu_seconds(self) -> float:
        """User plus system CPU time the process has used so far (/proc)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS


def pinned(command: list[str], core: int | None) -> list[str]:
    """`command` under `taskset -c core` when pinning is asked for and possible."""
    if core is None or shutil.which("taskset") is None:
        return command
    return ["taskset", "-c", str(core), *command]


def pin_this_process(core: int | None) -> None:
    """Keep this (client) process on `core`."""
    if core is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})


@contextmanager
def running(command: list[str], env: Mapping[str, str], log: Path, health: str) -> Iterator[Server]:
    """Start `command` (a uvicorn server on port 0), wait until `health` answers, stop it after."""
    with log.open("wb") as output:
        process = subprocess.Popen(command, env=dict(env), stdout=output, stderr=subprocess.STDOUT)
        try:
            yield Server(process, wait_until_serving(process, log, health))
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def deaddrop_command(core: int | None) -> list[str]:
    """`deaddrop serve` on a port the kernel picks."""
    return pinned([sys.executable, "-m", "deaddrop.cli", "serve", "--port", "0"], core)


def bare_command(core: int | None, database: Path) -> list[str]:
    """The bare Litestar app on a port the kernel picks, its durable saves in `database`."""
    module = "deaddrop.benchmarks.http.bare_app"
    command = [sys.executable, "-m", module, "--port", "0", "--database", str(database)]
    return pinned(command, core)


def wait_until_serving(process: subprocess.Popen[bytes], log: Path, health: str) -> Address:
    """The address of a server once `health` answers 200 (or raise with its log)."""
    deadline = time.monotonic() + STARTUP_SECONDS
    address = None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log.read_text()}")
        if address is None:
            found = _LISTENING.search(log.read_text(errors="replace"))
            address = Address("127.0.0.1", int(found.group(1))) if found else None
        if address is not None:
            try:
                with urllib.request.urlopen(address.base_url + health, timeout=2) as answer:
                    if answer.status == 200:
                        return address
            except OSError:
                pass
        time.sleep(0.05)
    raise RuntimeError(f"the server did not come up:\n{log.read_text()}")
