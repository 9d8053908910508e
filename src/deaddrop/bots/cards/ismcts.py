"""The ISMCTS Cards bot: plain single-observer information-set Monte Carlo tree search (C13).

Each decision runs a fixed number of iterations (400 by default). An iteration guesses the
hidden cards uniformly over the physical deals consistent with the view (the CONSISTENT
posterior, `determinize.posterior_sampler`; a test checks it against every deal), walks
one shared tree from the root, choosing at each node among the options open in that guess by
UCB1 counted over the iterations in which the option was open (availability), adds one node,
plays the round out by the rollout policy, and credits each node on the path with a win when
the seat that chose it won the round. The answer is the root option visited most. The tree
holds every seat's decisions; each seat's nodes are valued by its own round wins. Everything
it reads is the view; its RNG is seeded, so a seed and a sequence of views give the same
choices.

The rollout policy: every seat takes uniformly random main actions and answers (C4–C7), and at
the end of its turn (C8) grabs only with a pair that matches the guessed Drop (certain in that
guess), else ends the turn. Uniformly random grabs fail five times in six, so waiting for the
others to fail always looked best and the search never grabbed.

Two things keep the tree's statistics about the decisions that matter:

- A grab is one option per sum that can be The Drop (C1: 0 to 5). Pairs with the same sum end
  the round alike, and a sum above 5 never matches, yet listing every pair made a grab
  decision ten options wide at two players. New nodes try every untried option first, so a
  main action's few visits went mostly on failed exploratory grabs after it, and an action
  leaving many pair sums in hand (taking a 0) looked worst.
- When the root is a main action, every later grab in the iteration, in the tree too, follows
  the rollout rule and takes no node: the visits stay on the main actions. When the root is
  the grab itself, the tree searches grab against ending the turn, and the others' grabs that
  follow, as nodes.

What it cannot see, being plain ISMCTS: in a guess every seat's cards are known, so hiding a
card is worth nothing to it, while the expert reads each card shown to it (its LEAK cost). A
sale whose sum is above 5 (always "no", C7) costs the search nothing and can tell the expert
The Drop.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from math import log, sqrt
from typing import Any

from deaddrop.bots.cards.determinize import Sampler, posterior_sampler
from deaddrop.bots.cards.expert import ExpertBot
from deaddrop.bots.cards.world import GIVE, GRAB, World, world_from_view
from deaddrop.engine.cards.actions import Action, EndTurn, Grab
from deaddrop.engine.cards.legal import distinct, legal_actions_for_view

ITERATIONS = 400
"""Determinized playouts per decision (the baseline of issue 16)."""
EXPLORATION = 0.7
"""UCB1's exploration constant (rewards are 0 or 1)."""
HIGHEST_DROP = 5
"""C1: The Drop is a card, 0 to 5, so no pair summing above 5 matches it."""


class _Node:
    """An option chosen in the tree: how often it was open, tried and won for its chooser."""

    __slots__ = ("available", "children", "seat", "visits", "wins")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.wins = 0.0
        self.available = 0
        self.children: dict[Action, _Node] = {}


class IsmctsBot:
    """Searches determinized playouts of the round, from its view alone."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = ITERATIONS) -> None:
        self._rng = random.Random(seed)
        self.iterations = iterations
        # The expert's incremental CONSISTENT posterior: the deals the view allows, each weighed
        # by its shuffles and nothing read into how others chose (C13).
        self._tracker = ExpertBot(seed)

    def choose(self, view: Mapping[str, Any]) -> Action:
        """The most visited root option after the iterations, for the viewer (C13)."""
        options = legal_actions_for_view(view)
        if not options:
            raise ValueError("the view holds no decision for this seat")
        if len(options) == 1:
            return options[0]
        sampler = self.sampler(view)
        grab_nodes = view["pending"]["kind"] == GRAB
        root = _Node(view["viewer"])
        for _ in range(self.iterations):
            self._iterate(root, self._guess(view, sampler), grab_nodes)
        return max(distinct_grabs(options), key=lambda a: _visits(root, a))

    def sampler(self, view: Mapping[str, Any]) -> Sampler:
        """Its guesses at the hidden cards: uniform over the deals consistent with the view."""
        return posterior_sampler(self._tracker.belief(view))

    def _guess(self, view: Mapping[str, Any], sampler: Sampler) -> World:
        config = sampler.draw(self._rng)
        offered = -1
        if view["pending"]["kind"] == GIVE:  # C4: the offered card is hidden from the target
            cards = distinct(config[1][view["pending"]["mover"]])
            offered = cards[self._rng.randrange(len(cards))]
        return world_from_view(view, config, offered)

    def _iterate(self, root: _Node, world: World, grab_nodes: bool) -> None:
        rng = self._rng
        node, path = root, list[_Node]()
        while world.winner is None:
            if world.kind == GRAB and path and not grab_nodes:
                world.play(certain_grab(world))
                continue
            options = distinct_grabs(world.options())
            untried = [a for a in options if a not in node.children]
            for action in options:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = node.children[action] = _Node(world.seat)
                child.available = 1
                path.append(child)
                world.play(action)
                break
            action = max(options, key=lambda a: _ucb(node.children[a]))
            node = node.children[action]
            path.append(node)
            world.play(action)
        winner = _playout(world, rng)
        for visited in path:
            visited.visits += 1
            visited.wins += visited.seat == winner


def distinct_grabs(options: Sequence[Action]) -> tuple[Action, ...]:
    """The options with one grab per sum that can match The Drop (C1, C8), the first listed."""
    out: list[Action] = []
    sums: set[int] = set()
    for action in options:
        if isinstance(action, Grab):
            total = action.pair[0] + action.pair[1]
            if total > HIGHEST_DROP or total in sums:
                continue
            sums.add(total)
        out.append(action)
    return tuple(out)


def _ucb(node: _Node) -> float:
    return node.wins / node.visits + EXPLORATION * sqrt(log(node.available) / node.visits)


def _visits(root: _Node, action: Action) -> int:
    child = root.children.get(action)
    return 0 if child is None else child.visits


def _playout(world: World, rng: random.Random) -> int:
    """The rollout policy (module docstring) for every seat until the round is won."""
    while world.winner is None:
        if world.kind == GRAB:
            world.play(certain_grab(world))
            continue
        options = world.options()
        world.play(options[rng.randrange(len(options))])
    return world.winner


def certain_grab(world: World) -> Action:
    """C8: a grab with a pair matching the guessed Drop, else the end of the turn."""
    seat, hand = world.seat, world.hands[world.seat]
    for index, card in enumerate(hand):
        if world.drop - card in hand[index + 1 :]:
            return Grab(seat, (card, world.drop - card))
    return EndTurn(seat)
