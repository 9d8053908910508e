"""Flavour lines for the Defector's rumor (S27): anonymous, fictional, carrying no information."""

from __future__ import annotations

from deaddrop.engine.core.rng import Rng

TEMPLATES: tuple[str, ...] = (
    "A cleaner swears {name} left the canteen with two identical briefcases.",
    "Someone saw {name} feeding pigeons at the Tiergarten for a very long time.",
    "The night porter says {name} asked for a room with a view of the Wall.",
    "A taxi driver remembers taking {name} twice around the same block.",
    "{name} was overheard humming a tune nobody in the typing pool could place.",
    "A waiter at the Kranzler claims {name} tipped in the wrong currency.",
    "{name} borrowed a camera from Registry and returned it with a fresh film.",
    "They say {name} reads the Neues Deutschland with unusual care.",
    "{name} was seen at Tempelhof meeting a flight that never landed.",
    "The switchboard logged a call for {name} from a number that does not exist.",
    "A typist noticed {name} wearing a hat that is not sold in the West.",
    "{name} has started taking the long way home, past the S-Bahn arches.",
)


def draw_rumor(rng: Rng, codename: str) -> tuple[str, Rng]:
    """One rumor line about a codename, drawn by the game's RNG (S27)."""
    template, rng = rng.choice(TEMPLATES)
    return template.format(name=codename), rng
