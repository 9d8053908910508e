"""What a vote and a post cost in this process, in machine instructions counted by valgrind.

    PYTHONPATH=src:tools .venv/bin/python tools/instruction_cost.py [--requests 200]

The same game and requests as `tools/raw_cost.py` (handed to the app as ASGI calls, no HTTP
client), run under valgrind's callgrind with counting switched on (`callgrind_control`) only
around the measured requests of each kind. Prints the instructions per request in user space:
the kernel's share (a commit's disk sync, the thread hand-offs) is not counted, nor is the wait
for it. The count is the figure to compare two versions of the code by: on this machine the
CPU time of the same requests swings by 10% from one run to the next, the count by under 1%.
The event loop is uvloop's, as under `deaddrop serve`; the Pouch and bot runners are off
(under valgrind a request takes some fifty times as long, and their passes come by the
clock). A benchmark that prints figures: it never fails on a count. Needs valgrind
(`apt-get install valgrind`); a run takes about half a minute.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import uvloop
from page_cost import _rate_lifted
from raw_cost import Request, measured_app, saves_of

WARM = 100
"""Requests of each kind sent before counting (the caches filled, the code paths taken)."""
_INSIDE = "--inside-callgrind"


def main() -> int:
    """Run this script again under callgrind and print its counts per request."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="requests counted per kind")
    parser.add_argument(_INSIDE, action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.inside_callgrind:
        uvloop.run(_count(arguments.requests))
        return 0
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",  # the seeding runs at full speed and is never counted
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            _INSIDE,
            f"--requests={arguments.requests}",
        ]
        finished = subprocess.run(command, capture_output=True, text=True, check=False)
        if finished.returncode != 0:
            print(finished.stdout, finished.stderr, sep="\n", file=sys.stderr)
            return finished.returncode
        print(finished.stdout, end="")
        for kind, total in _dumped(Path(folder)):
            each = total / arguments.requests / 1e6
            print(f"{kind:5} {each:6.3f} million instructions a request")
    return 0


async def _count(requests: int) -> None:
    """Inside callgrind: each kind's requests counted between a zeroing and a dump."""
    async with measured_app(runners=False) as app:
        saves = await saves_of(app)
        await _counted("vote", saves.vote, requests)
        with _rate_lifted(app):
            await _counted("post", saves.post, requests)


async def _counted(kind: str, request: Request, requests: int) -> None:
    """`requests` requests of `kind` counted alone, dumped under its name."""
    for number in range(WARM):
        await request(number)
    _control("--zero")
    _control("--instr=on")
    for number in range(requests):
        await request(number)
    _control("--instr=off")
    _control(f"--dump={kind}")


def _control(option: str) -> None:
    """Tell this process's callgrind `option`; it must answer OK (else the count is wrong)."""
    answer = subprocess.run(
        ["callgrind_control", option, str(os.getpid())], capture_output=True, text=True
    )
    if answer.returncode != 0 or "Error" in answer.stdout:
        raise RuntimeError(f"callgrind_control {option}: {answer.stdout}{answer.stderr}")


def _dumped(folder: Path) -> list[tuple[str, int]]:
    """(kind, instructions) of each dump callgrind wrote, in order."""
    found = []
    for path in sorted(folder.glob("callgrind.out*")):
        text = path.read_text(errors="replace")
        kind = re.search(r"^desc: Trigger: dump (\w+)", text, re.MULTILINE)
        total = re.search(r"^totals: (\d+)", text, re.MULTILINE)
        if kind is not None and total is not None:
            found.append((kind.group(1), int(total.group(1))))
    return found


if __name__ == "__main__":
    sys.exit(main())
