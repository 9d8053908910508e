"""What a bot seat is given to decide (S42): its own view and the posts it may read, nothing
else; and the fingerprint of what it has seen, which says when it should decide again."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.claims import ClaimChannel, Post, whisper_posts
from deaddrop.engine.station.state import State
from deaddrop.engine.station.views import view
from deaddrop.server.station.chat.channels import history

READ_LIMIT = 100_000
"""Messages read per channel: a whole game's chat (a bot reads all it may read)."""
CHAT_CHANNELS: dict[Channel, ClaimChannel] = {Channel.FLOOR: "floor", Channel.RING: "ring"}
"""The claim channels a bot reads (S43); interrogations and the Archive are not among them."""


@dataclass(frozen=True)
class SeatInput:
    """One bot seat's input: exactly what a person at that seat could read."""

    seen: Mapping[str, Any]
    """A JSON round-trip copy of `view(state, seat)`: nothing shared with the state."""
    posts: tuple[Post, ...]
    """The Floor, the Ring Channel when the seat may read it, and the seat's whispers."""


async def seat_input(db: AsyncSession, game_id: int, state: State, seat: int) -> SeatInput:
    """Build a seat's input from its view and the chat it may read now (the pages' rights)."""
    seen: Mapping[str, Any] = json.loads(json.dumps(view(state, seat)))
    chat: list[Post] = []
    codenames = [s.codename for s in state.seats]
    for channel, name in CHAT_CHANNELS.items():
        messages, _ = await history(db, game_id, state, seat, channel, limit=READ_LIMIT)
        chat.extend(Post(m.day, codenames[m.seat], name, m.text) for m in messages)
    merged = sorted(chat + whisper_posts(seen), key=lambda post: post.day)  # stable per day
    return SeatInput(seen, tuple(merged))


def fingerprint(given: SeatInput) -> str:
    """SHA-256 of what the seat has learnt from others: its own saves and posts left out, so
    that a bot's own decision does not make it decide again (only new information does)."""
    seen = dict(given.seen)
    me = dict(seen.pop("me", None) or {})
    mine = me.get("codename")
    others = {
        "public": {k: v for k, v in seen.items() if k not in ("votes", "done", "ring")},
        "votes": [v for v in seen.get("votes", []) if v.get("voter") != mine],
        "done": [c for c in seen.get("done", []) if c != mine],
        "ring": {k: v for k, v in (seen.get("ring") or {}).items() if k != "order"},
        "results": me.get("results", []),
        "alive": me.get("alive"),
        "posts": [[p.day, p.author, p.channel, p.text] for p in given.posts if p.author != mine],
    }
    encoded = json.dumps(others, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(encoded).hexdigest()


def bot_rng(seed: int, day: int, seat: int, print_: str) -> Rng:
    """The generator of one decision: from the game's seed, the day, the seat and the
    fingerprint only, so that a retaken decision draws the same (no state kept)."""
    digest = hashlib.sha256(f"{seed}:{day}:{seat}:{print_}".encode()).digest()
    return Rng.from_seed(int.from_bytes(digest[:8], "big"))
