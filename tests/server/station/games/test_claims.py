"""Claims for people (S43): the "Make a claim" forms on the Floor (S28), in the Ring Channel
(S29) and in a whisper (S31), through HTTP without JavaScript; the plain sentences every reader
sees; malformed claims refused naming S43 with nothing lost. SQLite and PostgreSQL."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from litestar import Litestar
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.claims import parse_post
from deaddrop.engine.station.roles import is_ring
from deaddrop.server.station.chat.channels import RATE_COUNT
from deaddrop.server.station.chat.claim_form import KINDS
from deaddrop.server.station.chat.models import StationMessage
from tests.server.station.games.bot_helpers import bot_table, run_bots
from tests.server.station.games.helpers import Person, RunDB, Table, game_row

BOTS_LINE = "Bots read claims, not free text"


def cases(names: list[str]) -> dict[str, tuple[dict[str, str], str, str]]:
    """Per kind: the form's fields, the canonical text the engine reads, and what people read
    (as written by names[0], about Day 1, the one day whose Pouch has left)."""
    me, a, b, c = names[0], names[1], names[2], names[3]
    return {
        "role": ({"role": "analyst"}, "I am the Analyst.", f"{me} claims to be the Analyst."),
        "stance": (
            {"stance": "suspect", "target": a},
            f"I suspect {a}.",
            f"{me} suspects {a}.",
        ),
        "reading": (
            {"day": "1", "target": a, "reading": "COMPROMISED"},
            f"Day 1: I read {a} as COMPROMISED.",
            f"{me} says: on day 1 I read {a} as compromised.",
        ),
        "visitors": (
            {"day": "1", "target": a, "visitor_3": c, "visitor_2": b},
            f"Day 1: {a} was visited by {' and '.join(sorted((b, c)))}.",
            f"{me} says: on day 1 {a} was visited by {' and '.join(sorted((b, c)))}.",
        ),
        "visit": (
            {"day": "1", "target": a, "visited": ""},
            f"Day 1: {a} stayed home.",
            f"{me} says: on day 1 {a} stayed home.",
        ),
        "count": (
            {"day": "1", "target": b, "count": "3"},
            f"Day 1: {b} sent and received 3 whispers.",
            f"{me} says: on day 1 {b} sent and received 3 whispers.",
        ),
        "protection": (
            {"day": "1", "act": "sheltered", "target": c},
            f"Day 1: I sheltered {c}.",
            f"{me} says: on day 1 I sheltered {c}.",
        ),
    }


def day_two(table: Table) -> None:
    """Day 1's Pouch leaves (nobody acted: everyone lives), so Day 1 claims can be made."""
    assert table.pouch() == 1


def shown(page: str) -> str:
    """A page's text with its markup and entities gone, for looking for a sentence."""
    return " ".join(html.unescape(_strip(page)).split())


def _strip(page: str) -> str:
    out, inside = [], False
    for char in page:
        if char == "<":
            inside = True
        elif char == ">":
            inside = False
            out.append(" ")
        elif not inside:
            out.append(char)
    return "".join(out).replace(" .", ".").replace(" ,", ",")


def named_by(table: Table, seat: int) -> list[str]:
    """The seat's codename first, then the others."""
    return [table.codenames[seat]] + [n for i, n in enumerate(table.codenames) if i != seat]


def form_claim(person: Person, table: Table, tail: str, fields: dict[str, str]) -> int:
    """Post a claim form as a browser without JavaScript does; the response's status."""
    status = person.form(table.path(tail), fields).status_code
    table.clock.advance(timedelta(seconds=4))  # talk, not a flood: stay under the rate limit
    return status


def stored_texts(table: Table, channel: str = "floor") -> list[str]:
    """The bodies of a channel's messages as stored."""

    async def read(db: AsyncSession) -> list[str]:
        game = await game_row(db, table.game_id)
        query = select(StationMessage.text).where(
            StationMessage.game_id == game.id, StationMessage.channel == channel
        )
        return list(await db.scalars(query))

    texts: list[str] = table.run_db(read)
    return texts


