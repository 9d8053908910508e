"""Golden playthroughs: every seat's view of a few random games, checked in as text.

A change in what any seat sees shows up as a changed line in review. Regenerate with
`python -m tests.engine.cards.test_golden` after a deliberate change, and read the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from deaddrop.engine.cards import Options, Setup, action_to_json, replay, view
from tests.engine.cards.helpers import play_random

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "three-players-seed-1": (Setup(3, seed=1), 1),
    "four-players-face-down": (Setup(4, seed=2, options=Options(grab_face_down=True)), 2),
    "two-players-to-two-tokens": (Setup(2, seed=3, options=Options(tokens_to_win=2)), 3),
}
CAP = 80


def render(setup: Setup, chooser: int) -> str:
    """The game as text: each decision, then what each viewer newly sees and holds."""
    _, log, _ = play_random(setup, chooser, cap=CAP, patience=0.6)
    viewers = [None, *range(setup.players)]
    lines = [f"setup: {setup}"]
    seen = {viewer: 0 for viewer in viewers}
    for step in range(len(log) + 1):
        state = replay(setup, log[:step])
        if step:
            lines.append(f"#{step} {json.dumps(action_to_json(log[step - 1]))}")
        for viewer in viewers:
            shown = view(state, viewer)
            name = "spectator" if viewer is None else f"seat {viewer}"
            for entry in shown["log"][seen[viewer] :]:
                lines.append(f"  {name} sees {json.dumps(entry)}")
            seen[viewer] = len(shown["log"])
            held = "" if viewer is None else f" hand={shown['hand']}"
            lines.append(f"  {name}:{held} pending={json.dumps(shown['pending'])}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough_views_are_unchanged(name: str) -> None:
    expected = (GOLDEN / f"{name}.txt").read_text()
    assert render(*GAMES[name]) == expected


def main() -> int:
    """Write every golden file."""
    GOLDEN.mkdir(exist_ok=True)
    for name, (setup, chooser) in GAMES.items():
        (GOLDEN / f"{name}.txt").write_text(render(setup, chooser))
        print(f"wrote {GOLDEN / name}.txt", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
