"""What a live step opens and posts, on Dead Drop (a game's Floor) and on the bare app.

With several server processes, the readers of one game are spread over them and the posts go
to each in turn: a post reaches readers of other processes only through the shared broker.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Protocol

from deaddrop.benchmarks.http.sse import StreamRequest
from deaddrop.benchmarks.http.wire import Address, json_post
from deaddrop.benchmarks.http.world import World

EVENT_STREAM = "text/event-stream"


class LiveSite(Protocol):
    """A server with pages that listen (rooms) and posts that they must all receive."""

    def reader(self, index: int) -> tuple[Address, str, StreamRequest]:
        """The server, room and opening request of the `index`-th reader."""
        ...

    def post(self, room: str, number: int, text: str) -> tuple[Address, bytes]:
        """The server and request of the `number`-th post to `room`, saying `text`."""
        ...

    def vote(self, room: str, number: int) -> tuple[Address, bytes] | None:
        """The server and request of the `number`-th vote in `room` (None: it has none)."""
        ...


def stream_get(address: Address, path: str, cookie: str | None, last_id: int | None) -> bytes:
    """The GET of an EventSource, with Last-Event-ID when it reconnects."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {address.host}:{address.port}"]
    lines.append(f"Accept: {EVENT_STREAM}")
    if cookie:
        lines.append(f"Cookie: {cookie}")
    if last_id is not None:
        lines.append(f"Last-Event-ID: {last_id}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class _Spread:
    """Readers and posts over the servers in turn."""

    def __init__(self, addresses: Sequence[Address], world: World) -> None:
        self.addresses = tuple(addresses)
        self.world = world
        self.players = world.players()
        self._posts = itertools.count()

    def address_of(self, number: int) -> Address:
        """The server of the `number`-th reader."""
        return self.addresses[number % len(self.addresses)]

    def next_address(self) -> Address:
        """The server of the next post."""
        return self.address_of(next(self._posts))


class DeadDropSite(_Spread):
    """Readers are seats with their game's Floor open; a post is a seat's Floor message."""

    def reader(self, index: int) -> tuple[Address, str, StreamRequest]:
        """The seat's Floor page stream (a seat has several pages open past 10 per game)."""
        player = self.players[index % len(self.players)]
        path = f"/games/{player.game_id}/events?tab=floor"
        address = self.address_of(index)

        def request(last_id: int | None) -> bytes:
            return stream_get(address, path, player.cookie_header(), last_id)

        return address, player.game_id, request

    def post(self, room: str, number: int, text: str) -> tuple[Address, bytes]:
        """Seat `number` (in turn) posts to the Floor."""
        seats = self.world.games[room]
        player = seats[number % len(seats)]
        path = f"/api/games/{room}/chat/floor"
        address = self.next_address()
        cookie = player.cookie_header()
        return address, json_post(address, path, {"text": text}, cookie, player.csrf)

    def vote(self, room: str, number: int) -> tuple[Address, bytes] | None:
        """Seat `number` (in turn) votes, for a seat further on each round (S21: a change
        is a new vote, pushed to every open Floor as its tally and votes)."""
        seats = self.world.games[room]
        player = seats[number % len(seats)]
        target = seats[(player.seat + 1 + number) % len(seats)].codename
        path = f"/api/games/{room}/vote"
        address = self.next_address()
        cookie = player.cookie_header()
        return address, json_post(address, path, {"vote": target}, cookie, player.csrf)


class BareSite(_Spread):
    """The bare app's rooms (named after the same games), ten readers each."""

    def reader(self, index: int) -> tuple[Address, str, StreamRequest]:
        """A reader of the room of the same game as on Dead Drop."""
        room = self.players[index % len(self.players)].game_id
        address = self.address_of(index)

        def request(last_id: int | None) -> bytes:
            return stream_get(address, f"/events/{room}", None, last_id)

        return address, room, request

    def post(self, room: str, number: int, text: str) -> tuple[Address, bytes]:
        """A post to the room."""
        address = self.next_address()
        return address, json_post(address, f"/post/{room}", {"text": text}, "", "")

    def vote(self, room: str, number: int) -> tuple[Address, bytes] | None:
        """The bare app has no votes."""
        return None
