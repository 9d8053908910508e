"""Who may read and post in each chat channel (S14, S26, S28–S30).

The server stores the messages; these functions are the only place their rules live.
"""

from __future__ import annotations

from enum import StrEnum

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station.claims import check_post_claims
from deaddrop.engine.station.roles import TEXT_LIMIT, is_ring
from deaddrop.engine.station.state import State


class Channel(StrEnum):
    """The chat channels of a game."""

    FLOOR = "floor"
    RING = "ring"
    ARCHIVE = "archive"
    INTERROGATION = "interrogation"


def interrogation_parties(state: State, day: int) -> tuple[int, int] | None:
    """(Interrogator, detainee) of the chat open on a day: opened by the previous Pouch (S14)."""
    if day == state.day and not state.over:
        return state.interrogation  # closed early when a party was removed (S40)
    for record in state.history:
        if record.day == day - 1:
            return record.interrogation
    return None


def can_read(state: State, viewer: int | None, channel: Channel, day: int = 0) -> bool:
    """Whether a viewer (a seat, or None for a spectator) may read a channel."""
    if channel is Channel.FLOOR:
        return True  # S28: everyone reads the Floor, spectators included
    if viewer is None:
        return False  # spectators see public things only
    if state.over:
        return True  # S26: after the game every channel opens to every player
    if channel is Channel.RING:
        return is_ring(state.seats[viewer].role)  # S29: burned Ring members keep reading
    if channel is Channel.ARCHIVE:
        return not state.alive[viewer]  # S30: burned players only
    parties = interrogation_parties(state, day)
    return parties is not None and viewer in parties  # S14: the two keep read access


def check_post(state: State, seat: int, channel: Channel, text: str) -> None:
    """Refuse a post the rules do not allow, naming the rule."""
    if not 0 <= seat < len(state.seats):
        raise IllegalAction("S28", f"there is no seat {seat}")
    if not text.strip():
        raise IllegalAction("S28", "a message needs some text")
    if len(text) > TEXT_LIMIT:
        raise IllegalAction("S28", f"a message holds at most {TEXT_LIMIT} characters")
    alive = state.alive[seat]
    if channel is Channel.FLOOR:
        if state.over:
            return  # S26: the game is over; every player may talk it through on the Floor
        if not alive:
            raise IllegalAction("S28", "burned players read the Floor but cannot post")
        check_post_claims(state, text)  # S43: a Floor post may carry claims
        return
    if state.over:
        raise IllegalAction("S26", f"the {channel.value} channel is closed; the game is over")
    if channel is Channel.RING:
        if not is_ring(state.seats[seat].role):
            raise IllegalAction("S29", "only the Ring posts in the Ring Channel")
        if not alive:
            raise IllegalAction("S29", "a burned Ring member can read but no longer post")
        check_post_claims(state, text)  # S43: and so may a Ring Channel message
        return
    if channel is Channel.ARCHIVE:
        if alive:
            raise IllegalAction("S30", "the Archive is for burned players")
        return
    parties = state.interrogation
    if parties is None or seat not in parties:
        raise IllegalAction("S14", "no interrogation chat is open for you today")
