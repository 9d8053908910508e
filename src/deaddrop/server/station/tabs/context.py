"""What each tab of a Station game shows: pure context builders over the engine's view.

`tab_context(tab, view, info)` turns `view(state, seat)` (or the spectator's view) and the
service's `GameInfo` into the dict a template renders. Nothing here reads a database or
decides a rule: a tab shows a field only when the engine's view holds it for this viewer.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from deaddrop.phrasebook.station_claims import post_sentences
from deaddrop.server.station.chat.claim_form import claim_choices
from deaddrop.server.station.tabs.floor_regions import floor_regions
from deaddrop.server.station.tabs.info import GameInfo
from deaddrop.server.station.tabs.roles_text import (
    GOAL,
    ROLE_TEXT,
    WINNER_TEXT,
    causes_text,
    faction_name,
    operation_sentence,
    result_sentence,
    role_name,
    vote_text,
)

JSON = dict[str, Any]
Context = dict[str, Any]

TABS: tuple[tuple[str, str], ...] = (
    ("cable", "Cable"),
    ("floor", "Floor"),
    ("dossier", "Dossier"),
    ("operations", "Operations"),
    ("roster", "Roster"),
)
"""Every tab of a player, in the order of the tab bar."""
SPECTATOR_TABS = frozenset({"cable", "floor", "roster"})
"""What a spectator may open: public things only (S28)."""


def tabs_for(info: GameInfo) -> tuple[str, ...]:
    """The tabs this viewer may open: all five for a player, the public three for a spectator."""
    names = tuple(name for name, _ in TABS)
    if info.seat is None:
        return tuple(name for name in names if name in SPECTATOR_TABS)
    return names


def tab_context(tab: str, view: JSON, info: GameInfo, *, base_path: str | None = None) -> Context:
    """Everything the template of `tab` needs; `base_path` prefixes the tab links."""
    if tab not in tabs_for(info):
        raise KeyError(tab)
    base = base_path or f"/games/{info.game_id}"
    context = _common(tab, view, info, base)
    context.update(BUILDERS[tab](view, info))
    return context


def _common(tab: str, view: JSON, info: GameInfo, base: str) -> Context:
    """The layout's part: the game, the tab bar, the viewer, the clock."""
    me = view.get("me")
    labels = dict(TABS)
    return {
        "game": info,
        "tab": tab,
        "tab_label": labels[tab],
        "base": base,
        "action_base": f"/games/{info.game_id}",
        "tabs": [
            {"name": name, "label": labels[name], "href": f"{base}/{name}", "current": name == tab}
            for name in tabs_for(info)
        ],
        "badges": {},  # "new since I last looked", per tab: filled by the server (seen.py)
        "spectator": me is None,
        "codename": me["codename"] if me else None,
        "alive": bool(me and me["alive"]),
        "day": view["day"],
        "over": view["over"],
        "winner_text": WINNER_TEXT.get(view["winner"] or "", ""),
        "paused": info.status == "paused",
        "pause_ends_text": _when_for(info, info.pause_ends_at),
        "can_act": bool(me and me["alive"] and not view["over"] and info.status == "running"),
        "countdown": countdown(info) if not view["over"] else None,
        "host_tools_url": info.host_tools_url if info.is_host else None,
        "live_url": None,  # set with the page's journal position when the stream is on
        "live_after": 0,
        "chat": [],  # the chat panels come from the database (chat_view.py), not the view
        "claim_choices": claim_choices(view),  # S43: what the "Make a claim" forms offer
    }


def _when_for(info: GameInfo, moment: datetime | None) -> str | None:
    """A moment in the viewer's zone, or None."""
    return None if moment is None else when_text(moment, _zone(info.viewer_time_zone))


def countdown(info: GameInfo) -> Context | None:
    """The Pouch's deadline as text in the viewer's zone (and the game's), and for the script."""
    if info.deadline is None:
        return None
    deadline = info.deadline.astimezone(UTC)
    viewer_zone = _zone(info.viewer_time_zone)
    game_zone = _zone(info.game_time_zone)
    out: Context = {
        "iso": deadline.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "text": when_text(deadline, viewer_zone),
        "zone": viewer_zone.key,
        "game_text": None,
    }
    if when_text(deadline, game_zone) != out["text"]:
        out["game_text"] = f"{when_text(deadline, game_zone)} ({game_zone.key})"
    return out


def _zone(name: str) -> ZoneInfo:
    """An IANA zone; UTC when the stored name is unknown to this machine."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


@lru_cache(maxsize=8192)
def when_text(moment: datetime, zone: ZoneInfo) -> str:
    """A moment as a person reads it in a zone: "Tue 14 May, 20:00 CEST". Kept: every page
    shows the same deadline, votes and notices again to each reader in their zone."""
    local = moment.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b}, {local:%H:%M} {local.tzname()}"


# --- Cable ---------------------------------------------------------------------------------


def cable_tab(view: JSON, info: GameInfo) -> Context:
    """Every Morning Cable, latest first; the host's notices; the reveal and history at the end."""
    roles = {entry["codename"]: entry["role"] for entry in view.get("reveal", {}).get("roles", [])}
    notices = [
        {"day": notice.day, "text": notice.text, "when": _when_for(info, notice.at)}
        for notice in reversed(info.announcements)
    ]
    return {
        "cables": [cable_entry(cable) for cable in reversed(view["cables"])],
        # Host actions are announced publicly (issue 4): today's up top, the rest folded.
        "notices_today": [n for n in notices if n["day"] == view["day"]],
        "notices_earlier": [n for n in notices if n["day"] != view["day"]],
        "reveal": _reveal(view["reveal"]) if "reveal" in view else None,
        "history": [_history_day(day, roles) for day in view.get("history", [])],
        # The whole game as a scenario file holds every secret: players only, after the end.
        "scenario_url": f"/games/{info.game_id}/scenario"
        if view["over"] and "me" in view
        else None,
    }


def cable_entry(cable: JSON) -> Context:
    """One Morning Cable in words (S23): deaths, rumor, the Tribunal's record and tally."""
    tally = dict(cable["tally"])
    abstain = tally.pop("abstain", 0)
    return {
        "day": cable["day"],
        "deaths": [{"codename": d["codename"], **_death_words(d)} for d in cable["deaths"]],
        "rumor": cable["rumor"]["text"] if cable["rumor"] else None,
        "votes": [{"voter": v["voter"], "vote": vote_text(v["vote"])} for v in cable["votes"]],
        "tally": sorted(tally.items(), key=lambda item: (-item[1], item[0])),
        "abstain": abstain,
        "threshold": cable["threshold"],
        "recalled": cable["recalled"],
        "defector_won": cable["defector_won"],
        "winner_text": WINNER_TEXT.get(cable["winner"] or "", ""),
    }


def _death(death: JSON) -> Context:
    """A roster death in words."""
    return {"day": death["day"], **_death_words(death)}


def _death_words(death: JSON) -> Context:
    """What every list says of a death: its causes, the faction and the Final Cable."""
    return {
        "causes": causes_text(death["causes"]),
        "faction": faction_name(death["faction"]),
        "final_cable": death["final_cable"],  # S23: published with the death, removals too
    }


def _reveal(reveal: JSON) -> Context:
    """S26: every role, and who won."""
    return {
        "winner_text": WINNER_TEXT.get(reveal["winner"] or "", ""),
        "defector_won": reveal["defector_won"],
        "roles": [
            {
                "codename": entry["codename"],
                "role": role_name(entry["role"]),
                "faction": faction_name(entry["faction"]),
                "faction_key": entry["faction"],
            }
            for entry in reveal["roles"]
        ],
    }


def _history_day(day: JSON, roles: dict[str, str]) -> Context:
    """One day of the full history (S26): Operations, cancellations, results, whispers."""
    return {
        "day": day["day"],
        "operations": [
            f"{codename} ({role_name(roles[codename])}) "
            f"{operation_sentence(roles[codename], operation, past=True)}."
            for codename, operation in day["operations"].items()
        ],
        "cancelled": day["cancelled"],
        "results": [
            f"{codename}: {result_sentence(result)}"
            for codename, results in day["results"].items()
            for result in results
        ],
        "whispers": whispers_with_claims(day["whispers"]),
    }


def whispers_with_claims(whispers: list[JSON]) -> list[Context]:
    """Whispers as shown: a claim whisper (S43) also carries its plain sentences."""
    return [{**w, "claim": post_sentences(w["sender"], "whisper", w["text"])} for w in whispers]


# --- Floor ---------------------------------------------------------------------------------


def floor_tab(view: JSON, info: GameInfo) -> Context:
    """The live Tribunal (S21): who votes for whom, the tally, my vote form."""
    me = view.get("me")
    return {
        **floor_regions(view),  # public: the same for every reader (pushed once for all)
        "my_vote": me["vote"] if me else None,
        "vote_choices": me["options"]["vote_choices"] if me else [],
    }


# --- Dossier -------------------------------------------------------------------------------


