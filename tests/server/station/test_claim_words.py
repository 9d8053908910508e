"""Claims in plain words (S43): the sentence of every kind, posts of several claims (as bots make
them), free text left alone, and the same sentences in the whispers and the post-game Cable."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from deaddrop.engine.station import actions as A
from deaddrop.engine.station import apply, setup_from_deal, start
from deaddrop.engine.station.claims import (
    Claim,
    ProtectionClaim,
    ReadingClaim,
    RoleClaim,
    StanceClaim,
    VisitClaim,
    VisitorsClaim,
    WhisperCountClaim,
    format_post,
)
from deaddrop.phrasebook.station_claims import claim_sentence, post_sentences
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.chat.view import message_json
from tests.server.station.tabs_fixtures import HERON, KESTREL, OWL, RAVEN, SIX, WREN, render

SENTENCES: list[tuple[Claim, str]] = [
    (RoleClaim("analyst"), "HERON claims to be the Analyst."),
    (RoleClaim("field_agent"), "HERON claims to be a Field Agent."),
    (RoleClaim("safehouse_keeper"), "HERON claims to be the Safehouse Keeper."),
    (StanceClaim("suspect", "FINCH"), "HERON suspects FINCH."),
    (StanceClaim("trust", "FINCH"), "HERON trusts FINCH."),
    (ReadingClaim(2, "FINCH", "COMPROMISED"), "HERON says: on day 2 I read FINCH as compromised."),
    (ReadingClaim(1, "FINCH", "CLEAR"), "HERON says: on day 1 I read FINCH as clear."),
    (VisitorsClaim(3, "FINCH", ("OWL",)), "HERON says: on day 3 FINCH was visited by OWL."),
    (
        VisitorsClaim(3, "FINCH", ("OWL", "RAVEN", "WREN")),
        "HERON says: on day 3 FINCH was visited by OWL, RAVEN and WREN.",
    ),
    (VisitorsClaim(3, "FINCH", ()), "HERON says: on day 3 FINCH had no visitors."),
    (VisitClaim(2, "FINCH", "OWL"), "HERON says: on day 2 FINCH visited OWL."),
    (VisitClaim(2, "FINCH", None), "HERON says: on day 2 FINCH stayed home."),
    (
        WhisperCountClaim(4, "FINCH", 1),
        "HERON says: on day 4 FINCH sent and received 1 whisper.",
    ),
    (
        WhisperCountClaim(4, "FINCH", 0),
        "HERON says: on day 4 FINCH sent and received 0 whispers.",
    ),
    (ProtectionClaim(2, "sheltered", "FINCH"), "HERON says: on day 2 I sheltered FINCH."),
    (ProtectionClaim(2, "detained", "FINCH"), "HERON says: on day 2 I detained FINCH."),
]


@pytest.mark.parametrize(("claim", "sentence"), SENTENCES, ids=[s for _, s in SENTENCES])
def test_s43_every_kind_reads_as_a_plain_sentence(claim: Claim, sentence: str) -> None:
    assert claim_sentence("HERON", claim) == sentence
    for channel in ("floor", "ring", "whisper"):  # S28, S29, S31
        assert post_sentences("HERON", channel, format_post([claim])) == (sentence,)


def test_s43_a_post_of_several_claims_as_bots_make_them_reads_sentence_by_sentence() -> None:
    claims: list[Claim] = [RoleClaim("analyst"), ReadingClaim(2, "FINCH", "COMPROMISED")]
    assert post_sentences("HERON", "floor", format_post(claims)) == (
        "HERON claims to be the Analyst.",
        "HERON says: on day 2 I read FINCH as compromised.",
    )


@pytest.mark.parametrize(
    ("channel", "text"),
    [
        ("floor", "I think FINCH is lying."),
        ("floor", "I am the Analyst. And FINCH is lying."),  # half a claim is free text
        ("floor", "I am the King."),  # malformed (an old post): free text, as bots read it
        ("archive", "I am the Analyst."),  # S43: claims are made on the Floor, Ring, whispers
        ("interrogation", "I suspect FINCH."),
    ],
)
def test_s43_free_text_has_no_sentences(channel: str, text: str) -> None:
    assert post_sentences("HERON", channel, text) == ()


def test_s43_a_claim_message_carries_its_sentence_with_codenames_marked() -> None:
    state = start(setup_from_deal(SIX, seed=7))
    when = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
    row = StationMessage(id=1, channel="floor", day=1, seat=HERON, text="I suspect OWL.")
    row.created_at = when
    shown = message_json(state, row, "UTC")
    assert [str(s) for s in shown["claim"]] == [
        '<span class="codename">HERON</span> suspects <span class="codename">OWL</span>.'
    ]
    row.text = "OWL, <b>listen</b>"
    assert message_json(state, row, "UTC")["claim"] == []


def test_s43_s31_whisper_claims_read_as_sentences_in_the_dossier_and_after_the_game() -> None:
    claim = "Day 1: I read RAVEN as COMPROMISED."
    sentence = "HERON says: on day 1 I read RAVEN as compromised."
    state = start(setup_from_deal(SIX, seed=7))
    state, _ = apply(state, A.ResolvePouch())
    state, _ = apply(state, A.SendWhisper(HERON, WREN, claim))
    for seat in range(6):
        dossier = render("dossier", state, seat)
        assert (sentence in dossier) == (seat in (HERON, WREN)), seat
        assert claim not in dossier
    for target in (RAVEN, OWL):  # the Ring recalled one a day: the Station wins (S24)
        for voter in (HERON, WREN, KESTREL):
            state, _ = apply(state, A.CastVote(voter, target))
        state, _ = apply(state, A.ResolvePouch())
    assert state.over
    cable = render("cable", state, OWL)  # S26: the full history, whispers included
    assert sentence in cable and 'class="claim-marker">claim<' in cable
