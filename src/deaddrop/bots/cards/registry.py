"""Cards bots by name: `make_bot("heuristic", seed)`; the expert and the search bots are
imported only when asked for."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from deaddrop.bots.cards.base import CardsBot
from deaddrop.bots.cards.heuristic import HeuristicBot
from deaddrop.bots.cards.random_bot import RandomBot

BOT_NAMES: tuple[str, ...] = ("random", "heuristic", "ismcts", "expert", "master")
"""Every bot a table may seat, weakest first."""


def _late(module_name: str, class_name: str) -> Callable[[int], CardsBot]:
    """A factory that imports its bot's module on first use."""

    def factory(seed: int) -> CardsBot:
        # Imported late: these bots pull in exact inference, which random play never needs.
        bot: CardsBot = getattr(import_module(module_name), class_name)(seed)
        return bot

    return factory


_FACTORIES: dict[str, Callable[[int], CardsBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "ismcts": _late("deaddrop.bots.cards.ismcts", "IsmctsBot"),
    "expert": _late("deaddrop.bots.cards.expert", "ExpertBot"),
    "master": _late("deaddrop.bots.cards.master", "MasterBot"),
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
