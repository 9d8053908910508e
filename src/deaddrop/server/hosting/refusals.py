"""What a game's server refuses, in plain words with the rule behind it, for every game alike."""

from __future__ import annotations


class Refused(Exception):
    """A request the game does not allow now; `message` is for the person, `rule` the id."""

    def __init__(self, message: str, rule: str | None = None, status_code: int = 422) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.status_code = status_code


class Stale(Refused):
    """The page the request came from is out of date (the game moved on since it was built)."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message, rule, 409)
