"""What a live step opens and posts, on Dead Drop (a game's Floor) and on the bare app."""

from __future__ import annotations

from typing import Protocol

from deaddrop.benchmarks.http.sse import StreamRequest
from deaddrop.benchmarks.http.wire import Address, json_post
from deaddrop.benchmarks.http.world import World

EVENT_STREAM = "text/event-stream"


class LiveSite(Protocol):
    """A server with pages that listen (rooms) and posts that they must all receive."""

    address: Address

    def reader(self, index: int) -> tuple[str, StreamRequest]:
        """The room of the `index`-th reader and the request that opens its stream."""
        ...

    def post(self, room: str, number: int, text: str) -> bytes:
        """The `number`-th post to `room`, saying `text`."""
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


class DeadDropSite:
    """Readers are seats with their game's Floor open; a post is a seat's Floor message."""

    def __init__(self, address: Address, world: World) -> None:
        self.address = address
        self.world = world
        self.players = world.players()

    def reader(self, index: int) -> tuple[str, StreamRequest]:
        """The seat's Floor page stream (a seat has several pages open past 10 per game)."""
        player = self.players[index % len(self.players)]
        path = f"/games/{player.game_id}/events?tab=floor"

        def request(last_id: int | None) -> bytes:
            return stream_get(self.address, path, player.cookie_header(), last_id)

        return player.game_id, request

    def post(self, room: str, number: int, text: str) -> bytes:
        """Seat `number` (in turn) posts to the Floor."""
        seats = self.world.games[room]
        player = seats[number % len(seats)]
        path = f"/api/games/{room}/chat/floor"
        return json_post(self.address, path, {"text": text}, player.cookie_header(), player.csrf)


class BareSite:
    """The bare app's rooms (named after the same games), ten readers each."""

    def __init__(self, address: Address, world: World) -> None:
        self.address = address
        self.players = world.players()

    def reader(self, index: int) -> tuple[str, StreamRequest]:
        """A reader of the room of the same game as on Dead Drop."""
        room = self.players[index % len(self.players)].game_id

        def request(last_id: int | None) -> bytes:
            return stream_get(self.address, f"/events/{room}", None, last_id)

        return room, request

    def post(self, room: str, number: int, text: str) -> bytes:
        """A post to the room."""
        return json_post(self.address, f"/post/{room}", {"text": text}, "", "")
