"""The harness's small parts: percentiles, the mix, the wire's bodies, the SSE reader, the
tables, the command's refusals."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from rich.console import Console

from deaddrop.benchmarks.http.live import LiveStep, Sent, _figures, _schedule
from deaddrop.benchmarks.http.open_loop import OpenLoop
from deaddrop.benchmarks.http.plan import Plan, Results
from deaddrop.benchmarks.http.pouch_wave import Wave
from deaddrop.benchmarks.http.report import hello_shares, print_tables
from deaddrop.benchmarks.http.requests import ICON_PATH, RequestMaker, mix_schedule
from deaddrop.benchmarks.http.saturate import Saturation
from deaddrop.benchmarks.http.sse import Reader
from deaddrop.benchmarks.http.stats import percentile
from deaddrop.benchmarks.http.wire import Address, read_body, read_head
from deaddrop.benchmarks.http.world import Player, World
from deaddrop.cli import main
from deaddrop.server.favicon import PATH as SERVED_ICON


def test_percentile_is_nearest_rank() -> None:
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([7.0], 0.99) == 7.0
    assert percentile([], 0.5) == 0.0


def test_the_icon_is_asked_for_with_each_players_cookies_in_turn() -> None:
    players = [Player("g1", seat, f"AGENT{seat}", f"s{seat}", f"c{seat}") for seat in range(2)]
    maker = RequestMaker([Address("127.0.0.1", 1)], World("sqlite://", "k", {"g1": players}))
    first, second = (maker.make("icon", number).decode() for number in range(2))
    assert ICON_PATH == SERVED_ICON  # the route Dead Drop serves, not a 404
    assert first.startswith(f"GET {ICON_PATH} HTTP/1.1\r\n") and first.endswith("\r\n\r\n")
    assert f"Cookie: {players[0].cookie_header()}\r\n" in first
    assert f"Cookie: {players[1].cookie_header()}\r\n" in second


def test_the_mix_has_the_issues_proportions() -> None:
    kinds = Counter(mix_schedule(1000))
    assert kinds == {"floor": 600, "cable": 200, "vote": 100, "post": 100}


def reader_of(data: bytes) -> asyncio.StreamReader:
    stream = asyncio.StreamReader()
    stream.feed_data(data)
    stream.feed_eof()
    return stream


async def test_a_reply_is_read_by_length_or_in_chunks() -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
    stream = reader_of(head)
    status, headers = await read_head(stream)
    assert (status, await read_body(stream, headers, keep=True)) == (200, (5, b"hello"))
    chunked = b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n"
    chunked += b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
    stream = reader_of(chunked)
    status, headers = await read_head(stream)
    assert (status, await read_body(stream, headers, keep=True)) == (201, (5, b"abcde"))


async def test_the_reader_sees_markers_across_chunks_and_crlf() -> None:
    # An event cut between CR and LF, and between two chunks, as a server may send it.
    events = ": connected\r\n\r\nid: 7\r\nevent: append\r\ndata: <li>LIVEMARK12N0N3E</li>\r\n\r"
    rest = "\nid: 8\r\ndata: plain\r\n\r\n"
    body = b""
    for part in (events, rest):
        raw = part.encode()
        body += f"{len(raw):x}\r\n".encode() + raw + b"\r\n"
    reader = Reader(Address("127.0.0.1", 1), "room", lambda last: b"")
    await reader._read(reader_of(body + b"0\r\n\r\n"))
    assert reader.connected.is_set()
    assert set(reader.arrivals) == {"LIVEMARK12N0N3E"}
    assert reader.last_id == 8
    assert reader.push_sizes == [len("<li>LIVEMARK12N0N3E</li>"), len("plain")]
    assert reader.events == [("append", len("<li>LIVEMARK12N0N3E</li>")), ("message", 5)]


def test_a_live_step_reports_its_refused_opens_by_why() -> None:
    readers = [Reader(Address("127.0.0.1", 1), "room", lambda last: b"") for _ in range(2)]
    readers[0].refusals += ["503", "503"]
    readers[1].refusals.append("ConnectionResetError")
    step = _figures(readers, [], [], connected=2, rss=0, cpu=0.0)
    assert step.refused == {"503": 2, "ConnectionResetError": 1}


def test_a_live_step_counts_lost_and_late_deliveries_by_the_readers_and_the_posts_server() -> None:
    one, two = Address("127.0.0.1", 8001), Address("127.0.0.1", 8002)
    readers = [Reader(address, "room", lambda last: b"") for address in (one, two, one)]
    readers[0].arrivals["M1"] = 100.1
    readers[1].arrivals["M1"] = 101.0  # a second after the reply: late
    sent = [Sent("M1", "room", 100.0, "200", two), Sent("M2", "room", None, "503", one)]
    step = _figures(readers, sent, [], connected=3, rss=0, cpu=0.0)
    assert step.lost == 1 and step.deliveries == 3
    assert step.stragglers == {"late :8002 <- :8002": 1, "lost :8001 <- :8002": 1}
    assert step.max_ms == pytest.approx(1000.0)


def test_a_live_steps_votes_fall_halfway_between_its_posts() -> None:
    plan = _schedule(["a", "b"], 30.0, 2, votes=True)
    assert plan == [
        (0.0, "a", 0, 0),
        (15.0, "a", 0, None),
        (15.0, "b", 0, 1),
        (30.0, "b", 0, None),
        (30.0, "a", 1, 0),
        (45.0, "a", 1, None),
        (45.0, "b", 1, 1),
        (60.0, "b", 1, None),
    ]
    assert all(index is not None for *_, index in _schedule(["a", "b"], 30.0, 2, votes=False))


def test_the_tables_show_every_phase() -> None:
    results = Results(cpus=2, load_before=6.0)
    results.saturation = {
        "floor": [Saturation("floor", 1.0, 20, {"200": 20}, 40.0, 90.0)],
        "hello": [Saturation("hello", 1.0, 2000, {"200": 2000}, 1.0, 3.0)],
        "vote": [Saturation("vote", 1.0, 100, {"200": 100}, 9.0, 12.0)],
        "save": [Saturation("save", 1.0, 400, {"200": 400}, 4.0, 6.0)],
    }
    results.open_loop = {"deaddrop": [OpenLoop(14.0, 1.0, 14, 14, 0, {"200": 14}, 20.0, 80.0)]}
    results.live = {"deaddrop": [LiveStep(200, 200, 20, {}, 2000, 3, 250.0, 500.0, 0, 19_000)]}
    results.waves = [Wave(1000, 1, 17.6, 1000, True)]
    console = Console(record=True, width=200)
    print_tables(Plan(), results, console)
    text = console.export_text()
    expected_texts = ("Floor GET", "1.0%", "20.0 / 80.0", "3/2000", "17.6", "not its figures")
    # Dead Drop's saves beside the plain durable save: a vote at a quarter of its rate.
    for expected in (*expected_texts, "durable save (SQLite)", "rate: vote POST 25.0%"):
        assert expected in text, expected


def _runs(kind: str, *rates: float) -> list[Saturation]:
    return [Saturation(kind, 1.0, int(rate), {"200": int(rate)}) for rate in rates]


def test_a_share_of_the_bare_hello_is_taken_from_each_run_and_its_pair() -> None:
    results = Results(cpus=2)
    # The machine sped up twofold between the runs: each run's share of its pair holds.
    results.saturation = {
        "hello": _runs("hello", 1000, 1000, 1000),
        "vote": _runs("vote", 100, 200, 150),
        "save": _runs("save", 400, 800, 600),
        "floor": _runs("floor", 300),
    }
    results.paired_hello = {"vote": [1000, 2000, 1500], "save": [1000, 2000, 1500]}
    shares = hello_shares(results)
    assert shares["vote"] == pytest.approx(0.1) and shares["save"] == pytest.approx(0.4)
    assert shares["floor"] == pytest.approx(0.3)  # no pairs: over the hello runs' median
    assert shares["hello"] == 1.0
    console = Console(record=True, width=200)
    print_tables(Plan(), results, console)
    text = console.export_text()
    for expected in ("10.0%", "right after it", "1,000-2,000 req/s", "rate: vote POST 25.0%"):
        assert expected in text, expected


def test_the_command_refuses_what_it_cannot_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "http", "--phases", "saturate,speed"]) == 2
    assert "No such phase: speed" in capsys.readouterr().out
    assert main(["bench", "http", "--processes", "2"]) == 2
    assert "--redis" in capsys.readouterr().out
