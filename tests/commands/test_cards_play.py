"""`deaddrop cards play`: a person at seat 0, driven through standard input to a finished game."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from deaddrop.bots.cards.play import Table
from deaddrop.bots.cards.random_bot import RandomBot
from deaddrop.cards_terminal.describe import Names, command_for
from deaddrop.cards_terminal.parse import ParseError, parse_action
from deaddrop.cards_terminal.parse import __doc__ as COMMANDS_HELP
from deaddrop.cli import main
from deaddrop.engine.cards import (
    Action,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    Setup,
    ShareInfo,
    SwapStash,
)
from deaddrop.engine.cards.legal import legal_actions_for_view
from deaddrop.phrasebook.cards import log_line

ALWAYS_FIRST = "1\n" * 3000
"""Option 1 at every prompt: a legal choice each time, so the game runs to its end."""


def _play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str, *args: str
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["cards", "play", *args])
    return status, capsys.readouterr().out


def test_play_through_stdin_to_a_finished_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("--players", "3", "--bots", "random,heuristic", "--seed", "3")
    status, out = _play(monkeypatch, capsys, ALWAYS_FIRST, *args)
    assert status == 0
    assert re.search(r"won the game\.", out)
    assert "Final tokens:" in out
    assert "Your hand for round 1:" in out and "The Stash:" in out
    assert "every card" in out and "The Drop" in out  # C10: each round revealed


def test_play_explains_refusals_and_parse_errors_then_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = "swap 9 9\nsell 0 1 2\nfly away\n99\nhelp\n" + ALWAYS_FIRST
    # A seed where the person opens the round: with the bot first, the person's first prompt
    # is a C4 answer and every command would be refused by C4 instead.
    args = ("--players", "2", "--bots", "random", "--seed", "2")
    status, out = _play(monkeypatch, capsys, script, *args)
    assert status == 0
    assert "Refused by rule C6" in out  # the engine's IllegalAction: not in hand
    assert "Refused by rule C7" in out  # selling to oneself
    assert "Not understood: unknown command 'fly away'" in out
    assert "choose a number from 1 to" in out
    assert "Grab The Drop with A and B" in out  # help lists the commands


def test_play_with_the_expert_notebook_and_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("--players", "4", "--bots", "expert,random", "--seed", "8", "--notebook")
    more = ("--grab-face-down", "--tokens", "1")
    status, out = _play(monkeypatch, capsys, ALWAYS_FIRST, *args, *more)
    assert status == 0
    assert "Notebook (exact posterior" in out
    assert "Seat 1 (expert)" in out and "Seat 2 (random)" in out and "Seat 3 (expert)" in out
    assert "first to 1 token wins" in out and "1 tokens" not in out


def test_quit_and_end_of_input_leave_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = _play(monkeypatch, capsys, "quit\n", "--seed", "1")
    assert status == 1 and "You left the game." in out
    status, out = _play(monkeypatch, capsys, "", "--seed", "1")
    assert status == 1 and "You left the game." in out


def test_play_refuses_unknown_bots(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["cards", "play", "--bots", "genius"]) == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err


def test_play_as_a_process_with_piped_input() -> None:
    args = ["cards", "play", "--players", "2", "--bots", "random", "--seed", "5"]
    done = subprocess.run(
        [sys.executable, "-m", "deaddrop.cli", *args],
        input=ALWAYS_FIRST,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"won the game\.", done.stdout)


@pytest.mark.parametrize(
    ("action", "command"),
    [
        (SwapStash(0, 0, 3), "swap 0 3"),
        (ShareInfo(0, 2, 1), "share 2 1"),
        (ShareInfo(0, 1, 0, 4), "share 1 0 4"),
        (SellSecrets(0, 1, (0, 2)), "sell 1 0 2"),
        (GiveCard(0, 3), "give 3"),
        (HandBack(0, 2), "back 2"),
        (Grab(0, (1, 1)), "grab 1 1"),
        (EndTurn(0), "end"),
    ],
)
def test_command_for_is_the_word_then_the_numbers(action: Action, command: str) -> None:
    assert command_for(action) == command


def test_short_commands_name_every_legal_option() -> None:
    for seed in range(6):
        players = 2 + seed % 3
        table = Table(Setup(players, seed), [RandomBot(seed + s) for s in range(players)])
        while not table.over:
            state = table.state
            assert state.pending is not None
            view = table.view(state.pending.seat)
            options = legal_actions_for_view(view)
            for option in options:
                assert parse_action(command_for(option), view["viewer"], options) == option
            table.step()


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("swap 0 3", SwapStash(0, 0, 3)),
        ("share 2 give 1", ShareInfo(0, 2, 1)),
        ("share 1 give 0 take 4", ShareInfo(0, 1, 0, 4)),
        ("sell 1 show 0 2", SellSecrets(0, 1, (0, 2))),
        ("sell 1 0+2", SellSecrets(0, 1, (0, 2))),
        ("grab 1 1", Grab(0, (1, 1))),
        ("give 3", GiveCard(0, 3)),
        ("back 2", HandBack(0, 2)),
        ("hand back 2", HandBack(0, 2)),
        ("END", EndTurn(0)),
        ("2", EndTurn(0)),
    ],
)
def test_parse_short_commands(text: str, action: object) -> None:
    assert parse_action(text, 0, [Grab(0, (1, 1)), EndTurn(0)]) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "menu number"),
        ("swap 1", "swap GIVE TAKE"),
        ("sell x 1 2", "expected numbers"),
        ("3", "from 1 to 2"),
        ("dance", "unknown command"),
    ],
)
def test_parse_errors_say_how_to_write_it(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_action(text, 0, [Grab(0, (1, 1)), EndTurn(0)])


def test_c12_log_lines_show_trade_cards_only_to_the_parties() -> None:
    names = Names(0, {1: "random", 2: "random"})
    public = {"kind": "share_info", "public": True, "seat": 1, "with": 2, "face_up": False}
    assert log_line(public, names) == "Seat 1 (random) shared info with Seat 2 (random)."
    mine = {"kind": "share_info_cards", "seat": 1, "with": 0, "give": 2, "receive": 4}
    assert log_line(mine, names) == "Private trade: Seat 1 (random) gave a 2, you gave a 4."


def test_notebook_without_inference_says_so_and_play_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A None entry in sys.modules makes the import fail, as if inference.py were absent.
    monkeypatch.setitem(sys.modules, "deaddrop.engine.cards.inference", None)
    args = ("--players", "2", "--bots", "random", "--seed", "2", "--notebook")
    status, out = _play(monkeypatch, capsys, ALWAYS_FIRST, *args)
    assert status == 0
    assert "--notebook needs exact inference, which is not installed." in out
    assert "Notebook (exact posterior" not in out


def test_counts_of_one_are_singular_in_the_terminal() -> None:
    names = Names(0, {1: "random"})
    void = {"kind": "round_void", "public": True, "round": 2, "turns": 1}
    assert log_line(void, names) == "Round 2 is void after 1 turn: nobody scores."
    assert log_line({**void, "turns": 200}, names) == (
        "Round 2 is void after 200 turns: nobody scores."
    )


def test_the_command_help_carries_no_rule_codes() -> None:
    assert "Grab The Drop with A and B" in (COMMANDS_HELP or "")
    assert not re.findall(r"\bC\d{1,2}\b", COMMANDS_HELP or "")


def test_after_the_game_the_notebook_shows_the_masters_hint_on_asking() -> None:
    from rich.console import Console

    from deaddrop.cards_terminal.session import play_in_terminal
    from deaddrop.engine.cards import Options

    def read(prompt: str) -> str:
        return "hint" if "master" in prompt else "1"  # option 1 in play, then ask for the hint

    console = Console(file=io.StringIO(), width=120)
    options = Options(tokens_to_win=1)
    status = play_in_terminal(
        console, 2, ["heuristic"], 3, options=options, notebook=True, read=read
    )
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert status == 0
    assert "Hint: what the master weighed" in out
    assert "rounds won in playouts" in out and "The master would" in out
