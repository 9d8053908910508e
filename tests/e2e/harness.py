"""A real server in a subprocess and Debian's chromium under Playwright, for browser tests."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("TEST_CHROMIUM", "/usr/bin/chromium"))
"""The browser the tests drive: Debian's chromium, unless TEST_CHROMIUM names another;
`TEST_CHROMIUM=none` (no browser there) makes the browser tests skip on a machine that has one."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def need_browser() -> None:
    """Skip without chromium on a user's machine; fail in CI, where it must be there."""
    if CHROMIUM.is_file():
        return
    message = f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def running_server(var_dir: Path, extra_env: dict[str, str] | None = None) -> Iterator[str]:
    """`deaddrop serve` on a free port with its own SQLite database; yields the base URL."""
    env = {**os.environ, "DEADDROP_VAR_DIR": str(var_dir), **(extra_env or {})}
    env.pop("DATABASE_URL", None)
    log = (var_dir / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "deaddrop.cli", "serve", "--port", "0"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        base = wait_until_serving(process, var_dir / "server.log")
        SERVER_LOGS[base] = var_dir / "server.log"
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


SERVER_LOGS: dict[str, Path] = {}
"""Each running server's log by its base URL, for a failure to show what the server saw."""


def server_log_tail(url: str, lines: int = 80) -> str:
    """The last lines of the log of the server that serves `url` (for a failure's message)."""
    for base, log in SERVER_LOGS.items():
        if url.startswith(base) and log.is_file():
            tail = log.read_text(errors="replace").splitlines()[-lines:]
            return "the server's log ends:\n" + "\n".join(tail)
    return "(no server log)"


STARTUP_SECONDS = 120
"""How long a server may take to come up: seconds alone, but a minute and more on a machine
that runs other servers, browsers and test workers at the same time. Only a failure waits."""
_LISTENING = re.compile(r"Uvicorn running on (http://127\.0\.0\.1:\d+)")


def wait_until_serving(process: subprocess.Popen[bytes], log: Path) -> str:
    """The base URL of a `deaddrop serve --port 0` once it answers (or give up).

    Port 0: the kernel picks a free port as the server binds it, so servers started at once
    (pytest-xdist workers) never race for one; uvicorn's log says which port it got.
    """
    deadline = time.monotonic() + STARTUP_SECONDS
    base = None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log.read_text()}")
        if base is None:
            found = _LISTENING.search(log.read_text())
            base = found.group(1) if found else None
        if base is not None:
            try:
                with urllib.request.urlopen(f"{base}/api/health", timeout=1) as answer:
                    if answer.status == 200:
                        return base
            except OSError:
                pass
        time.sleep(0.05)
    raise RuntimeError(f"the server did not come up:\n{log.read_text()}")


def screenshot_dir(name: str) -> Path:
    """A fresh folder under var/screenshots for one test's pictures."""
    folder = SCREENSHOTS / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder
