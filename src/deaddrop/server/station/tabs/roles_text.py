"""The words of the Station pages: the roles in plain words, results, causes and votes.

Words only: which roles exist, what they may target and what happened are the engine's
(roles.py, options.py, views.py); this module says it in sentences (S9–S25).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RoleText:
    """How the pages talk about one role."""

    name: str
    """The role's name as a person reads it."""
    choose: str
    """What the player chooses each day."""
    remember: tuple[str, ...]
    """The fine print, one point a line."""
    verb: str
    """The Operation in the imperative, before a codename ("investigate")."""
    verb_past: str
    """The Operation in the past tense, before a codename ("investigated")."""


ROLE_TEXT: dict[str, RoleText] = {
    "analyst": RoleText(
        "Analyst",
        "Pick any living officer, yourself included. After the Pouch you alone learn whether "
        "they read CLEAR or COMPROMISED.",
        (
            "COMPROMISED usually means a mole, but the Ringleader reads CLEAR, and so does the "
            "Defector.",
            "A Forger can make anyone read COMPROMISED for one Pouch: a reading is evidence, "
            "not proof.",
        ),
        "investigate",
        "investigated",
    ),
    "watcher": RoleText(
        "Watcher",
        "Pick any living officer, yourself included. After the Pouch you learn the codenames "
        "of everyone whose Operation reached them.",
        (
            "You see who came, not why: a visitor may have sheltered, investigated, framed, "
            "detained or killed.",
            "Nobody on your list means no Operation got through to them.",
        ),
        "watch",
        "watched",
    ),
    "shadow": RoleText(
        "Shadow",
        "Pick another living officer. After the Pouch you learn whom they visited, or that "
        "they stayed home.",
        (
            "You learn where they went, not what they did there.",
            "No action, lying low and a cancelled Operation all look like staying home.",
        ),
        "shadow",
        "shadowed",
    ),
    "safehouse_keeper": RoleText(
        "Safehouse Keeper",
        "Pick another living officer. If the Ring tries to liquidate them at this Pouch, they "
        "survive.",
        (
            "Shelter does not save anyone from the Tribunal.",
            "You get a private note when your safehouse was needed; the person you saved never "
            "learns who it was.",
        ),
        "shelter",
        "sheltered",
    ),
    "interrogator": RoleText(
        "Interrogator",
        "Pick another living officer to detain: their Operation is cancelled, the Ring cannot "
        "kill them at this Pouch, and a private chat opens between you two.",
        (
            "You cannot detain yourself, nor the same officer at two Pouches running.",
            "Nothing cancels a detention. The chat stays open until the next Pouch, unless one "
            "of you is burned first.",
        ),
        "detain",
        "detained",
    ),
    "field_agent": RoleText(
        "Field Agent",
        "Pick any living officer, yourself included. After the Pouch you learn how many "
        "whispers they sent and received that day.",
        (
            "You learn the count only: not the words, not who was at the other end.",
            "Busy private traffic says nothing by itself about which side someone is on.",
        ),
        "count the whispers of",
        "counted the whispers of",
    ),
    "ringleader": RoleText(
        "Ringleader",
        "From Day 2 on, file the Ring's order: a living officer outside the Ring to liquidate, "
        "and a living Ring member (you too) to carry it out.",
        (
            "No liquidation on Day 1. The performer gives up their own Operation for that "
            "Pouch; if you name someone else, you stay home.",
            "You read CLEAR to an Analyst unless a Forger framed you. If you are burned, the "
            "earliest-joined surviving mole inherits the order.",
        ),
        "file the order",
        "filed the order",
    ),
    "forger": RoleText(
        "Forger",
        "Pick any living officer, yourself included, to frame: an Analyst who investigates "
        "them at this Pouch reads COMPROMISED, whatever they really are.",
        (
            "A frame lasts one Pouch and changes only the Analyst's reading.",
            "If you are named to carry out the liquidation, the kill replaces your frame.",
        ),
        "frame",
        "framed",
    ),
    "honeytrap": RoleText(
        "Honeytrap",
        "Pick another living officer to distract: their queued Operation is quietly cancelled "
        "before it resolves.",
        (
            "They are not told. Their vote, chat, whispers and Final Cable still count.",
            "If you are named to carry out the liquidation, the kill replaces your distraction.",
        ),
        "distract",
        "distracted",
    ),
    "defector": RoleText(
        "Defector",
        "Pick a living officer to plant an anonymous, invented rumor about them in the "
        "Morning Cable, or lie low.",
        (
            "Rumors are colour, not evidence.",
            "You win on your own when the Tribunal recalls you; being liquidated does not count. "
            "Your win does not end the game.",
        ),
        "spread a rumor about",
        "spread a rumor about",
    ),
}

FACTION_NAME = {"station": "Station", "ring": "Ring", "neutral": "Neutral"}
"""A faction as the Cable names it (S23)."""

GOAL = {
    "station": "The Station wins when every Ring member has been burned.",
    "ring": (
        "The Ring wins when living moles equal or outnumber everyone else alive, or when any "
        "mole survives the Day 10 Pouch. You know your fellow moles and their roles."
    ),
    "neutral": (
        "You are neither Station nor Ring and do not know the moles. Get yourself recalled by "
        "the Tribunal."
    ),
}
"""How each side wins (S24, S25), in the words of the Dossier."""


def role_name(role: str) -> str:
    """A role's name as a person reads it ("Safehouse Keeper")."""
    return ROLE_TEXT[role].name


def faction_name(faction: str) -> str:
    """A faction as the Cable names it ("Ring")."""
    return FACTION_NAME[faction]


CAUSE_TEXT = {
    "recalled": "recalled by the Tribunal",
    "liquidated": "liquidated by the Ring",
    "removed": "removed from the game by the host",
}
"""How a burned officer fell (S22, S40)."""

WINNER_TEXT = {"station": "The Station wins.", "ring": "The Ring wins."}
"""The end of the game (S24)."""


def causes_text(causes: list[str]) -> str:
    """Every cause of one death, joined ("recalled by the Tribunal and liquidated …")."""
    return " and ".join(CAUSE_TEXT.get(cause, cause) for cause in causes)


def vote_text(vote: str | None) -> str:
    """A vote as the Floor shows it; no saved vote counts as Abstain (S7)."""
    if vote is None:
        return "no vote saved (counts as Abstain)"
    return "Abstain" if vote == "abstain" else vote


def result_sentence(result: dict[str, object]) -> str:
    """One private result in a sentence ("HERON read CLEAR.", "Nobody visited WREN.")."""
    kind, target = result["kind"], result.get("target")
    if kind == "analyst":
        return f"{target} read {result['reading']}."
    if kind == "watcher":
        visitors = result["visitors"]
        assert isinstance(visitors, list)
        if not visitors:
            return f"Nobody visited {target}."
        return f"{target} was visited by {', '.join(visitors)}."
    if kind == "shadow":
        visited = result["visited"]
        return f"{target} stayed home." if visited is None else f"{target} visited {visited}."
    if kind == "field_agent":
        count = result["whispers"]
        noun = "whisper" if count == 1 else "whispers"
        return f"{target} sent and received {count} {noun} in all."
    if kind == "safehouse_needed":
        return f"The safehouse was needed: the Ring came for {target}, who survived."
    if kind == "interrogation":
        return f"An interrogation chat with {result['with']} opened after the Pouch."
    return f"{kind}: {target}."  # a kind this page does not know yet: shown, never dropped


def operation_sentence(role: str, operation: dict[str, str] | None, *, past: bool) -> str:
    """A saved Operation or Ring order in words, without its subject ("investigate HERON")."""
    if operation is None:
        return "no action" if not past else "took no action"
    if "order_target" in operation:
        verb = "ordered" if past else "order"
        return (
            f"{verb} the liquidation of {operation['order_target']}, "
            f"carried out by {operation['performer']}"
        )
    text = ROLE_TEXT[role]
    return f"{text.verb_past if past else text.verb} {operation['target']}"
