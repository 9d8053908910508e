"""The master Cards bot: the expert's exact posterior and scores, checked by playouts (C13).

At its main action (C4–C7) it scores every option as the expert does and searches the close
calls: the expert's best few options that score within CLOSE of the best. At the end of its
turn (C8), with three or four seats at the table, it weighs the likeliest grab, worth exactly
its posterior chance of matching The Drop, against ending the turn; at a table of two it
grabs by the expert's rule (C8, τ = 0.9). Why: with one opponent a failed grab hands them the
round at once (C9), and the playouts' cheap counting beliefs misjudge how soon that opponent
grabs; searched, the master failed 716 grabs in 1,000 two-player games to the expert's 153
and lost the pairing. A search draws guesses at the hidden cards from the exact posterior
of its view (`determinize`), the same guesses for every option (common random numbers),
plays each option out to the round's end with the expert-like playout policy at
every seat (`playout`), and values it by the share of rounds the master won. The master
leaves the expert's choice only when the search says another option wins at least MARGIN
more rounds: measured against the expert, playouts alone choose worse than its one-step
scores, so they only overrule it on clear evidence. A fixed number of playouts per decision
keeps it deterministic for a seed and within its time budget. As the target of Share Info,
or a seller handing back a card, it answers as the expert does.

`weighed` keeps what the last decision weighed, for the notebook's hint.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deaddrop.bots.cards.determinize import posterior_sampler
from deaddrop.bots.cards.expert import ExpertBot, drop_dist, grab_threshold
from deaddrop.bots.cards.playout import Playout
from deaddrop.bots.cards.world import ACTION, GRAB, world_from_view
from deaddrop.engine.cards.actions import Action, EndTurn, Grab
from deaddrop.engine.cards.inference import Belief
from deaddrop.engine.cards.legal import legal_actions_for_view

CANDIDATES = 3
"""At most this many of the expert's best main actions are searched."""
CLOSE = 0.03
"""A main action scoring this close to the expert's best is a close call worth searching."""
PLAYOUTS = 20
"""Guesses (each played out once per option) per searched decision."""
MARGIN = 0.15
"""How many more rounds in a hundred, over 100, the search must win to overrule the expert."""
LONG_SHOT = 0.15
"""A grab less likely than this is not searched: the master ends its turn."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option the master weighed."""

    action: Action
    """The option."""
    score: float
    """The expert's score: its one-step value for a main action, the match chance for a grab."""
    rounds: float | None
    """The share of searched playouts whose round the master won; None if not searched; for
    an option whose search stopped early (it could no longer overrule), the most it could
    still have won."""


@dataclass(frozen=True, slots=True)
class Weighed:
    """What the master weighed at one decision: The Drop's posterior and the options."""

    drop: tuple[float, ...]
    """P(The Drop = v) for v = 0…5, from the view alone."""
    options: tuple[Option, ...]
    """The options weighed, the chosen one first."""
    playouts: int
    """Playouts per searched option (0 when it did not search)."""


