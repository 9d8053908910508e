"""A channel's log joined from messages rendered one by one (each kept) is the whole list
rendered at once, character for character (issue 15: a page after a post renders the new
message alone)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from deaddrop.server.render import fragment
from deaddrop.server.station.chat.view import message_json, messages_log

CODENAMES = ("KITE", "WREN", "LARK")


def _row(number: int) -> Any:
    texts = ("plain words", "KITE & <b>WREN</b> said 'so'", "I claim Auditor. KITE is Ring.")
    return SimpleNamespace(
        id=number,
        day=1 + number // 4,
        seat=number % 3,
        channel="floor",
        text=texts[number % 3],
        created_at=datetime(2026, 3, 29, 23, 30, tzinfo=UTC) + timedelta(minutes=17 * number),
    )


def test_the_log_of_messages_rendered_one_by_one_is_the_list_rendered_at_once() -> None:
    state: Any = SimpleNamespace(seats=[SimpleNamespace(codename=name) for name in CODENAMES])
    rows = [_row(number) for number in range(12)]
    for zone in ("Europe/Berlin", "UTC", "Asia/Tehran"):
        whole = fragment(
            "station/chat/messages.html",
            messages=[message_json(state, row, zone) for row in rows],
        )
        assert messages_log(state, rows, zone) == whole
        assert messages_log(state, rows[:5], zone) + messages_log(state, rows[5:], zone) == whole
    assert messages_log(state, [], "UTC") == ""
