"""The factored belief equals a plain brute-force enumeration of every assignment, to 1e-9, at
every day for every seat of many random small games (issue 12: the exact belief's check)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from deaddrop.bots.station import heuristic, random_bot
from deaddrop.bots.station.belief import belief_of, belief_with
from deaddrop.bots.station.belief_bench import Seen, game_views, mixed_views
from deaddrop.bots.station.belief_brute import brute_posterior, deals
from deaddrop.bots.station.belief_evidence import evidence
from deaddrop.bots.station.belief_exact import exact_posterior
from deaddrop.bots.station.belief_factors import Content, VisitFact, honest_weight
from deaddrop.bots.station.known import Known, read
from deaddrop.bots.station.likelihood import DEFAULT, Likelihood, label
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.claims import Post, VisitClaim, format_post
from deaddrop.engine.station.roles import Faction, is_ring
from deaddrop.engine.station.state import State
from deaddrop.station_sim.simulate import play_to_end

GAMES = {6: 12, 7: 8, 8: 3}


def _same_as_brute_force(known: Known, model: Likelihood = DEFAULT) -> None:
    """The exact belief and the brute force agree to 1e-9: liars, every marginal, Ring sets."""
    exact = belief_with(known, model, exact_posterior)
    brute = belief_with(known, model, brute_posterior)
    assert exact.liars == brute.liars
    for codename in known.codenames:
        assert sum(exact.roles[codename].values()) == pytest.approx(1.0, abs=1e-9)
        for role in set(exact.roles[codename]) | set(brute.roles[codename]):
            assert exact.p_role(codename, role) == pytest.approx(
                brute.p_role(codename, role), abs=1e-9
            ), (known.me, codename, role)
    assert set(exact.ring_sets) == set(brute.ring_sets)
    for ring, p in brute.ring_sets.items():
        assert exact.ring_sets[ring] == pytest.approx(p, abs=1e-9)


@pytest.mark.parametrize("players", sorted(GAMES))
def test_the_exact_belief_equals_brute_force_at_every_day_for_every_seat(players: int) -> None:
    claims_seen = 0
    for seen, posts in mixed_views(players, GAMES[players], first_seed=100 * players):
        known = read(seen, posts)
        _same_as_brute_force(known)
        claims_seen += bool(known.claims)
    assert claims_seen  # the games exercised claims


def test_a_sharper_likelihood_is_still_exact() -> None:
    sharp = Likelihood(frame_rate=0.02, slip=0.001, victim_visit=0.05, ring_off_story=0.01)
    for seen, posts in mixed_views(7, 2, first_seed=7):
        _same_as_brute_force(read(seen, posts), sharp)


def test_brute_force_deals_every_distinct_assignment_once() -> None:
    dealt = list(deals(("a", "b", "field_agent", "field_agent")))
    assert len(dealt) == len(set(dealt)) == 12  # 4! / 2!


def test_the_exact_belief_equals_brute_force_at_nine_players_on_sampled_views() -> None:
    views = mixed_views(9, 2, first_seed=900)
    for seen, posts in views[:: max(1, len(views) // 12)]:
        _same_as_brute_force(read(seen, posts))


@pytest.mark.parametrize("players", [6, 7, 8, 9, 10])
def test_the_truth_is_never_ruled_out(players: int) -> None:
    """Every hard fact is a consequence of the rules: the real deal keeps a positive weight;
    and every liar found did make a false claim."""
    liars_found = 0
    for g in range(4):
        bot = heuristic.plan_day if g % 2 else random_bot.plan_day
        views, truth = game_views(players, 50 * players + g, bot)
        for seen, posts in views:
            known = read(seen, posts)
            belief = belief_of(known)
            assert all(belief.p_role(c, r) > 0.0 for c, r in truth.items())
            assert belief.p_all_ring(c for c, r in truth.items() if is_ring(r)) > 0.0
            claims = evidence(known, DEFAULT).contents
            for liar in belief.liars:  # a liar did make a false claim
                assert any(_false(c, truth) for c in claims if c.author == liar), liar
            liars_found += len(belief.liars)
    assert liars_found or players == 6  # the Ring's fake claims are caught (none at six here)


def _false(c: Content, truth: Mapping[str, str]) -> bool:
    """Whether a claim is false in the real deal."""
    if c.refuted or truth[c.author] != c.role:
        return True
    labels = tuple(label(truth[t]) for t in c.targets)
    return honest_weight(c, labels, DEFAULT) == DEFAULT.slip


@pytest.mark.parametrize("players", [9, 10])
def test_the_exact_belief_equals_brute_force_for_every_ring_seat_at_nine_and_ten(
    players: int,
) -> None:
    """A Ring seat knows its mates (S5), so brute force over the rest is quick at any size."""
    checked = 0
    for seen, posts in mixed_views(players, 2, first_seed=77 * players):
        if seen["me"]["faction"] != "ring":
            continue
        _same_as_brute_force(read(seen, posts))
        checked += 1
    assert checked > 10


def _ring_records(state: State) -> list[tuple[int, VisitClaim]]:
    """What the Ring knows and a Ring player may write in the Ring Channel (S29, S43): each
    locked order as "Day D: PERFORMER visited TARGET" (S12) and each detention of a Ring member
    as "Day D: INTERROGATOR visited DETAINEE" (S14)."""
    name = [seat.codename for seat in state.seats]
    out: list[tuple[int, VisitClaim]] = []
    for record in state.history:
        order = record.liquidation
        if order is not None:
            out.append(
                (record.day, VisitClaim(record.day, name[order.performer], name[order.target]))
            )
        chat = record.interrogation
        if chat is not None and is_ring(state.seats[chat[1]].role):
            out.append((record.day, VisitClaim(record.day, name[chat[0]], name[chat[1]])))
    return out


def _views_with_ring_records(players: int, games: int, first_seed: int) -> list[Seen]:
    """Every Ring seat's views of whole games, each with the Ring's records of the days before
    posted in the Ring Channel by a living mate (or the seat itself)."""
    out: list[Seen] = []
    for g in range(games):
        got: list[Seen] = []
        bot = heuristic.plan_day if g % 2 else random_bot.plan_day

        def recording(
            seen: Mapping[str, Any],
            posts: Sequence[Post],
            rng: Rng,
            bot: Any = bot,
            got: list[Seen] = got,
        ) -> Any:
            got.append((seen, list(posts)))
            return bot(seen, posts, rng)

        state, _ = play_to_end(players, first_seed + g, dict.fromkeys(Faction, recording))
        records = _ring_records(state)
        for seen, posts in got:
            if seen["me"]["faction"] != "ring":
                continue
            author = seen["me"]["codename"]
            extra = [
                Post(seen["day"], author, "ring", format_post([claim]))
                for day, claim in records
                if day < seen["day"]
            ]
            out.append((seen, posts + extra))
    return out


@pytest.mark.parametrize("players", [6, 8, 9])
def test_the_rings_records_of_its_orders_and_detentions_are_exact(players: int) -> None:
    """S10, S12, S14, S17, S18, S29: a Ring seat's belief from the orders it saw and its Ring
    Channel records equals brute force, keeps the truth possible, and they did weigh (a failed
    kill, a detention)."""
    weighed = 0
    for seen, posts in _views_with_ring_records(players, 4, first_seed=31 * players):
        known = read(seen, posts)
        _same_as_brute_force(known)
        unaware = {**seen, "ring": {**seen["ring"], "orders": []}}
        plain = evidence(read(unaware, [p for p in posts if p.channel != "ring"]), DEFAULT)
        weighed += evidence(known, DEFAULT).unary != plain.unary
    assert weighed


@pytest.mark.parametrize("players", [7, 8])
def test_seen_visits_are_exact_however_they_fall(players: int) -> None:
    """S9-S13, S18: random visits and stays at home (a Shadow's and a Watcher's results, made
    up so every case shows, the Ringleader's impossible ones too) weigh both engines alike."""
    rng = random.Random(players)
    compared = 0
    for seen, posts in mixed_views(players, 2, first_seed=5 * players):
        ev = evidence(read(seen, posts), DEFAULT)
        names = list(ev.codenames)
        facts = []
        for _ in range(rng.randint(1, 4)):
            visitor, *others = rng.sample(names, rng.randint(2, 4))
            if rng.random() < 0.25:
                facts.append(VisitFact(visitor, None, rng.randint(1, 3)))
                continue
            guards = tuple(others[1:]) if rng.random() < 0.6 else None
            survived = rng.random() < 0.8
            facts.append(VisitFact(visitor, others[0], rng.randint(1, 3), survived, guards))
        ev = dataclasses.replace(ev, visits=ev.visits + tuple(facts))
        try:
            brute = brute_posterior(ev)
        except ValueError:
            with pytest.raises(ValueError):
                exact_posterior(ev)
            continue
        exact = exact_posterior(ev)
        for codename in ev.codenames:
            for role, p in brute.roles[codename].items():
                assert exact.roles[codename].get(role, 0.0) == pytest.approx(p, abs=1e-9)
        for ring, p in brute.ring_sets.items():
            assert exact.ring_sets[ring] == pytest.approx(p, abs=1e-9)
        compared += 1
    assert compared > 20