class MasterBot:
    """The expert, with close calls searched over guesses drawn from its exact posterior."""

    name = "master"

    def __init__(self, seed: int = 0, playouts: int = PLAYOUTS) -> None:
        self.expert = ExpertBot(seed)
        self.playouts = playouts
        self._rng = random.Random(seed ^ 0x5EED)
        self.weighed: Weighed | None = None

    def choose(self, view: Mapping[str, Any]) -> Action:
        """The master's action for the viewer, from its view alone (C13)."""
        options = legal_actions_for_view(view)
        if not options:
            raise ValueError("the view holds no decision for this seat")
        kind = view["pending"]["kind"]
        if kind == GRAB:
            return self._grab_or_end(view, options)
        if kind != ACTION:
            action = self.expert.choose(view)
            drop = drop_dist(self.expert.belief(view))
            self.weighed = Weighed(drop, (Option(action, 0.0, None),), 0)
            return action
        ranked = self.expert.ranked(view)
        belief = self.expert.belief(view)
        top = ranked[0][0]
        close = [a for score, a in ranked[:CANDIDATES] if score >= top - CLOSE]
        rounds = self._search(view, belief, close, prune=True) if len(close) > 1 else [None]
        searched = dict(zip(close, rounds, strict=True))
        weighed = [Option(a, score, searched.get(a)) for score, a in ranked[:CANDIDATES]]
        return self._settle(drop_dist(belief), weighed, len(close) > 1)

    def _grab_or_end(self, view: Mapping[str, Any], options: Sequence[Action]) -> Action:
        belief = self.expert.belief(view)
        drop = drop_dist(belief)
        end = EndTurn(view["viewer"])
        grabs = [a for a in options if isinstance(a, Grab) and sum(a.pair) <= 5]
        if not grabs:
            self.weighed = Weighed(drop, (Option(end, 0.0, None),), 0)
            return end
        best = max(grabs, key=lambda a: drop[sum(a.pair)] if isinstance(a, Grab) else 0.0)
        assert isinstance(best, Grab)
        q = drop[sum(best.pair)]
        if view["players"] == 2:  # the expert's own choice, its tie-breaks included
            chosen = self.expert.choose(view)
            best = chosen if isinstance(chosen, Grab) else best
            expert_grabs = isinstance(chosen, Grab)
        else:
            expert_grabs = q >= grab_threshold(view) - 1e-9
        first, second = (best, end) if expert_grabs else (end, best)
        if view["players"] == 2 or q >= 1.0 - 1e-9 or q < LONG_SHOT:
            weighed = [Option(first, q if first is best else 0.0, None)]
            weighed.append(Option(second, q if second is best else 0.0, None))
            return self._settle(drop, weighed, False)
        (wait,) = self._search(view, belief, [end])
        weighed = [Option(best, q, q), Option(end, 0.0, wait)]
        if not expert_grabs:
            weighed.reverse()
        return self._settle(drop, weighed, True)

    def _settle(self, drop: tuple[float, ...], weighed: list[Option], searched: bool) -> Action:
        """The expert's choice (first) unless a searched option wins MARGIN more rounds."""
        choice = weighed[0]
        for option in weighed[1:]:
            if (
                option.rounds is not None
                and choice.rounds is not None
                and option.rounds >= choice.rounds + MARGIN
            ):
                choice = option
        ordered = (choice, *(o for o in weighed if o is not choice))
        self.weighed = Weighed(drop, ordered, self.playouts if searched else 0)
        return choice.action

    def _search(
        self,
        view: Mapping[str, Any],
        belief: Belief,
        candidates: Sequence[Action],
        prune: bool = False,
    ) -> list[float | None]:
        """Each candidate's share of round wins over the same posterior guesses.

        With `prune`, candidates come in the expert's order and a candidate stops once even
        winning every playout left could not lift it MARGIN above the choice so far (the
        rule of `_settle`); its value is then that bound, which `_settle` never picks. The
        choice is the same as with every playout played, in less time.
        """
        sampler = posterior_sampler(belief)
        drop = drop_dist(belief)
        seat = view["viewer"]
        guesses = [sampler.draw(self._rng) for _ in range(self.playouts)]
        seeds = [self._rng.getrandbits(32) for _ in guesses]
        count = len(guesses)
        values: list[float | None] = []
        chosen: float | None = None  # the share of the choice so far
        for action in candidates:
            total, played = 0.0, 0
            for config, seed in zip(guesses, seeds, strict=True):
                hopeless = (
                    chosen is not None and total + count - played < (chosen + MARGIN) * count - 1e-9
                )
                if prune and hopeless:
                    break
                world = world_from_view(view, config)
                world.play(action)
                winner, left = Playout(world, seat, drop, random.Random(seed)).run()
                total += 1.0 if winner == seat else (1.0 / left if winner is None else 0.0)
                played += 1
            if played < count:
                values.append((total + count - played) / count)
                continue
            share = total / count
            values.append(share)
            if chosen is None or share >= chosen + MARGIN:
                chosen = share
        return values