def test_s43_s28_the_floor_form_posts_every_kind_as_a_claim(table: Table, stranger: Person) -> None:
    day_two(table)
    names = named_by(table, 2)
    for kind, (fields, _, _) in cases(names).items():
        assert form_claim(table.people[2], table, "/claim/floor", {"kind": kind, **fields}) == 303
    table.host.form(table.path("/host/spectators"), {"enabled": "yes"})
    watch = stranger.get(f"/watch/{table.game().spectator_token}/floor").text
    for page in [p.get(table.path("/floor")).text for p in table.people] + [watch]:
        text = shown(page)
        for kind, (_, canonical, sentence) in cases(names).items():
            assert sentence in text, kind
            assert canonical not in text, kind  # people read plain words, not the record
        assert page.count('class="claim-marker">claim</span>') == len(KINDS)


def test_s43_the_form_sends_the_engines_canonical_text(table: Table) -> None:
    """The stored body is `format_claim`'s, so the engine (and every bot) reads it as a claim."""
    day_two(table)
    names = named_by(table, 0)
    for kind, (fields, _, _) in cases(names).items():
        answer = table.people[0].json(table.api("/claim/floor"), {"kind": kind, **fields})
        assert answer.status_code == 200, answer.text
        table.clock.advance(timedelta(seconds=4))
    stored = stored_texts(table)
    for kind, (_, canonical, _) in cases(names).items():
        assert canonical in stored, kind
        assert parse_post(canonical), kind  # a claim exactly when the engine says so
    history = shown(table.people[1].get(table.path("/chat/floor")).text)
    for _, _, sentence in cases(names).values():
        assert sentence in history  # the history pages show the plain words too


def test_s43_the_floor_shows_the_form_and_says_bots_read_claims(table: Table) -> None:
    floor = table.people[1].get(table.path("/floor")).text
    assert BOTS_LINE in floor
    assert f'action="/games/{table.game_id}/claim/floor"' in floor
    assert "Make a claim" in floor
    # Before the first Pouch only the claims about no day can be made (S43: days that happened).
    assert 'value="role"' in floor and 'value="stance"' in floor
    assert 'value="reading"' not in floor
    day_two(table)
    floor = table.people[1].get(table.path("/floor")).text
    assert all(f'name="kind" value="{kind}"' in floor for kind in KINDS)


def test_s43_free_text_is_unchanged(table: Table) -> None:
    text = "I think OWL is lying. I am the Analyst."  # mixes free text with a claim: free text
    assert table.people[1].json(table.api("/chat/floor"), {"text": text}).status_code == 200
    floor = table.people[2].get(table.path("/floor")).text
    assert "I think" in floor and "claim-marker" not in floor


def test_s43_s29_ring_claims_are_the_rings_alone(table: Table) -> None:
    day_two(table)
    ring = [s for s, role in enumerate(table.roles) if is_ring(role)]
    writer = ring[0]
    names = named_by(table, writer)
    for kind, (fields, _, _) in cases(names).items():
        assert (
            form_claim(table.people[writer], table, "/claim/ring", {"kind": kind, **fields}) == 303
        )
    action = f'action="/games/{table.game_id}/claim/ring"'
    for seat, person in enumerate(table.people):
        dossier = person.get(table.path("/dossier")).text
        text = shown(dossier)
        for kind, (_, _, sentence) in cases(names).items():
            assert (sentence in text) == (seat in ring), (seat, kind)
        assert (action in dossier) == (seat in ring)
        assert BOTS_LINE in dossier  # the whisper claim form says it to everyone
    outsider = next(s for s in range(6) if s not in ring)
    fields = {"kind": "role", "role": "analyst"}
    refused = table.people[outsider].json(table.api("/claim/ring"), fields)
    assert refused.status_code == 422 and refused.json()["rule"] == "S29"
    # Without JavaScript too: refused as today, with no Ring form on the way back.
    answer = table.people[outsider].form(table.path("/claim/ring"), fields)
    assert answer.status_code == 303
    assert "S29" in table.people[outsider].flashes()


