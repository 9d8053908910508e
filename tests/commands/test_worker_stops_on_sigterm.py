"""`deaddrop worker` stops on SIGTERM (a process manager's, a container's) within seconds, with
status 0, after finishing its current pass: a real process on its own SQLite file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

STOP_WITHIN = 10.0
"""Seconds the worker may take to exit after SIGTERM (a loaded machine's slack included)."""


def _env(var_dir: Path) -> dict[str, str]:
    env = {**os.environ, "DEADDROP_VAR_DIR": str(var_dir), "SMTP_HOST": ""}
    for name in ("DATABASE_URL", "REDIS_URL", "DEADDROP_TEST_CLOCK_FILE"):
        env.pop(name, None)
    return env


def test_worker_exits_zero_on_sigterm(tmp_path: Path) -> None:
    env = _env(tmp_path)
    command = [sys.executable, "-m", "deaddrop.cli"]
    subprocess.run([*command, "migrate"], env=env, check=True, capture_output=True, timeout=120)
    worker = subprocess.Popen(
        [*command, "worker"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        assert worker.stdout is not None
        started = worker.stdout.readline().decode()
        while started and "Pouch runner" not in started:
            started = worker.stdout.readline().decode()
        assert "started" in started, started
        time.sleep(0.5)  # into its first sleep between passes
        signalled = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        code = worker.wait(timeout=STOP_WITHIN)
        took = time.monotonic() - signalled
        rest = worker.stdout.read().decode()
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    assert code == 0, rest
    assert took < STOP_WITHIN
    assert "Stopped." in rest
    assert "Traceback" not in rest