def dossier_tab(view: JSON, info: GameInfo) -> Context:
    """My secret role in plain words, my private results, my Final Cable; the Ring roster."""
    me = view["me"]
    ring = view.get("ring")
    return {
        "role": role_name(me["role"]),
        "role_text": ROLE_TEXT[me["role"]],
        "faction": faction_name(me["faction"]),
        "faction_key": me["faction"],
        "goal": GOAL[me["faction"]],
        "results": [
            {"day": day["day"], "sentences": [result_sentence(r) for r in day["results"]]}
            for day in reversed(me["results"])
        ],
        "interrogation_open_with": me["interrogation_open_with"],
        "final_cable": me["final_cable"],
        "final_cable_limit": me["final_cable_limit"],
        "ring": _ring(ring, me["codename"]) if ring else None,
        # S31: my whispers with their text (the two parties only), newest first, and the form.
        "whispers": whispers_with_claims(list(reversed(me["whispers"]))),
        "whisper_recipients": me["options"]["whisper_recipients"],
    }


def _ring(ring: JSON, codename: str) -> Context:
    """S5: the Ring's members and roles; S11: who holds the order."""
    return {
        "members": [
            {
                "codename": member["codename"],
                "role": role_name(member["role"]),
                "alive": member["alive"],
                "is_me": member["codename"] == codename,
            }
            for member in ring["members"]
        ],
        "order_holder": ring.get("order_holder"),
    }


# --- Operations ----------------------------------------------------------------------------


def operations_tab(view: JSON, info: GameInfo) -> Context:
    """My role's action with only the legal targets, the Ring order, my submission, the clock."""
    me = view["me"]
    options = me["options"]
    ring = view.get("ring") or {}
    operation = me["operation"]
    order = ring.get("order")
    return {
        "role": role_name(me["role"]),
        "role_text": ROLE_TEXT[me["role"]],
        "is_defector": me["role"] == "defector",
        "submission": _submission(me["role"], operation),
        "saved_target": operation.get("target") if operation else None,
        "saved_order": operation if operation and "order_target" in operation else None,
        "ability_targets": options["ability_targets"],
        "order_targets": options["order_targets"],
        "order_performers": options["order_performers"],
        # S11: an heir may file either the order or their own Operation, one at a time.
        "heir": bool(options["order_targets"] and options["ability_targets"]),
        "order_holder": ring.get("order_holder"),
        "ring_order": _order_text(order, me["codename"]) if order else None,
        "i_perform": bool(order and order["performer"] == me["codename"])
        and ring.get("order_holder") != me["codename"],
        "early_pouch": info.early_pouch,
        "done": me["codename"] in view["done"],
    }


def _submission(role: str, operation: JSON | None) -> str:
    """The saved Operation as the player reads it (S7: nothing saved is No action)."""
    if operation is None:
        return "Lie low (nothing saved)." if role == "defector" else "No action (nothing saved)."
    sentence = operation_sentence(role, operation, past=False)
    return sentence[:1].upper() + sentence[1:] + "."


def _order_text(order: JSON, codename: str) -> str:
    """S10: the current Ring order, as every living Ring member sees it."""
    performer = "you" if order["performer"] == codename else order["performer"]
    return f"Liquidate {order['order_target']}, carried out by {performer}."


# --- Roster --------------------------------------------------------------------------------


def roster_tab(view: JSON, info: GameInfo) -> Context:
    """Every codename, living or burned (S23), done marks (S41), inactivity, replacements."""
    done = set(view["done"])
    seats = info.seats
    me = view.get("me")
    rows = []
    for index, entry in enumerate(view["roster"]):
        seat = seats[index] if index < len(seats) else None
        rows.append(
            {
                "codename": entry["codename"],
                "alive": entry["alive"],
                "death": _death(entry["death"]) if entry["death"] else None,
                "done": entry["codename"] in done,
                "inactive": bool(seat and seat.inactive and entry["alive"]),
                "previous_holders": seat.previous_holders if seat else 0,
                "bot_level": seat.bot_level if seat else None,  # S42: a bot is public
                "role": role_name(entry["role"]) if "role" in entry else None,  # S26
                # People's names stay hidden behind codenames until the end (S3).
                "person": seat.display_name if seat and view["over"] else None,
                "is_me": bool(me and me["codename"] == entry["codename"]),
            }
        )
    living = sum(1 for row in rows if row["alive"])
    return {
        "rows": rows,
        "living": living,
        "burned": len(rows) - living,
        # Inactivity prompts the host to replace, never kills (issue 4).
        "inactive_prompt": info.inactive_prompt if info.is_host and not view["over"] else (),
    }


BUILDERS: dict[str, Callable[[JSON, GameInfo], Context]] = {
    "cable": cable_tab,
    "floor": floor_tab,
    "dossier": dossier_tab,
    "operations": operations_tab,
    "roster": roster_tab,
}