def test_s43_s31_a_whisper_claim_is_one_of_the_two_and_announced(table: Table) -> None:
    day_two(table)
    sender, recipient = 1, 4
    names = named_by(table, sender)
    to = {"recipient": table.codenames[recipient]}
    reading, role = cases(names)["reading"], cases(names)["role"]
    for kind, (fields, _, _) in (("reading", reading), ("role", role)):
        answer = table.people[sender].form(
            table.path("/whisper/claim"), {"kind": kind, **to, **fields}
        )
        assert answer.status_code == 303, answer.text
    announced = f'{names[0]}</span> whispered to <span class="codename">{to["recipient"]}'
    for seat, person in enumerate(table.people):
        assert person.get(table.path("/floor")).text.count(announced) == 2  # S31: like any
        dossier = shown(person.get(table.path("/dossier")).text)
        assert (reading[2] in dossier) == (seat in (sender, recipient)), seat
        assert (role[2] in dossier) == (seat in (sender, recipient)), seat
    third = table.people[sender].json(
        table.api("/whisper/claim"), {"kind": "stance", "stance": "trust", "target": names[2], **to}
    )
    assert third.status_code == 422 and third.json()["rule"] == "S31"  # two a day
    assert 'action="/games/' not in _whisper_box(
        table.people[sender].get(table.path("/dossier")).text
    )


def _whisper_box(page: str) -> str:
    """The whispers section of a Dossier."""
    start = page.index('id="whispers"')
    return page[start : page.index("</section>", start)]


@pytest.mark.parametrize(
    ("kind", "fields", "says"),
    [
        ("stance", {"stance": "suspect", "target": "ZEBRA"}, "no player ZEBRA"),
        ("count", {"day": "9", "target": "", "count": "7"}, "Day 9 has not happened yet"),
    ],
)
def test_s43_a_malformed_claim_is_refused_naming_s43_with_nothing_lost(
    table: Table, kind: str, fields: dict[str, str], says: str
) -> None:
    day_two(table)
    if kind == "count":
        fields = {**fields, "target": table.codenames[3]}
    person = table.people[2]
    before = person.get(table.path("/floor")).text.count("chat-message")
    # Without JavaScript: a page with the reason and the form holding what was sent.
    page = person.form(table.path("/claim/floor"), {"kind": kind, **fields})
    assert page.status_code == 422
    assert "S43" in page.text and says in page.text
    assert f'name="kind" value="{kind}"' in page.text
    assert page.text.count('name="kind"') == 1  # only the form of the kind that was sent
    if kind == "count":
        assert 'name="count" type="number"' in page.text and 'value="7"' in page.text
        assert f'<option value="{table.codenames[3]}" selected>' in page.text
    # A script: JSON naming the rule.
    answer = person.json(table.api("/claim/floor"), {"kind": kind, **fields})
    assert answer.status_code == 422 and answer.json()["rule"] == "S43"
    assert says in answer.json()["detail"]
    # Nothing was posted, and a whisper refused so costs none of the day's two (S31).
    assert person.get(table.path("/floor")).text.count("chat-message") == before
    whispered = person.json(
        table.api("/whisper/claim"), {"kind": kind, **fields, "recipient": table.codenames[0]}
    )
    assert whispered.status_code == 422 and whispered.json()["rule"] == "S43"
    to = {"recipient": table.codenames[0]}
    page = person.form(table.path("/whisper/claim"), {"kind": kind, **fields, **to})
    assert page.status_code == 422 and "S43" in page.text
    assert f'<option value="{table.codenames[0]}" selected>' in page.text  # kept: the recipient
    for number in range(2):
        text = {"recipient": table.codenames[0], "text": f"still two {number}"}
        assert person.json(table.api("/whisper"), text).status_code == 200


