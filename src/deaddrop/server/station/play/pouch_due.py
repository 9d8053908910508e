"""The Pouch runner's name among the background jobs (server/jobs.py).

A save that made a Pouch due at once (S41), or a resume past the deadline, tells the runner so
after its commit (`GameWrite.due(POUCH_RUNNER)`), so that it need not wait for its next poll.
Open pages do not listen here: they read the journal (`server/live/`), which also reaches
other processes and replays after a reconnect.
"""

from __future__ import annotations

POUCH_RUNNER = "pouch_runner"
"""The job that resolves the Pouches (`play/pouch_runner.py`)."""
