"""A live step: S open streams, one post per room every interval, commit-to-reader latency.

A post's commit is taken as the moment its reply arrives (the reply leaves after the commit);
a reader's latency is from then to the first event that shows the post's marker, 0 when the
event came first. A delivery is lost when a reader never shows the marker within the grace.
With `votes`, each room also gets one vote halfway between two of its posts (a seat in turn,
for another seat each time): what every open page is pushed then is measured by its size
and kind, and the posts' latency with the votes' pushes going on around them.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from time import monotonic

from deaddrop.benchmarks.http.live_sites import LiveSite
from deaddrop.benchmarks.http.saturate import ERRORS
from deaddrop.benchmarks.http.sse import Reader
from deaddrop.benchmarks.http.stats import median, percentile
from deaddrop.benchmarks.http.wire import Address, Connection

Probe = Callable[[], tuple[int, float]]
"""The server's resident memory (bytes) and CPU seconds used so far."""
OPENING_BATCH = 50
"""Streams opened at a time, a few milliseconds apart, as pages load over a minute."""
LATE_SECONDS = 0.5
"""A delivery this late is counted apart (a lost wake-up made good by the server's sweep)."""
REUSE_SECONDS = 4.0
"""An idle keep-alive connection is used for a post only this long: uvicorn closes one after
5 s, and a post sent on a connection the server is closing fails with no reply (a browser
sends it again; this harness would count it as failed)."""


@dataclass(frozen=True)
class LiveStep:
    """The figures of one step."""

    streams: int
    connected: int
    posts: int
    failed_posts: dict[str, int] = field(default_factory=dict)
    deliveries: int = 0
    lost: int = 0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    drops: int = 0
    push_bytes_median: float = 0.0
    rss_bytes: int = 0
    cpu_percent: float = 0.0
    votes: int = 0
    failed_votes: dict[str, int] = field(default_factory=dict)
    pushes: dict[str, tuple[int, float]] = field(default_factory=dict)
    """By SSE event (`append`, `region`, `page`, …): how many arrived, their median bytes."""
    refused: dict[str, int] = field(default_factory=dict)
    """Stream opens that failed, by status (`503`: turned away) or error (a reset at connect),
    connecting and reconnecting alike; each is also a drop."""
    max_ms: float = 0.0
    stragglers: dict[str, int] = field(default_factory=dict)
    """Deliveries lost or later than LATE_SECONDS, by the reader's server and the post's
    (`lost :8001 <- :8002`): where a wake-up went astray, with several processes."""


@dataclass(frozen=True)
class Sent:
    """One measured post: its marker, room, reply time (None when it failed), outcome and
    server."""

    marker: str
    room: str
    answered: float | None
    outcome: str
    server: Address


async def live_step(
    site: LiveSite,
    streams: int,
    *,
    interval: float,
    rounds: int,
    grace: float,
    probe: Probe,
    votes: bool = False,
) -> LiveStep:
    """Open `streams` readers, post `rounds` times to each room (and vote, with `votes`), wait
    `grace`, measure."""
    readers = [Reader(*site.reader(index)) for index in range(streams)]
    tasks = []
    for number, reader in enumerate(readers):
        tasks.append(asyncio.create_task(reader.run()))
        if number % OPENING_BATCH == OPENING_BATCH - 1:
            await asyncio.sleep(0.02)
    try:
        connected = await _wait_connected(readers, timeout=30 + streams / 20)
        _rss, cpu_before = probe()
        began = monotonic()
        sender = _Sender()
        sent = await _post_rounds(
            site, readers, sender, interval=interval, rounds=rounds, votes=votes
        )
        await _wait_delivered(readers, sent, grace)
        rss, cpu_after = probe()
        cpu = 100 * (cpu_after - cpu_before) / max(monotonic() - began, 1e-9)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return _figures(readers, sent, sender.voted, connected, rss, cpu)


async def _wait_connected(readers: list[Reader], timeout: float) -> int:
    waits = [asyncio.create_task(reader.connected.wait()) for reader in readers]
    _done, late = await asyncio.wait(waits, timeout=timeout)
    for task in late:
        task.cancel()
    return sum(reader.connected.is_set() for reader in readers)


class _Sender:
    """Posts and votes over keep-alive connections (one in use at a time each), their
    outcomes."""

    def __init__(self) -> None:
        self.idle: dict[Address, list[tuple[float, Connection]]] = {}
        self.voted: list[str] = []
        """Each vote's outcome: its status, or the error that came instead."""

    async def send(self, address: Address, request: bytes) -> str:
        """The request's status, or the name of the error that came instead of a reply."""
        connection = _fresh_enough(self.idle.setdefault(address, []), address)
        try:
            status = (await connection.send(request)).status
        except ERRORS as error:
            connection.close()
            return type(error).__name__
        self.idle[address].append((monotonic(), connection))
        return str(status)

    async def vote(self, site: LiveSite, room: str, number: int) -> None:
        """The `number`-th vote of `room`, where the site has votes."""
        made = site.vote(room, number)
        if made is not None:
            self.voted.append(await self.send(*made))

    def close(self) -> None:
        """Close every idle connection."""
        for connections in self.idle.values():
            for _since, connection in connections:
                connection.close()


