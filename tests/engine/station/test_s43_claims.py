"""S43: claims have one canonical English sentence each; the engine checks their form only."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station import ResolvePouch, apply, setup_from_deal, start
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.channels import Channel, check_post
from deaddrop.engine.station.claims import (
    ROLE_NAMES,
    Claim,
    ClaimContext,
    Post,
    ProtectionClaim,
    ReadingClaim,
    RoleClaim,
    SeenClaim,
    StanceClaim,
    VisitClaim,
    VisitorsClaim,
    WhisperCountClaim,
    check_claim,
    check_post_claims,
    claims_in,
    format_claim,
    format_post,
    parse_claim,
    parse_post,
    whisper_posts,
)
from deaddrop.engine.station.game import BatchRefused, apply_day
from deaddrop.engine.station.roles import BIRDS, ROLES
from deaddrop.engine.station.state import State
from deaddrop.engine.station.views import view

from .helpers import SIX


def day_three() -> State:
    """Six players on Day 3: the Pouches of Days 1 and 2 have left, nobody burned."""
    state = start(setup_from_deal(SIX))
    for _ in range(2):
        state, _ = apply(state, ResolvePouch())
    assert state.day == 3 and not state.over
    return state


@pytest.mark.parametrize(
    "claim,text",
    [
        (RoleClaim("analyst"), "I am the Analyst."),
        (RoleClaim("safehouse_keeper"), "I am the Safehouse Keeper."),
        (RoleClaim("field_agent"), "I am a Field Agent."),
    ],
)
def test_s43_role_claim(claim: Claim, text: str) -> None:
    assert format_claim(claim) == text
    assert parse_claim(text) == claim


def test_s43_reading_claim() -> None:
    claim = ReadingClaim(2, "HERON", "COMPROMISED")
    assert format_claim(claim) == "Day 2: I read HERON as COMPROMISED."
    assert parse_claim("Day 1: I read OWL as CLEAR.") == ReadingClaim(1, "OWL", "CLEAR")
    assert parse_claim(format_claim(claim)) == claim


def test_s43_visitors_claim_with_none_one_and_many() -> None:
    texts = {
        (): "Day 3: HERON had no visitors.",
        ("OWL",): "Day 3: HERON was visited by OWL.",
        ("OWL", "RAVEN"): "Day 3: HERON was visited by OWL and RAVEN.",
        ("OWL", "RAVEN", "WREN"): "Day 3: HERON was visited by OWL, RAVEN and WREN.",
    }
    for visitors, text in texts.items():
        assert format_claim(VisitorsClaim(3, "HERON", visitors)) == text
        assert parse_claim(text) == VisitorsClaim(3, "HERON", visitors)


def test_s43_visit_claim_and_stayed_home() -> None:
    assert format_claim(VisitClaim(4, "WREN", "OWL")) == "Day 4: WREN visited OWL."
    assert format_claim(VisitClaim(4, "WREN", None)) == "Day 4: WREN stayed home."
    assert parse_claim("Day 4: WREN stayed home.") == VisitClaim(4, "WREN", None)
    assert parse_claim("Day 4: WREN visited OWL.") == VisitClaim(4, "WREN", "OWL")


def test_s43_whisper_count_claim_singular_and_plural() -> None:
    assert (
        format_claim(WhisperCountClaim(2, "KITE", 1)) == "Day 2: KITE sent and received 1 whisper."
    )
    text = "Day 2: KITE sent and received 0 whispers."
    assert parse_claim(text) == WhisperCountClaim(2, "KITE", 0)
    with pytest.raises(IllegalAction) as refused:
        parse_claim("Day 2: KITE sent and received 3 whisper.")
    assert refused.value.code == "S43"


def test_s43_shelter_and_detain_claims() -> None:
    sheltered = ProtectionClaim(5, "sheltered", "LARK")
    assert format_claim(sheltered) == "Day 5: I sheltered LARK."
    assert parse_claim("Day 5: I detained LARK.") == ProtectionClaim(5, "detained", "LARK")


def test_s43_suspect_and_trust_claims() -> None:
    assert format_claim(StanceClaim("suspect", "OWL")) == "I suspect OWL."
    assert parse_claim("I trust RAVEN.") == StanceClaim("trust", "RAVEN")


@pytest.mark.parametrize(
    "text",
    [
        "I think OWL is the Ring.",
        "i am the Analyst.",
        "I am the Analyst",
        "Day 2: the weather is fine.",
        "Day 02: I read OWL as CLEAR.",
        "I read OWL as CLEAR.",
        "Day 2: I read OWL as MAYBE.",
        "",
    ],
)
def test_s43_free_text_is_no_claim(text: str) -> None:
    assert parse_claim(text) is None
    assert parse_post(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "I am the Wizard.",
        "I am the Field Agent.",
        "I am a Analyst.",
        "Day 0: I read OWL as CLEAR.",
        "Day 2: HERON was visited by OWL, RAVEN.",
        "Day 2: HERON was visited by OWL and OWL.",
    ],
)
def test_s43_a_claim_shaped_sentence_that_is_malformed_is_refused(text: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        parse_claim(text)
    assert refused.value.code == "S43"


def test_s43_a_post_may_hold_several_claims_but_not_claims_and_free_text() -> None:
    claims = (RoleClaim("analyst"), ReadingClaim(2, "HERON", "COMPROMISED"))
    body = "I am the Analyst. Day 2: I read HERON as COMPROMISED."
    assert format_post(claims) == body
    assert parse_post(body) == claims
    assert parse_post("I am the Analyst. Trust me.") == ()


def test_s43_the_game_checks_codenames_days_and_roles_never_truth() -> None:
    state = day_three()
    # HERON is the Analyst, not OWL, and OWL read nobody: a lie is a well-formed claim.
    assert check_post_claims(state, "Day 2: I read HERON as COMPROMISED.")
    assert check_post_claims(state, "I am the Analyst. I suspect HERON.")
    bad = {
        "Day 2: I read ZEBRA as CLEAR.": "no player ZEBRA",
        "Day 3: I read OWL as CLEAR.": "Day 3 has not happened",
        "Day 2: HERON was visited by OWL and EGRET.": "no player EGRET",
        "I am the Shadow.": "a table of 6 has no Shadow",
        "I trust KESTREL.": "no player KESTREL",
    }
    for text, message in bad.items():
        with pytest.raises(IllegalAction, match=message) as refused:
            check_post_claims(state, text)
        assert refused.value.code == "S43"
    assert check_post_claims(state, "OWL did it, trust me.") == ()


def test_s43_context_from_a_view_matches_the_game() -> None:
    state = day_three()
    assert ClaimContext.of_view(view(state, 2)) == ClaimContext.of_state(state)
    assert ClaimContext.of_view(view(state, None)) == ClaimContext.of_state(state)


def test_s43_posts_whispers_and_ring_messages_are_checked() -> None:
    state = day_three()
    with pytest.raises(IllegalAction) as refused:
        check_post(state, 2, Channel.FLOOR, "Day 9: I read OWL as CLEAR.")
    assert refused.value.code == "S43"
    with pytest.raises(IllegalAction) as refused:
        check_post(state, 0, Channel.RING, "I am the Honeytrap.")
    assert refused.value.code == "S43"
    check_post(state, 0, Channel.RING, "Day 2: I read WREN as COMPROMISED.")
    check_post(state, 2, Channel.FLOOR, "hello, OWL. I am the Analyst.")  # free text
    with pytest.raises(IllegalAction) as refused:
        apply(state, A.SendWhisper(2, 3, "I suspect ZEBRA."))
    assert refused.value.code == "S43"
    with pytest.raises(BatchRefused) as batch:
        apply_day(state, [A.SendWhisper(2, 3, "hi"), A.SendWhisper(2, 4, "I am the Wizard.")])
    assert batch.value.index == 1 and batch.value.code == "S43"


def test_s43_claims_in_lists_what_a_seat_can_see() -> None:
    state = day_three()
    state, _ = apply(state, A.SendWhisper(2, 3, "Day 1: I read OWL as CLEAR."))
    state, _ = apply(state, A.SendWhisper(4, 2, "nice weather"))
    posts = [
        Post(1, "HERON", "floor", "I am the Analyst. I suspect RAVEN."),
        Post(2, "OWL", "ring", "I trust WREN."),
        Post(2, "KITE", "floor", "I am the Analyst? No."),
        *whisper_posts(view(state, 2)),
    ]
    assert claims_in(posts) == [
        SeenClaim(1, "HERON", "floor", RoleClaim("analyst")),
        SeenClaim(1, "HERON", "floor", StanceClaim("suspect", "RAVEN")),
        SeenClaim(2, "OWL", "ring", StanceClaim("trust", "WREN")),
        SeenClaim(3, "HERON", "whisper", ReadingClaim(1, "OWL", "CLEAR")),
    ]
    assert whisper_posts(view(state, 5)) == []  # S31: LARK sees no whisper text
    assert whisper_posts(view(state, None)) == []


codenames = st.sampled_from(BIRDS)
days = st.integers(min_value=1, max_value=10_000)
claims: st.SearchStrategy[Claim] = st.one_of(
    st.builds(RoleClaim, st.sampled_from(ROLES)),
    st.builds(ReadingClaim, days, codenames, st.sampled_from(["CLEAR", "COMPROMISED"])),
    st.builds(
        VisitorsClaim,
        days,
        codenames,
        st.lists(codenames, unique=True, max_size=9).map(tuple),
    ),
    st.builds(VisitClaim, days, codenames, st.none() | codenames),
    st.builds(WhisperCountClaim, days, codenames, st.integers(min_value=0, max_value=10**6)),
    st.builds(ProtectionClaim, days, st.sampled_from(["sheltered", "detained"]), codenames),
    st.builds(StanceClaim, st.sampled_from(["suspect", "trust"]), codenames),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(claims, min_size=1, max_size=4))
def test_s43_every_claim_round_trips_exactly(post: list[Claim]) -> None:
    for claim in post:
        text = format_claim(claim)
        assert parse_claim(text) == claim
        assert format_claim(parse_claim(text)) == text  # type: ignore[arg-type]
    assert parse_post(format_post(post)) == tuple(post)


def test_s43_every_role_has_a_name() -> None:
    assert set(ROLE_NAMES) == set(ROLES)
    for role in ROLES:
        check_claim(RoleClaim(role), ClaimContext(frozenset(), frozenset(ROLES), 0))
