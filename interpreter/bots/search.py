"""The search bot: perfect-information Monte Carlo over deals consistent with what its seat has seen.

For each decision it samples deals with `Sampler` from the seat's view (never the true hidden cards),
plays every candidate action in every sampled deal, finishes the deal with rule bots at every seat,
and takes the action with the best mean value to itself (the session's reckoning, so games that keep
a score sheet are judged like games that pay money). The same sampled deals and the same rollout
seeds serve every candidate (common random numbers), so the comparison between actions is sharp.
The budget is a number of playouts per decision; everything is drawn from one seeded random.Random,
so a bot with a given seed and budget decides the same way every time.

By default the sampled deals are conditioned on the other seats' calls: a deal is kept when a rule-bot
model of each seat, holding that deal's cards, would have made the calls the seat made (passed where it
passed, bid where it bid, went along, doubled…). A sample that leaves calls unexplained is repaired by
exchanging unknown cards between the hidden hands (hill-climbing on the number of calls explained), and
the explained deals of a decision are replayed first at the seat's next decision of the same deal.
Without it a defender judges a kontra against a declarer holding random cards, and doubles far too often.
"""
from __future__ import annotations

import random
from typing import Any

from interpreter.bots.rule import RuleBot
from interpreter.bots.sampler import Sampler, bits, popcount
from interpreter.bots.value import reckoning
from interpreter.bots.view import SeatView, seat_view
from interpreter.engine import actions as A


class SearchBot:
    """Determinized (PIMC) search. `playouts`: rollouts per decision, shared among the candidates;
    `max_branch`: at most this many candidates (discards are pre-ranked cheaply); `condition`: draw up to
    this many times the deals needed to find ones that explain the calls (0: no conditioning); `repair`:
    card exchanges per sample towards one that does; `infer` < 1: weigh each deal by `infer` per call
    left unexplained instead."""

    def __init__(self, seed: Any = 0, playouts: int = 48, max_branch: int = 8, min_worlds: int = 4,
                 infer: float = 1.0, condition: int = 2, repair: int = 40):
        self.seed = seed
        self.rng = random.Random(f"search:{seed}")
        self.playouts = playouts
        self.max_branch = max_branch
        self.min_worlds = min_worlds
        self.infer = infer                  # < 1: weigh samples by how well a rule bot explains the calls seen
        self.condition = condition          # > 0: keep the samples a rule bot explains, drawing up to this many times more
        self.repair = repair                # card exchanges that try to make a sample explain the calls
        self.fallback = RuleBot(seed)
        self._key: tuple | None = None
        self._exclusions: dict[int, int] = {}
        self._pool: list[tuple[list[int], int]] = []     # explained deals of this deal's earlier decisions
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
            self._pool = []
        legal = list(view.legal)
        cands = candidates if candidates is not None else self.candidates(view, legal)
        budget = playouts if playouts is not None else self.playouts
        n_worlds = max(self.min_worlds, budget // max(1, len(cands)))
        worlds, weights, explained, tries = self._worlds(view, n_worlds)
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
        self.last = {"worlds": len(worlds), "explained": explained, "tries": tries, "scores": out}
        return out

    def _worlds(self, view: SeatView, n_worlds: int) -> tuple[list[Any], list[float], int, int]:
        """Sampled deals at the decision point, their weights, how many explain the calls, the tries.

        Conditioned (`condition` > 0), a deal must also explain the other seats' calls by the rule-bot
        model: the explained deals of this deal's earlier decisions are replayed first, then fresh ones
        are drawn (up to `condition` × the deals needed), each improved by up to `repair` card exchanges
        while the replays stay under 8 × the deals needed. Short of explained deals, those that leave
        the fewest calls unexplained make up the number."""
        conditioned = self.condition > 0
        model = RuleBot(f"model:{self.seed}") if self.infer < 1.0 or conditioned else None
        sampler = Sampler(view, self._exclusions, model=model, mismatch=self.infer)
        worlds: list[Any] = []
        weights: list[float] = []
        pool: list[tuple[list[int], int]] = []
        for old in self._pool if conditioned else ():
            if len(worlds) >= n_worlds:
                pool.append(old)
                continue
            w = sampler.again(old, self.rng)
            if w is not None and not sampler.last_misses and sampler.last_assignment is not None:
                worlds.append(w)
                weights.append(sampler.last_weight)
                pool.append(sampler.last_assignment)
        spare: list[tuple[int, int, Any, float]] = []
        tries = 0
        while len(worlds) < n_worlds and tries < 25 * n_worlds:
            if conditioned and len(worlds) + len(spare) >= n_worlds:
                if tries >= self.condition * n_worlds:
                    break
                if not self.repair:
                    sampler.max_misses = 0      # enough deals to fall back on: only explained ones are of use
            tries += 1
            repair = self.repair if conditioned and sampler.replays < 8 * n_worlds else 0
            w = sampler.sample(self.rng, repair)
            if w is None:
                continue
            if conditioned and sampler.last_misses:
                spare.append((sampler.last_misses, len(spare), w, sampler.last_weight))
                continue
            worlds.append(w)
            weights.append(sampler.last_weight)
            if conditioned and sampler.last_assignment is not None:
                pool.append(sampler.last_assignment)
        self._pool = pool
        explained = len(worlds)
        if len(worlds) < n_worlds and spare:     # short of explained deals: those that explain the most calls
            spare.sort(key=lambda t: t[:2])
            for _m, _k, w, wt in spare[:n_worlds - len(worlds)]:
                worlds.append(w)
                weights.append(wt)
        return worlds, weights, explained, tries

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
