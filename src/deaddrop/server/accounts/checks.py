"""`check_*`: validate and normalise what a person typed into an account form."""

from __future__ import annotations

import re
import threading
import unicodedata
import zoneinfo
from collections.abc import Iterable
from functools import cache

from zxcvbn import zxcvbn

from deaddrop.server.accounts import limits

_USERNAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
# Deliberately loose: one @, something on each side, a dot in the domain. Proof of an address
# is a confirmation mail, which a later version can send.
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
# Regions whose zones are offered in the picker; legacy aliases (US/Eastern, EST5EDT …) are
# still accepted when typed, but not listed.
_REGIONS = (
    "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe",
    "Indian", "Pacific",
)  # fmt: skip
# zxcvbn's scores run 0–4; 3 ("safely unguessable") needs about 10^8 guesses or more: far
# past any online attack, and slow offline against argon2.
PASSWORD_MIN_SCORE = 3
# zxcvbn's time grows with length and it refuses more than 72 characters; a password whose
# first 72 are hard to guess is hard to guess.
_SCORED_LENGTH = 72
# zxcvbn keeps the words it is told to avoid in a module-wide dictionary, so two checks at
# once in two threads would mix up each other's words.
_ZXCVBN = threading.Lock()


class InvalidField(ValueError):
    """A field's value was refused; the message is shown to the person next to the field."""


def check_username(raw: str) -> str:
    """A log-in name: 3–30 letters, digits, `_` or `-`, case-insensitive (stored lower case)."""
    username = raw.strip().lower()
    if not username:
        raise InvalidField("Enter a username.")
    if len(username) < limits.USERNAME_MIN or len(username) > limits.USERNAME_MAX:
        raise InvalidField(
            f"Use {limits.USERNAME_MIN} to {limits.USERNAME_MAX} characters for the username."
        )
    if not _USERNAME.fullmatch(username):
        raise InvalidField(
            "Use only letters a–z, digits, '_' and '-' in the username, starting with a letter "
            "or digit."
        )
    return username


def check_password(password: str, *, username: str = "", avoid: Iterable[str] = ()) -> str:
    """A new password: long enough, not absurdly long, not the username itself, and not easy
    to guess (zxcvbn: no common password, keyboard run, sequence, repeat or the `avoid` words
    such as the person's names on their own). Takes tens of milliseconds: call it off the
    event loop."""
    if len(password) < limits.PASSWORD_MIN:
        raise InvalidField(f"Use at least {limits.PASSWORD_MIN} characters for the password.")
    if len(password) > limits.PASSWORD_MAX:
        raise InvalidField(f"Use at most {limits.PASSWORD_MAX} characters for the password.")
    if username and password.strip().lower() == username:
        raise InvalidField("The password must not be the username.")
    words = [word for word in (username, *avoid) if word]
    with _ZXCVBN:
        strength = zxcvbn(password[:_SCORED_LENGTH], user_inputs=words)
    if strength["score"] < PASSWORD_MIN_SCORE:
        feedback = strength["feedback"]
        raise InvalidField(_too_easy(feedback["warning"], feedback["suggestions"]))
    return password


def _too_easy(warning: str, suggestions: list[str]) -> str:
    """Our verdict, then zxcvbn's own plain words for why and what to do instead."""
    said = ["This password is too easy to guess."]
    if warning:
        said.append(warning)
    said.extend(suggestions or ["Add another word or two. Uncommon words are better."])
    return " ".join(said)


def check_display_name(raw: str) -> str:
    """A display name: 1–50 printable characters, surrounding spaces trimmed."""
    name = " ".join(raw.split())
    if not name:
        raise InvalidField("Enter a display name.")
    if len(name) > limits.DISPLAY_NAME_MAX:
        raise InvalidField(
            f"Use at most {limits.DISPLAY_NAME_MAX} characters for the display name."
        )
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise InvalidField("The display name contains control characters.")
    return name


def check_email(raw: str) -> str | None:
    """An optional e-mail address: blank means none."""
    email = raw.strip()
    if not email:
        return None
    if len(email) > limits.EMAIL_MAX:
        raise InvalidField(f"Use at most {limits.EMAIL_MAX} characters for the e-mail address.")
    if not _EMAIL.fullmatch(email):
        raise InvalidField("Enter an e-mail address like name@example.org, or leave it blank.")
    return email


def check_time_zone(raw: str) -> str:
    """An IANA time zone name known to this machine's zone database, e.g. Europe/Berlin."""
    name = raw.strip()
    if name == "UTC" or name in known_time_zones():
        return name
    raise InvalidField("Choose a time zone from the list, e.g. Europe/Berlin.")


@cache
def known_time_zones() -> frozenset[str]:
    """Every zone name the zone database knows."""
    return frozenset(zoneinfo.available_timezones())


@cache
def offered_time_zones() -> dict[str, tuple[str, ...]]:
    """The zones offered in the picker, grouped by region, sorted."""
    grouped: dict[str, list[str]] = {region: [] for region in _REGIONS}
    for name in known_time_zones():
        region = name.split("/", 1)[0]
        if region in grouped and "/" in name:
            grouped[region].append(name)
    return {region: tuple(sorted(names)) for region, names in grouped.items() if names}
