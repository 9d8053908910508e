"""The practice form (players, the bots' level, an optional day length) and its checks."""

from __future__ import annotations

from dataclasses import dataclass

from deaddrop.engine.station.roles import MAX_PLAYERS, MIN_PLAYERS
from deaddrop.server.accounts.checks import InvalidField
from deaddrop.server.accounts.forms import Errors, field
from deaddrop.server.numbers import BadNumber, whole_number
from deaddrop.server.station.bot_seats.lobby import BOT_LEVELS

NO_DAY_LENGTH = "none"
"""The day-length choice of a game whose Pouch waits for the person alone."""
DAY_CHOICES: tuple[tuple[str, str], ...] = (
    (NO_DAY_LENGTH, "None: until you are done"),
    ("2", "2 minutes"),
    ("5", "5 minutes"),
    ("15", "15 minutes"),
)
"""The day lengths the practice form offers: a short day departs by itself."""
LEVEL_CHOICES: tuple[tuple[str, str], ...] = tuple((name, name.capitalize()) for name in BOT_LEVELS)
"""The bots' levels, as the lobby's Add a bot names them."""
PLAYER_CHOICES: tuple[tuple[str, str], ...] = tuple(
    (str(n), f"{n}: you and {n - 1} bots") for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
)
"""The table sizes (S1), the person's seat included."""
LABELS = {"players": "Players", "level": "Bots' level", "day": "Day length"}
"""The fields' names in the error summary."""


@dataclass
class PracticeForm:
    """What the practice form posts."""

    players: str = "6"
    level: str = "heuristic"
    day: str = NO_DAY_LENGTH


@dataclass(frozen=True)
class Practice:
    """A checked practice request."""

    players: int
    """Seats at the table, the person's included (S1: 6 to 10)."""
    level: str
    """Every bot's level."""
    day_minutes: int | None
    """The day's length, or None: the Pouch leaves when the person is done (S41)."""


def check_players(raw: str) -> int:
    """A table of 6 to 10 players (S1)."""
    try:
        players = whole_number(raw, "players")
    except BadNumber:
        raise InvalidField(f"Choose {MIN_PLAYERS} to {MAX_PLAYERS} players.") from None
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidField(f"Station seats {MIN_PLAYERS} to {MAX_PLAYERS} players (rule S1).")
    return players


def check_level(raw: str) -> str:
    """One of the bots' levels."""
    if raw not in BOT_LEVELS:
        raise InvalidField(f"Choose the bots' level: {', '.join(BOT_LEVELS)}.")
    return raw


def check_day(raw: str) -> int | None:
    """One of the offered day lengths, in minutes; None for no day length."""
    if raw not in dict(DAY_CHOICES):
        raise InvalidField("Choose a day length from the list.")
    return None if raw == NO_DAY_LENGTH else int(raw)


def validate_practice(form: PracticeForm) -> tuple[Practice, Errors]:
    """Checked values and the messages for every refused field."""
    errors: Errors = {}
    values = Practice(
        players=field(errors, "players", lambda: check_players(form.players), MIN_PLAYERS),
        level=field(errors, "level", lambda: check_level(form.level), BOT_LEVELS[0]),
        day_minutes=field(errors, "day", lambda: check_day(form.day), None),
    )
    return values, errors
