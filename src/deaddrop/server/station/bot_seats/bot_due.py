"""The bot runner's name among the background jobs (server/jobs.py), apart from the runner so
that the writers that make a bot's move due (the Pouch runner, a practice game's start) can
name it without importing the runner.

A write that opens a day tells the bot runner after its commit (`GameWrite.due(BOT_RUNNER)`),
so that bots decide at once rather than at the runner's next poll.
"""

from __future__ import annotations

BOT_RUNNER = "bot_runner"
"""The job that plays the bot seats (`bot_seats/runner.py`)."""
