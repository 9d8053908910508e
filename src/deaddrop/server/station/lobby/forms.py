"""The Station lobby and host forms as typed values, and their checks into per-field messages."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from deaddrop.server.accounts.checks import InvalidField, check_time_zone
from deaddrop.server.accounts.forms import Errors, field
from deaddrop.server.numbers import BadNumber, whole_number
from deaddrop.server.station.game.models import TITLE_MAX
from deaddrop.server.station.host import table_limits
from deaddrop.server.station.lobby.service import NewGame

_TIME = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])")
DAY_LENGTHS: tuple[tuple[int, str], ...] = (
    (24 * 60, "24 hours (one move a day)"),
    (12 * 60, "12 hours"),
    (6 * 60, "6 hours"),
    (60, "1 hour"),
    (30, "30 minutes"),
    (15, "15 minutes"),
    (5, "5 minutes (a quick game)"),
)
"""The day lengths the form offers (S40); any whole number of minutes in range is accepted."""
EXTENSIONS: tuple[tuple[int, str], ...] = (
    (15, "15 minutes"),
    (60, "1 hour"),
    (3 * 60, "3 hours"),
    (6 * 60, "6 hours"),
    (12 * 60, "12 hours"),
    (24 * 60, "24 hours"),
)
"""What the host may extend today's deadline by (at most 24 hours a day, table_limits.py)."""


@dataclass
class NewGameForm:
    """What the create-game form posts."""

    title: str = ""
    pouch_time: str = "21:00"
    time_zone: str = "UTC"
    day_minutes: str = str(24 * 60)
    early_pouch: str = ""


def check_title(raw: str) -> str:
    """A game title: 1–80 printable characters."""
    title = " ".join(raw.split())
    if not title:
        raise InvalidField("Give the game a title.")
    if len(title) > TITLE_MAX:
        raise InvalidField(f"Use at most {TITLE_MAX} characters for the title.")
    if any(unicodedata.category(char).startswith("C") for char in title):
        raise InvalidField("The title contains control characters.")
    return title


def check_pouch_time(raw: str) -> int:
    """A local time of day HH:MM, as minutes after midnight."""
    found = _TIME.fullmatch(raw.strip())
    if found is None:
        raise InvalidField("Enter the Pouch's time of day as HH:MM, e.g. 21:00.")
    return int(found.group(1)) * 60 + int(found.group(2))


def check_day_minutes(raw: str) -> int:
    """A day length in whole minutes, from 5 minutes to 24 hours."""
    try:
        minutes = whole_number(raw, "day_minutes")
    except BadNumber:
        raise InvalidField("Choose a day length from the list.") from None
    if not table_limits.MIN_DAY_MINUTES <= minutes <= table_limits.MAX_DAY_MINUTES:
        raise InvalidField("A day lasts from 5 minutes to 24 hours.")
    return minutes


def check_minutes(raw: str, choices: tuple[tuple[int, str], ...]) -> int:
    """One of the offered durations, in minutes."""
    try:
        minutes = whole_number(raw, "minutes")
    except BadNumber:
        raise InvalidField("Choose a duration from the list.") from None
    if minutes not in dict(choices):
        raise InvalidField("Choose a duration from the list.")
    return minutes


def validate_new_game(form: NewGameForm) -> tuple[NewGame, Errors]:
    """Checked values and the messages for every refused field."""
    errors: Errors = {}
    values = NewGame(
        title=field(errors, "title", lambda: check_title(form.title), ""),
        pouch_minute=field(errors, "pouch_time", lambda: check_pouch_time(form.pouch_time), 0),
        time_zone=field(errors, "time_zone", lambda: check_time_zone(form.time_zone), "UTC"),
        day_minutes=field(
            errors, "day_minutes", lambda: check_day_minutes(form.day_minutes), 24 * 60
        ),
        early_pouch=form.early_pouch in ("on", "yes", "1", "true"),
    )
    return values, errors
