"""Information-set MCTS (single observer, after Cowling, Powley & Whitehouse 2012): one tree over the
searching seat's view, a fresh sampled deal for every iteration.

Each iteration draws a deal consistent with the seat's view (the same `Sampler` as the PIMC bot, so
it never sees the true hidden cards), walks the tree from the root choosing among the actions legal
in that deal by UCB with availability counts (a node's exploration term counts the iterations in
which it could have been chosen), adds one node, finishes the deal with rule bots and credits every
node on the path with the deal's value to the seat that chose it. Another seat's face-down discard is
not part of the tree (the searching seat cannot tell those branches apart): the rule bot makes it.
The move is the root action visited most. Seeded; the budget is iterations per decision.
"""
from __future__ import annotations

import math
import random
from typing import Any

from interpreter.bots.rule import RuleBot
from interpreter.bots.sampler import Sampler
from interpreter.bots.search import SearchBot
from interpreter.bots.value import reckoning
from interpreter.bots.view import seat_view
from interpreter.engine import actions as A


class _Node:
    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class IsmctsBot:
    """SO-ISMCTS. `iterations`: sampled deals (and rollouts) per decision; `c`: exploration, scaled by the
    spread of values seen; `max_branch`: the seat's own discards are pre-ranked as by the PIMC bot."""

    def __init__(self, seed: Any = 0, iterations: int = 64, c: float = 0.7, max_branch: int = 8):
        self.rng = random.Random(f"ismcts:{seed}")
        self.iterations = iterations
        self.c = c
        self.fallback = RuleBot(seed)
        self._pimc = SearchBot(seed, max_branch=max_branch)   # for its candidate ranking only
        self._key: tuple | None = None
        self._exclusions: dict[int, int] = {}
        self.last: dict | None = None

    def choose(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last = None
            return legal[0]
        view = seat_view(state)
        if view.key != self._key:
            self._key, self._exclusions = view.key, {}
        me = view.seat
        root_cands = self._pimc.candidates(view, legal)
        sampler = Sampler(view, self._exclusions)
        root = _Node()
        lo, hi = math.inf, -math.inf
        done = tries = 0
        while done < self.iterations and tries < 4 * self.iterations:
            tries += 1
            world = sampler.sample(self.rng)
            if world is None:
                continue
            done += 1
            seed = self.rng.getrandbits(32)
            bots = [RuleBot(seed + s) for s in range(world.n)]
            node, path = root, []
            expanded = False
            while not world.is_over() and not expanded:
                p = world.current_player()
                acts = world.legal_actions()
                if p != me and acts and A.kind_of(acts[0]) == A.DISCARD:
                    world.apply_unchecked(bots[p].choose(world))       # face down: not in the tree
                    continue
                cands = root_cands if node is root else acts
                for a in cands:
                    node.children.setdefault(a, _Node()).avail += 1
                fresh = [a for a in cands if node.children[a].visits == 0]
                if fresh:
                    a = fresh[self.rng.randrange(len(fresh))]
                    expanded = True
                else:
                    scale = (hi - lo) if hi > lo else 1.0
                    a = max(cands, key=lambda b: self._ucb(node.children[b], scale))
                child = node.children[a]
                world.apply_unchecked(a)
                path.append((child, p))
                node = child
            while not world.is_over():
                world.apply_unchecked(bots[world.current_player()].choose(world))
            values = reckoning(world)
            for child, p in path:
                child.visits += 1
                child.total += values[p]
            lo, hi = min(lo, values[me]), max(hi, values[me])
        if done == 0:
            self.last = None
            return self.fallback.choose(state)
        stats = {a: (root.children[a].visits, root.children[a].total / max(1, root.children[a].visits))
                 for a in root_cands if a in root.children}
        self.last = {"iterations": done, "tries": tries, "root": stats}
        return max(root_cands, key=lambda a: (stats.get(a, (0, 0.0)), -legal.index(a)))

    def _ucb(self, n: _Node, scale: float) -> float:
        return n.total / n.visits + self.c * scale * math.sqrt(math.log(max(1, n.avail)) / n.visits)