def test_s43_fields_that_make_no_claim_are_refused_with_a_message(table: Table) -> None:
    person = table.people[1]
    for fields in (
        {},
        {"kind": "nonsense"},
        {"kind": "role", "role": "king"},
        {"kind": "reading", "day": "one", "target": table.codenames[0], "reading": "CLEAR"},
        {"kind": "stance", "stance": "trust", "target": "O'NEIL"},
    ):
        answer = person.json(table.api("/claim/floor"), fields)
        assert answer.status_code == 422, fields
        assert answer.json()["rule"] == "S43" and answer.json()["detail"], fields
    archive = person.json(table.api("/claim/archive"), {"kind": "role", "role": "analyst"})
    assert archive.status_code == 422 and archive.json()["rule"] == "S43"
    whisper = person.json(table.api("/claim/whisper"), {"kind": "role", "role": "analyst"})
    assert whisper.status_code == 422 and whisper.json()["rule"] == "S43"  # S31: /whisper/claim
    assert person.form(table.path("/claim/whisper"), {"kind": "x"}).status_code == 303
    assert person.json(table.api("/claim/nowhere"), {"kind": "x"}).status_code == 422


def test_s43_s28_no_claim_form_for_those_who_may_not_post(table: Table, stranger: Person) -> None:
    """A spectator (S28), a burned player (S8, S28) and a stranger get no claim form, and their
    claims are refused as their posts are."""
    day_two(table)
    claim_action = f'action="/games/{table.game_id}/claim/'
    table.host.form(table.path("/host/spectators"), {"enabled": "yes"})
    watch = stranger.get(f"/watch/{table.game().spectator_token}/floor").text
    assert claim_action not in watch and "Make a claim" not in watch
    fields = {"kind": "role", "role": "analyst"}
    assert stranger.json(table.api("/claim/floor"), fields).status_code == 404
    burned = 5
    removed = table.host.json(
        table.api("/host/remove"), {"codename": table.codenames[burned], "confirm": True}
    )
    assert removed.status_code == 200
    person = table.people[burned]
    for tab in ("/floor", "/dossier"):
        assert "Make a claim" not in person.get(table.path(tab)).text
    refused = person.json(table.api("/claim/floor"), fields)
    assert refused.status_code == 422 and refused.json()["rule"] == "S28"
    answer = person.form(table.path("/claim/floor"), fields)
    assert answer.status_code == 303 and "S28" in person.flashes()  # no form to show again


def test_s43_s42_bots_claim_posts_read_as_the_same_sentences(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    """What bots post on the Floor is a claim by its body alone, so people read it as they read
    their own claims."""
    table = bot_table(host, players[:1], ["expert", "expert", "heuristic", "expert"], run_db, app)
    found: list[str] = []
    for _ in range(3):
        run_bots(table)
        found = [text for text in stored_texts(table) if parse_post(text)]
        if found or table.state().over or table.pouch() != 1:
            break
    assert found, "the bots made no claim in three days"
    page = table.host.get(table.path("/floor")).text
    text = shown(page)
    assert 'class="claim-marker">claim<' in page
    for body in found:
        assert body not in text  # the record is for bots; people read the sentences


def test_s43_s28_claims_and_free_text_share_the_rate_limit(table: Table) -> None:
    """A claim takes the post path, so it counts with free text against the rate limit."""
    person = table.people[1]
    fields = {"kind": "stance", "stance": "trust", "target": table.codenames[2]}
    for number in range(RATE_COUNT):
        if number % 2:
            sent = person.json(table.api("/claim/floor"), fields)
        else:
            sent = person.json(table.api("/chat/floor"), {"text": f"talk {number}"})
        assert sent.status_code == 200, sent.text
    refused = person.json(table.api("/claim/floor"), fields)
    assert refused.status_code == 422 and "at most 5 messages" in refused.json()["detail"]
    page = person.form(table.path("/claim/floor"), {**fields, "stance": "suspect"})
    assert page.status_code == 422 and "at most 5 messages" in page.text
    assert 'value="suspect" selected' in page.text  # what was sent, kept to send again
