"""Cards bots by name: `make_bot("heuristic", seed)`; the expert is imported only when asked for."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from deaddrop.bots.cards.base import CardsBot
from deaddrop.bots.cards.heuristic import HeuristicBot
from deaddrop.bots.cards.random_bot import RandomBot

BOT_NAMES: tuple[str, ...] = ("random", "heuristic", "expert")
"""Every bot a table may seat, weakest first."""


def _expert(seed: int) -> CardsBot:
    # Imported late: the expert pulls in exact inference, which random play never needs.
    module = import_module("deaddrop.bots.cards.expert")
    bot: CardsBot = module.ExpertBot(seed)
    return bot


_FACTORIES: dict[str, Callable[[int], CardsBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "expert": _expert,
}


def make_bot(name: str, seed: int = 0) -> CardsBot:
    """A new bot of that kind with its own seeded RNG; ValueError for an unknown name."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOT_NAMES)}")
    return factory(seed)


def parse_bot_names(text: str) -> list[str]:
    """The names of a comma-separated list such as "expert,heuristic"; ValueError if unknown."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise ValueError("name at least one bot")
    for name in names:
        if name not in _FACTORIES:
            raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOT_NAMES)}")
    return names


def expert_available() -> bool:
    """Whether the expert bot's module is there to import."""
    try:
        import_module("deaddrop.bots.cards.expert")
    except ModuleNotFoundError:
        return False
    return True
