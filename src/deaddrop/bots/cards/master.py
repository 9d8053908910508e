"""The master Cards bot: the expert's exact posterior and scores, checked by playouts (C13).

At its main action (C4–C7) it scores every option as the expert does and searches the close
calls: the expert's best few options that score within CLOSE of the best. At the end of its
turn (C8), with three or four seats at the table, it weighs the likeliest grab, worth
exactly its posterior chance of matching The Drop, against ending the turn. At a table of
two it grabs only when waiting one more turn is worth less (`_two_seat_grab`): it knows
exactly what the only opponent knows in each guess at the hidden cards (`rival`), so it
knows how likely that opponent is to grab next turn, and to match or fail (C8, C9). Searched
by playouts, whose cheap counting beliefs misjudge how soon that opponent grabs, the master
failed 716 grabs in 1,000 two-player games to the expert's 153 and lost the pairing. A
search draws guesses at the hidden cards from the exact posterior of its view
(`determinize`), the same guesses for every option (common random numbers), plays each
option out to the round's end with the expert-like playout policy at every seat (`playout`),
and values it by the share of rounds the master won. The master leaves the expert's choice
only when the search says another option wins at least MARGIN more rounds: measured against
the expert, playouts alone choose worse than its one-step scores, so they only overrule it
on clear evidence. The search has a fixed size: PLAYOUTS guesses, each played by every
candidate still in the running, stopping early only once the guesses left cannot change the
choice (no rival of the expert's can still overrule it; for a grab, the wait's share is
settled either way). So a seed and a view give the same choice on any machine, however busy
(`cards simulate` is reproducible). The clock is only a safety cap (TIME_CAP of the deciding
thread's CPU time, far above what a search takes): past it the search stops and judges on
the guesses played, or the expert's choice stands. CPU time, not wall time: a wall-clock cap
of 250 ms was hit by searches of a `nice`d simulation on a machine at load 20 to 30 (its 48
four-player games of seed 1 came out 28 / 13 / 6 / 1 instead of 28 / 16 / 4 / 0), which made
the figures depend on the load. As the target of Share Info, or a seller handing back a
card, it answers as the expert does.

`weighed` keeps what the last decision weighed, for the notebook's hint.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deaddrop.bots.cards.determinize import posterior_sampler
from deaddrop.bots.cards.expert import ExpertBot, drop_dist, grab_threshold
from deaddrop.bots.cards.playout import Playout
from deaddrop.bots.cards.rival import grab_danger
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
TIME_CAP = 0.25
"""Seconds of the deciding thread's CPU time after which a decision's search stops whatever it
has played: a safety net, ten times the work a search takes. The strength comes from the fixed
PLAYOUTS, never from the clock."""
LONG_SHOT = 0.15
"""A grab less likely than this is not searched: the master ends its turn."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option the master weighed."""

    action: Action
    """The option."""
    score: float
    """The expert's score: its one-step value for a main action, the match chance for a grab;
    for ending the turn at a table of two, the least chance of the round that waiting one turn
    keeps (`_two_seat_grab`), else 0."""
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
    """Guesses played out by each searched option still in the running at the end (0 when
    it did not search); an option that dropped out earlier played fewer."""


