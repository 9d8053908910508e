"""`KnownPositions` (live/known_positions.py): a writer's rows move on exactly the listeners
known right before them, each by the rows it may see; a listener known at an older seq, or a
stream not known, stays as it was; a read never moves a known position back."""

from __future__ import annotations

from deaddrop.engine.core.events import Audience
from deaddrop.server.live.journal import EVERYONE
from deaddrop.server.live.known_positions import KnownPositions

STREAM = "station:g1"


def test_a_write_moves_on_the_listeners_known_right_before_it() -> None:
    known = KnownPositions()
    for listener, cursor in ((0, 4), (1, 2), (None, 1), (EVERYONE, 7)):
        known.advance(STREAM, listener, 7, cursor)
    known.advance(STREAM, 2, 5, 3)  # known at an older seq: another writer came in between
    known.follow(STREAM, 9, [Audience.only(0), Audience.everyone()])  # seqs 8 and 9
    assert known.get(STREAM, 0) == (9, 6)
    assert known.get(STREAM, 1) == (9, 3)
    assert known.get(STREAM, None) == (9, 2)
    assert known.get(STREAM, EVERYONE) == (9, 9)
    assert known.get(STREAM, 2) == (5, 3)  # not moved: the next read completes it


def test_rows_after_a_gap_move_no_one() -> None:
    known = KnownPositions()
    known.advance(STREAM, 0, 7, 4)
    known.follow(STREAM, 10, [Audience.everyone()])  # seq 10: 8 and 9 came from elsewhere
    assert known.get(STREAM, 0) == (7, 4)
    known.follow("station:other", 1, [Audience.everyone()])  # a stream no one is known in
    assert known.get("station:other", 0) is None


def test_a_read_never_moves_a_position_back() -> None:
    known = KnownPositions()
    known.advance(STREAM, 0, 9, 6)
    known.advance(STREAM, 0, 8, 5)  # a slower page read an older seq
    assert known.get(STREAM, 0) == (9, 6)
    known.advance(STREAM, 0, 11, 7)
    assert known.get(STREAM, 0) == (11, 7)


def test_only_the_streams_used_most_recently_are_kept() -> None:
    known = KnownPositions(streams=2)
    for number in range(3):
        known.advance(f"station:g{number}", 0, 1, 1)
    assert known.get("station:g0", 0) is None
    assert known.get("station:g2", 0) == (1, 1)