async def _post_rounds(
    site: LiveSite,
    readers: list[Reader],
    sender: _Sender,
    *,
    interval: float,
    rounds: int,
    votes: bool,
) -> list[Sent]:
    rooms = list(dict.fromkeys(reader.room for reader in readers))
    sent: list[Sent] = []

    async def post(room: str, number: int, marker: str) -> None:
        text = f"Live check {marker}: anyone at the fountain?"
        server, request = site.post(room, number, text)
        outcome = await sender.send(server, request)
        answered = monotonic() if outcome == "200" else None
        sent.append(Sent(marker, room, answered, outcome, server))

    # The Floor shows earlier steps' posts too: each step's markers are its own.
    step = random.randrange(10**9)
    start = monotonic()
    tasks = []
    for at, room, number, index in _schedule(rooms, interval, rounds, votes):
        await asyncio.sleep(max(0.0, start + at - monotonic()))
        if index is None:
            tasks.append(asyncio.create_task(sender.vote(site, room, number)))
        else:
            marker = f"LIVEMARK{step}N{number}N{index}E"
            tasks.append(asyncio.create_task(post(room, number, marker)))
    await asyncio.gather(*tasks)
    sender.close()
    return sent


def _schedule(
    rooms: list[str], interval: float, rounds: int, votes: bool
) -> list[tuple[float, str, int, int | None]]:
    """(seconds from the start, room, round, the room's index; None for a vote): each room's
    posts an interval apart, the rooms spread over it, and its votes halfway between."""
    spread = interval / max(len(rooms), 1)
    found: list[tuple[float, str, int, int | None]] = []
    for number in range(rounds):
        for index, room in enumerate(rooms):
            at = number * interval + index * spread
            found.append((at, room, number, index))
            if votes:
                found.append((at + interval / 2, room, number, None))
    return sorted(found, key=lambda item: item[0])


def _fresh_enough(pool: list[tuple[float, Connection]], address: Address) -> Connection:
    """The most recently idle connection of `pool` if the server still keeps it, else a new one
    (the stale ones are closed)."""
    while pool:
        since, connection = pool.pop()
        if monotonic() - since < REUSE_SECONDS:
            return connection
        connection.close()
    return Connection(address)


async def _wait_delivered(readers: list[Reader], sent: list[Sent], grace: float) -> None:
    """Until every reader shows every successful post of its room, or `grace` has passed."""
    deadline = monotonic() + grace
    by_room = _by_room(readers)
    wanted = [(post.marker, by_room[post.room]) for post in sent if post.answered is not None]
    while monotonic() < deadline:
        if all(marker in r.arrivals for marker, room in wanted for r in room):
            return
        await asyncio.sleep(0.2)


def _by_room(readers: list[Reader]) -> dict[str, list[Reader]]:
    rooms: dict[str, list[Reader]] = {}
    for reader in readers:
        rooms.setdefault(reader.room, []).append(reader)
    return rooms


def _figures(
    readers: list[Reader], sent: list[Sent], voted: list[str], connected: int, rss: int, cpu: float
) -> LiveStep:
    latencies: list[float] = []
    lost = 0
    stragglers: Counter[str] = Counter()
    by_room = _by_room(readers)
    for post in sent:
        if post.answered is None:
            continue
        for reader in by_room[post.room]:
            arrived = reader.arrivals.get(post.marker)
            where = f":{reader.address.port} <- :{post.server.port}"
            if arrived is None:
                lost += 1
                stragglers[f"lost {where}"] += 1
                continue
            latencies.append(max(0.0, arrived - post.answered))
            if latencies[-1] > LATE_SECONDS:
                stragglers[f"late {where}"] += 1
    failed = Counter(post.outcome for post in sent if post.answered is None)
    sizes = [size for reader in readers for size in reader.push_sizes]
    return LiveStep(
        streams=len(readers),
        connected=connected,
        posts=len(sent),
        failed_posts=dict(failed),
        deliveries=len(latencies) + lost,
        lost=lost,
        p50_ms=percentile(latencies, 0.5) * 1000,
        p99_ms=percentile(latencies, 0.99) * 1000,
        drops=sum(reader.drops for reader in readers),
        push_bytes_median=median(sizes),
        rss_bytes=rss,
        cpu_percent=cpu,
        votes=len(voted),
        failed_votes=dict(Counter(outcome for outcome in voted if outcome != "200")),
        pushes=_pushes_by_event(readers),
        refused=dict(Counter(why for reader in readers for why in reader.refusals)),
        max_ms=max(latencies, default=0.0) * 1000,
        stragglers=dict(sorted(stragglers.items())),
    )


def _pushes_by_event(readers: list[Reader]) -> dict[str, tuple[int, float]]:
    """Per SSE event: how many pushes of it arrived, and their median size in bytes."""
    sizes: dict[str, list[int]] = {}
    for reader in readers:
        for event, size in reader.events:
            sizes.setdefault(event, []).append(size)
    return {event: (len(found), median(found)) for event, found in sorted(sizes.items())}
