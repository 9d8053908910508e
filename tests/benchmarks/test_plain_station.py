"""The plain adjudicator, `station bench`'s yardstick, gives exactly the engine's adjudication.

If the two ever differed, the bench would compare unlike work, so every check here runs both:
random legal games at every table size (S1), the scenario files, and invalid days (each refused
with the same rule id: S3, S8, S9, S10, S21, S24, S31).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deaddrop.benchmarks.plain_station import PlainRefusal, adjudicate_plain
from deaddrop.bots.station.random_bot import random_game
from deaddrop.engine.station.scenario import ScenarioError, adjudicate, export_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_FILES = sorted((ROOT / "scenarios" / "station").glob("*.json")) + sorted(
    (ROOT / "engine" / "station" / "scenarios").glob("*.json")
)


def _both(scenario: Any) -> tuple[Any, Any]:
    """(the engine's answer, the plain one's): the adjudication JSON or the refused rule id."""
    try:
        engine: Any = adjudicate(scenario)
    except ScenarioError as error:
        engine = ("refused", error.rule)
    try:
        plain: Any = adjudicate_plain(scenario)
    except PlainRefusal as error:
        plain = ("refused", error.rule)
    return engine, plain


def _random_scenario(players: int, seed: int) -> dict[str, Any]:
    state, _ = random_game(tuple(f"p{i}" for i in range(players)), seed)
    return export_scenario(state)


@pytest.mark.parametrize("players", range(6, 11))
def test_s20_random_games_adjudicate_alike(players: int) -> None:
    for seed in range(12):
        engine, plain = _both(_random_scenario(players, seed))
        assert engine == plain


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda path: path.stem)
def test_every_scenario_file_adjudicates_alike(path: Path) -> None:
    engine, plain = _both(json.loads(path.read_text(encoding="utf-8")))
    assert engine == plain


NAMES = st.integers(0, 11)
"""A player by join position; 10 and 11 stand for "abstain" and a codename nobody has."""


def _name(scenario: dict[str, Any], number: int) -> str:
    players = scenario["players"]
    if number < len(players):
        return str(players[number][0])
    return "abstain" if number == 10 else "NOBODY"


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(6, 10),
    seed=st.integers(0, 50),
    day=st.integers(0, 9),
    change=st.sampled_from(["operation", "order", "vote", "whisper", "extra_day"]),
    name=NAMES,
    other=NAMES,
)
def test_s8_s31_a_changed_save_is_refused_or_resolved_alike(
    players: int, seed: int, day: int, change: str, name: int, other: int
) -> None:
    scenario = _random_scenario(players, seed)
    actor, chosen = _name(scenario, name), _name(scenario, other)
    days = scenario["days"]
    spec = copy.deepcopy(days[min(day, len(days) - 1)])
    if change == "operation":
        spec.setdefault("operations", {})[actor] = {"target": chosen}
    elif change == "order":
        order = {"target": chosen, "performer": actor}
        spec.setdefault("operations", {})[actor] = {"order": order}
    elif change == "vote":
        spec.setdefault("votes", {})[actor] = chosen
    elif change == "whisper":
        spec.setdefault("whispers", []).extend([[actor, chosen]] * 3)
    else:
        days.append(spec)  # S24: a day after the end is refused
    days[min(day, len(days) - 1)] = spec
    engine, plain = _both(scenario)
    assert engine == plain
