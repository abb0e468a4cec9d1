"""The search bot: perfect-information Monte Carlo over deals consistent with what its seat has seen.

For each decision it samples deals with `Sampler` from the seat's view (never the true hidden cards),
plays every candidate action in every sampled deal, finishes the deal with rule bots at every seat,
and takes the action with the best mean value to itself (the session's reckoning, so games that keep
a score sheet are judged like games that pay money). The same sampled deals and the same rollout
seeds serve every candidate (common random numbers), so the comparison between actions is sharp.
The budget is a number of playouts per decision; everything is drawn from one seeded random.Random,
so a bot with a given seed and budget decides the same way every time.
"""
from __future__ import annotations

import random
from typing import Any

from interpreter.bots.sampler import Sampler, bits, popcount
from interpreter.bots.value import reckoning
from interpreter.bots.view import SeatView, seat_view
from interpreter.engine import actions as A
from interpreter.engine.bots import RuleBot


class SearchBot:
    """Determinized (PIMC) search. `playouts`: rollouts per decision, shared among the candidates;
    `max_branch`: at most this many candidates (discards are pre-ranked cheaply)."""

    def __init__(self, seed: Any = 0, playouts: int = 48, max_branch: int = 8, min_worlds: int = 4,
                 infer: float = 1.0):
        self.seed = seed
        self.rng = random.Random(f"search:{seed}")
        self.playouts = playouts
        self.max_branch = max_branch
        self.min_worlds = min_worlds
        self.infer = infer                  # < 1: weigh samples by how well a rule bot explains the calls seen
        self.fallback = RuleBot(seed)
        self._key: tuple | None = None
        self._exclusions: dict[int, int] = {}
        self.last: dict | None = None       # the last decision's evaluation, for `advise` and tests

    # ---- the bot interface ------------------------------------------------------------------------
    def choose(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last = None
            return legal[0]
        view = seat_view(state)
        scores = self.evaluate(view)
        if not scores:
            self.last = None
            return self.fallback.choose(state)
        best = max(scores, key=lambda a: (scores[a][0], -legal.index(a)))
        return best

    # ---- evaluation -------------------------------------------------------------------------------
    def evaluate(self, view: SeatView, candidates: list[int] | None = None,
                 playouts: int | None = None) -> dict[int, tuple[float, int]]:
        """Mean value to the seat and number of sampled deals for each candidate action."""
        if view.key != self._key:
            self._key = view.key
            self._exclusions = {}
        legal = list(view.legal)
        cands = candidates if candidates is not None else self.candidates(view, legal)
        budget = playouts if playouts is not None else self.playouts
        n_worlds = max(self.min_worlds, budget // max(1, len(cands)))
        model = RuleBot(f"model:{self.seed}") if self.infer < 1.0 else None
        sampler = Sampler(view, self._exclusions, model=model, mismatch=self.infer)
        worlds: list[Any] = []
        weights: list[float] = []
        tries = 0
        while len(worlds) < n_worlds and tries < 25 * n_worlds:
            tries += 1
            w = sampler.sample(self.rng)
            if w is not None:
                worlds.append(w)
                weights.append(sampler.last_weight)
        if not worlds:
            return {}
        me = view.seat
        totals = dict.fromkeys(cands, 0.0)
        for w, wt in zip(worlds, weights):
            base = self.rng.getrandbits(32)
            for a in cands:
                sim = w.clone()
                sim.apply_unchecked(a)
                totals[a] += wt * self._rollout(sim, base)[me]
        mass = sum(weights)
        out = {a: (totals[a] / mass, len(worlds)) for a in cands}
        self.last = {"worlds": len(worlds), "tries": tries, "scores": out}
        return out

    def _rollout(self, sim: Any, base: int) -> list[float]:
        bots = [RuleBot(base + s) for s in range(sim.n)]
        while not sim.is_over():
            sim.apply_unchecked(bots[sim.current_player()].choose(sim))
        return reckoning(sim)

    # ---- which actions to search ----------------------------------------------------------------
    def candidates(self, view: SeatView, legal: list[int]) -> list[int]:
        if len(legal) <= self.max_branch:
            return legal
        discards = [a for a in legal if A.kind_of(a) == A.DISCARD]
        others = [a for a in legal if A.kind_of(a) != A.DISCARD]
        if discards:
            ranked = sorted(discards, key=lambda a: self._discard_cost(view, a))
            keep = max(1, self.max_branch - len(others))
            return others + ranked[:keep]
        return legal[: self.max_branch] if len(legal) > 3 * self.max_branch else legal

    def _discard_cost(self, view: SeatView, action: int) -> tuple[float, int]:
        """Cheap ranking of discards: lay away low cards, and prefer emptying a short suit."""
        rs = view.ruleset
        hand = 0
        for b in view.legal:
            if A.kind_of(b) == A.DISCARD:
                hand |= A.arg_of(b)
        cost = 0.0
        mask = A.arg_of(action)
        for c in bits(mask):
            card = rs.cards[c]
            cost += card.order
            suit_mask = rs.suit_mask[card.suit]
            left = popcount(hand & suit_mask & ~mask)
            if left == 0:
                cost -= 3.0
            elif left <= 1:
                cost += 1.0
        return cost, action
