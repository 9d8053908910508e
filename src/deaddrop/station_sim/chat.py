"""A simulated game's chat: posts kept in order, each read by exactly its channel's audience.

The server stores a real game's chat; a simulation keeps its own here. Who may post and read
where is never decided here: `channels.check_post` and `channels.can_read` decide it (S14,
S28-S30), and the S43 claim check runs with the post. Whisper texts live in the engine state,
so a seat's whispers come from its view (`whisper_posts`, S31).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deaddrop.engine.station.channels import Channel, can_read, check_post
from deaddrop.engine.station.claims import Post, whisper_posts
from deaddrop.engine.station.state import State


@dataclass(frozen=True, slots=True)
class Message:
    """One stored chat message."""

    channel: Channel
    day: int
    author: str
    """The author's codename."""
    text: str


@dataclass(slots=True)
class SimChat:
    """Every message of one simulated game, in the order posted."""

    messages: list[Message] = field(default_factory=list)

    def post(self, state: State, seat: int, channel: Channel, text: str) -> None:
        """Store a post the rules allow; IllegalAction (naming the rule) for any other."""
        check_post(state, seat, channel, text)
        self.messages.append(Message(channel, state.day, state.seats[seat].codename, text))

    def readable(self, state: State, seat: int) -> list[Message]:
        """The messages this seat may read now, in order."""
        return [m for m in self.messages if can_read(state, seat, m.channel, m.day)]

    def posts_for(self, state: State, seat: int, seen: Mapping[str, Any]) -> list[Post]:
        """What a bot at this seat reads: its Floor and Ring Channel posts, then its whispers.

        Each day's chat posts come before that day's whispers; interrogation and Archive
        messages are not claim channels (S43) and are left out.
        """
        chat = [
            Post(m.day, m.author, "floor" if m.channel is Channel.FLOOR else "ring", m.text)
            for m in self.readable(state, seat)
            if m.channel in (Channel.FLOOR, Channel.RING)
        ]
        merged = chat + whisper_posts(seen)
        return sorted(merged, key=lambda p: p.day)  # stable: keeps each day's order
