"""`make run` serves where its HOST and PORT say (README: `make run PORT=8080`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _serve_line(*variables: str, env: dict[str, str] | None = None) -> str:
    """The `deaddrop serve` command `make run` would run (a dry run: nothing starts)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(
        ["make", "--dry-run", "--no-print-directory", "run", *variables],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return next(line for line in done.stdout.splitlines() if "deaddrop serve" in line)


def test_make_run_serves_on_the_port_and_host_given() -> None:
    line = _serve_line("PORT=8080", "HOST=0.0.0.0")
    assert line.endswith("deaddrop serve --host 0.0.0.0 --port 8080")


def test_make_run_serves_on_localhost_8000_by_default_whatever_the_shell_exports() -> None:
    env = {"PATH": "/usr/bin:/bin", "HOST": "workstation.example"}
    assert _serve_line(env=env).endswith("deaddrop serve --host 127.0.0.1 --port 8000")