class MasterBot:
    """The expert, with close calls searched over guesses drawn from its exact posterior."""

    name = "master"

    def __init__(
        self,
        seed: int = 0,
        playouts: int = PLAYOUTS,
        budget: float | None = TIME_CAP,
        clock: Callable[[], float] = time.thread_time,
    ) -> None:
        self.expert = ExpertBot(seed)
        self.playouts = playouts
        self.budget = budget
        """The safety cap in seconds (None: none; a seed and a view then give the same choice
        whatever the machine)."""
        self.clock = clock
        self._deadline = 0.0
        self.searched = 0
        """Guesses played out at the last decision (0 when it did not search)."""
        self._rng = random.Random(seed ^ 0x5EED)
        self.weighed: Weighed | None = None

    def choose(self, view: Mapping[str, Any]) -> Action:
        """The master's action for the viewer, from its view alone (C13)."""
        if self.budget is not None:
            self._deadline = self.clock() + self.budget
        self.searched = 0
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
        if view["players"] == 2:
            return self._two_seat_grab(view, belief, best, q)
        expert_grabs = q >= grab_threshold(view) - 1e-9
        if q >= 1.0 - 1e-9 or q < LONG_SHOT:
            first, second = (best, end) if expert_grabs else (end, best)
            weighed = [Option(first, q if first is best else 0.0, None)]
            weighed.append(Option(second, q if second is best else 0.0, None))
            return self._settle(drop, weighed, False)

        def overrules(wait: float) -> bool:  # as `_settle` will judge the searched wait
            return wait >= q + MARGIN if expert_grabs else q >= wait + MARGIN

        (wait,) = self._search(view, belief, [end], settled=overrules)
        weighed = [Option(best, q, q), Option(end, 0.0, wait)]
        if not expert_grabs:
            weighed.reverse()
        return self._settle(drop, weighed, True)

    def _two_seat_grab(
        self, view: Mapping[str, Any], belief: Belief, best: Grab, q: float
    ) -> Action:
        """C8, C9: grab now only if waiting one more turn is worth less (`rival`).

        Grabbing wins with chance q. Waiting, the round is ours if the opponent grabs next
        turn and fails (C9), lost if it grabs and matches, and otherwise we can still grab
        with our pair next turn, on the same posterior less the guesses where it grabbed: at
        least q − beaten + gift in all. So grab when beaten > gift (or the pair is certain).
        """
        danger = grab_danger(view, belief, sum(best.pair))
        wait = q - danger.beaten + danger.gift
        end = EndTurn(view["viewer"])
        grab = q >= 1.0 - 1e-9 or danger.beaten > danger.gift + 1e-9
        weighed = [Option(best, q, None), Option(end, wait, None)]
        if not grab:
            weighed.reverse()
        return self._settle(drop_dist(belief), weighed, False)

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
        self.weighed = Weighed(drop, ordered, self.searched if searched else 0)
        return choice.action

    def _search(
        self,
        view: Mapping[str, Any],
        belief: Belief,
        candidates: Sequence[Action],
        prune: bool = False,
        settled: Callable[[float], bool] | None = None,
    ) -> list[float | None]:
        """Each candidate's share of round wins over the same posterior guesses.

        Guesses are played in turn, each by every candidate still in the running (common
        random numbers), until `playouts` guesses are played (or the safety cap is reached);
        every share is then over the same guesses. With `prune`, candidates come in the
        expert's order and a later one drops out once even winning every guess left could not
        lift it MARGIN above the first, the least `_settle` asks of it; its value is then
        that bound, which `_settle` never picks. With `settled` (one candidate: how its share
        will be judged), the search stops once the guesses left cannot change that judgement,
        and the value is the share it has already won, which is judged the same.
        """
        sampler = posterior_sampler(belief)
        drop = drop_dist(belief)
        seat = view["viewer"]
        count = self.playouts
        totals = [0.0] * len(candidates)
        running = list(range(len(candidates)))
        bounds: dict[int, float] = {}  # a dropped candidate's best possible share
        # Drawn up front, so stopping early leaves the RNG where a full search would.
        guesses = [sampler.draw(self._rng) for _ in range(count)]
        seeds = [self._rng.getrandbits(32) for _ in guesses]
        played = 0
        # Once every rival of the first has dropped out, the choice is settled: stop there.
        while (
            played < count
            and (len(candidates) == 1 or len(running) > 1)
            and not self._out_of_time()
        ):
            config, seed = guesses[played], seeds[played]
            for index in running:
                world = world_from_view(view, config)
                world.play(candidates[index])
                winner, left = Playout(world, seat, drop, random.Random(seed)).run()
                totals[index] += 1.0 if winner == seat else (1.0 / left if winner is None else 0.0)
            played += 1
            if settled is not None:
                low, high = totals[0] / count, (totals[0] + count - played) / count
                if settled(low) == settled(high):  # the judgement is monotone in the share
                    self.searched = max(self.searched, played)
                    return [low]
            if prune:
                for i in running:
                    if self._hopeless(totals, i, count - played):
                        bounds[i] = (totals[i] + count - played) / count
                running = [i for i in running if i not in bounds]
        self.searched = max(self.searched, played)
        if played == 0:  # past the safety cap before one guess: the expert's choice stands
            return [None] * len(candidates)
        return [bounds.get(i, totals[i] / played) for i in range(len(candidates))]

    def _hopeless(self, totals: Sequence[float], index: int, left: int) -> bool:
        """Whether candidate `index` can no longer reach the first's share plus MARGIN."""
        if index == 0:
            return False
        return totals[index] + left < totals[0] + MARGIN * self.playouts - 1e-9

    def _out_of_time(self) -> bool:
        return self.budget is not None and self.clock() >= self._deadline
