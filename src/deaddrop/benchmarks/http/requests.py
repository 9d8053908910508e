"""The requests of the load, as bytes: what a player's browser sends for each kind of request."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import zip_longest

from deaddrop.benchmarks.http.bare_save import ROOMS, SEATS, SESSION_COOKIE, session_key
from deaddrop.benchmarks.http.wire import Address, get_request, json_post
from deaddrop.benchmarks.http.world import Player, World

PAGE = "text/html,application/xhtml+xml"
DEADDROP_KINDS = ("floor", "cable", "vote", "post", "icon")
ICON_PATH = "/favicon.svg"
"""Dead Drop's icon: every layer of the app around a handler that does nothing (no session,
no database), answered from memory: what the layers cost apart from any route's work."""
BARE_KINDS = ("hello", "page", "save", "shared")
MIX = {"floor": 6, "cable": 2, "vote": 1, "post": 1}
"""The issue's open-loop mix: 60% Floor GET, 20% Cable GET, 10% vote, 10% Floor post."""


def interleaved(world: World) -> list[Player]:
    """Every player, one seat of each game in turn, so that neighbours hit different games."""
    rows = zip_longest(*world.games.values())
    return [player for row in rows for player in row if player is not None]


class RequestMaker:
    """Builds the n-th request of a kind, turning over the players."""

    def __init__(self, addresses: Sequence[Address], world: World | None = None) -> None:
        self.addresses = tuple(addresses)
        self.address = self.addresses[0]  # the Host header's (every server is on this host)
        self.players = interleaved(world) if world is not None else []
        games = world.games if world is not None else {}
        self.codenames = {game: [p.codename for p in seats] for game, seats in games.items()}

    def address_of(self, number: int) -> Address:
        """The server of the `number`-th connection or request, in turn when there are several."""
        return self.addresses[number % len(self.addresses)]

    def make(self, kind: str, number: int) -> bytes:
        """The `number`-th request of `kind`."""
        if kind == "hello":
            return get_request(self.address, "/hello")
        if kind == "page":
            return get_request(self.address, "/page", accept=PAGE)
        if kind in ("save", "shared"):
            return self._bare_save(number, "/shared" if kind == "shared" else "")
        player = self.players[number % len(self.players)]
        game = f"/games/{player.game_id}"
        if kind in ("floor", "cable"):
            return get_request(self.address, f"{game}/{kind}", player.cookie_header(), PAGE)
        if kind == "vote":
            return self._vote(player, number // len(self.players))
        if kind == "post":
            text = {"text": f"Load post {number}: the drop is at the bridge."}
            return json_post(self.address, f"/api{game}/chat/floor", text, *self._auth(player))
        if kind == "icon":  # with the player's cookies, as a browser asks for it
            return get_request(self.address, ICON_PATH, player.cookie_header())
        raise ValueError(f"no such kind of request: {kind}")

    def _bare_save(self, number: int, tail: str) -> bytes:
        # The seats in turn, as `interleaved` turns over Dead Drop's; each vote a real change.
        room, seat = number % ROOMS, number // ROOMS % SEATS
        cookie = f"{SESSION_COOKIE}={session_key(room, seat)}"
        target = f"AGENT{(seat + 1 + number // (ROOMS * SEATS) % 2) % SEATS}"
        return json_post(self.address, f"/save/{room}{tail}", {"vote": target}, cookie, "")

    def _vote(self, player: Player, visit: int) -> bytes:
        # Every other visit changes the vote between two seats: each one is a real write.
        names = self.codenames[player.game_id]
        target = names[(player.seat + 1 + visit % 2) % len(names)]
        path = f"/api/games/{player.game_id}/vote"
        return json_post(self.address, path, {"vote": target}, *self._auth(player))

    @staticmethod
    def _auth(player: Player) -> tuple[str, str]:
        return player.cookie_header(), player.csrf


def mix_schedule(count: int, seed: int = 15) -> list[str]:
    """`count` kinds in the issue's proportions, shuffled reproducibly in blocks of ten."""
    block = [kind for kind, weight in MIX.items() for _ in range(weight)]
    rng = random.Random(seed)
    kinds: list[str] = []
    while len(kinds) < count:
        rng.shuffle(block)
        kinds.extend(block)
    return kinds[:count]
