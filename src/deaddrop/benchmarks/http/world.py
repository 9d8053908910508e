"""The measured world: the seeded games, and for every seat the cookies of its player."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from deaddrop.server.cookies import CSRF_COOKIE, SESSION_COOKIE


@dataclass(frozen=True)
class Player:
    """One seat of one game, and what its browser sends: cookies and the CSRF token."""

    game_id: str
    seat: int
    codename: str
    session: str
    csrf: str

    def cookie_header(self) -> str:
        """The `Cookie:` header value of this browser."""
        return f"{SESSION_COOKIE}={self.session}; {CSRF_COOKIE}={self.csrf}"


@dataclass(frozen=True)
class World:
    """Games by public id, each with its players in seat order."""

    database_url: str
    secret_key: str
    games: dict[str, list[Player]]

    def players(self) -> list[Player]:
        """Every seat of every game, game by game."""
        return [player for seats in self.games.values() for player in seats]

    def save(self, path: Path) -> None:
        """Write the world as JSON (the load process reads it)."""
        data = {
            "database_url": self.database_url,
            "secret_key": self.secret_key,
            "games": {game: [asdict(p) for p in seats] for game, seats in self.games.items()},
        }
        path.write_text(json.dumps(data), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> World:
        """Read a world written by `save`."""
        data = json.loads(path.read_text(encoding="utf-8"))
        games = {game: [Player(**p) for p in seats] for game, seats in data["games"].items()}
        return cls(data["database_url"], data["secret_key"], games)
