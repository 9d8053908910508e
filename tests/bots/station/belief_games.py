"""Views of simulated Station games, for the belief's tests and its timing (S42: view + posts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deaddrop.bots.station import heuristic, random_bot
from deaddrop.bots.station.base import DayBot, DayPlan
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.claims import Post
from deaddrop.engine.station.roles import Faction
from deaddrop.station_sim.simulate import play_to_end, seen_by

Seen = tuple[Mapping[str, Any], list[Post]]


def game_views(players: int, seed: int, bot: DayBot) -> list[Seen]:
    """Every (view, posts) a seat decided from, every day, then every seat's view at the end."""
    got: list[Seen] = []

    def recording(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
        got.append((seen, list(posts)))
        return bot(seen, posts, rng)

    state, chat = play_to_end(players, seed, dict.fromkeys(Faction, recording))
    for seat in range(players):
        seen = seen_by(state, seat)
        got.append((seen, list(chat.posts_for(state, seat, seen))))
    return got


def mixed_views(players: int, games: int, first_seed: int = 0) -> list[Seen]:
    """The views of `games` games, heuristic and random bots in turn."""
    views: list[Seen] = []
    for g in range(games):
        bot = heuristic.plan_day if g % 2 else random_bot.plan_day
        views.extend(game_views(players, first_seed + g, bot))
    return views
