"""Judging a hand for the rule-based bot (engine/bots.py): which trick counts make a contract's goal, how
many tricks a hand should take under a trump, how likely it is to take none, and the margins a call is
judged by. Kept per rule set and hand, bounded, since the search bot judges many sampled hands."""
from __future__ import annotations

from interpreter.engine import bot_play, sides
from interpreter.engine.cards import bits


def goal_profile(state, contract) -> set[int]:
    """The declarer trick counts for which `contract`'s goal holds (trick-based goals only)."""
    key = ("profile", contract.name)
    cache = state.R.__dict__.setdefault("_bot_cache", {})
    if key in cache:
        return cache[key]
    total = state.R.rs.hand_size
    probe = state.clone()
    probe.con = contract
    if probe.declarer is None:
        probe.declarer = probe.active[0]
    if probe.declarer is None:          # a contract nobody declares (side no_declarer) has no goal to try
        cache[key] = set()
        return cache[key]
    made = set()
    # the declaring side as the contract forms it (a fixed partner shares the tricks; a called one is unknown)
    side = sides.SIDE_KINDS.get(contract.side, sides.SIDE_KINDS["alone"])(probe, probe.declarer)[0] or (probe.declarer,)
    for k in range(total + 1):
        probe.tricks_won = [0] * probe.n
        for i, s in enumerate(side):
            probe.tricks_won[s] = k // len(side) + (1 if i < k % len(side) else 0)
        others = [s for s in probe.active if s not in side]
        rest = total - k
        for i, s in enumerate(others):
            probe.tricks_won[s] = rest // len(others) + (1 if i < rest % len(others) else 0)
        try:
            if contract.goal(probe.ctx()):
                made.add(k)
        except Exception:  # a goal that needs more than tricks: treat as unknown
            made = set(range(total + 1))
            break
    cache[key] = made
    return made


_TALON_HELP = {"halves": 0.5, "exchange": 1.0, "defenders": -1.8}   # what the talon's procedure brings


class HandJudge:
    """The hand-judging half of the rule-based bot: margins for its calls, from its hand alone."""

    zero_bar = 0.6          # the chance of taking no trick at which a contract that wants none is worth bidding
    boldness = 0.0          # added to every margin (RuleBot sets its own)
    def tricks_estimate(self, state, hand: int, contract) -> float:
        R = state.R
        cache = R.__dict__.setdefault("_bot_estimates", {})
        key = (hand, contract.trump)
        got = cache.get(key)
        if got is None:
            if len(cache) > 200_000:            # bounded: the search bot judges many sampled hands
                cache.clear()
            got = cache[key] = self._tricks_estimate(R, hand, contract)
        return got

    @staticmethod
    def _tricks_estimate(R, hand: int, contract) -> float:
        est = 0.0
        for s, (n, tops) in enumerate(HandJudge._suit_parts(R, hand)):
            if not n:
                continue
            for add in tops:                    # summed in the same order for every trump: the same float
                est += add
            if s == contract.trump:
                est += max(0, n - 3) * 0.9 + 0.3 * min(n, 3)
        hand_size = R.rs.hand_size
        return min(est, hand_size)

    @staticmethod
    def _suit_parts(R, hand: int) -> tuple:
        """Per suit: (the cards the hand holds in it, what its top cards add), whatever the trump; kept
        per rule set and hand (the estimate is asked once per hand and trump)."""
        cache = R.__dict__.setdefault("_bot_suit_parts", {})
        got = cache.get(hand)
        if got is not None:
            return got
        parts = []
        for smask in R.suit_masks:
            cards = sorted(bits(hand & smask), key=lambda i: R.order_of[i], reverse=True)
            n = len(cards)
            top = len(bits(smask)) - 1
            tops = []
            for depth, c in enumerate(cards[:3]):
                gap = top - R.order_of[c]
                if gap <= depth and n > depth:
                    tops.append(1.0 if gap == 0 else 0.6)
            parts.append((n, tuple(tops)))
        if len(cache) > 200_000:                # bounded: the search bot judges many sampled hands
            cache.clear()
        got = cache[hand] = tuple(parts)
        return got

    def low_estimate(self, state, hand, contract) -> float:
        """How many tricks the hand is likely to be forced to take (for contracts wanting few)."""
        R = state.R
        risk = 0.0
        for smask in R.suit_masks:
            cards = bits(hand & smask)
            size = len(bits(smask))
            for c in cards:
                o = R.order_of[c]
                if o >= size - 3:
                    risk += 0.9
                elif o >= size - 5:
                    risk += 0.3
            if cards and min(R.order_of[c] for c in cards) >= 2:
                risk += 0.5
        return risk

    def zero_risks(self, state, hand: int) -> dict[int, float]:
        return bot_play.zero_risks(state, hand)

    def zero_chance(self, state, hand: int, take: int = 0, discard: int = 0) -> float:
        return bot_play.zero_chance(state, hand, take, discard)

    def _exchange(self, state, contract, call) -> tuple[int, int]:
        """(take, discard) of the talon exchange still ahead for the declarer of `contract` bid with
        `call` (the call's procedure, else the contract's); (0, 0) once the auction is over."""
        if state.phase != "auction":
            return 0, 0
        name = getattr(call, "talon", None) or getattr(contract, "talon", None)
        proc = state.R.talons.get(name) if name else None
        if proc is None or proc.kind != "exchange":
            return 0, 0
        take = proc.take if proc.take is not None else len(state.talon)
        return take, proc.discard if proc.discard is not None else take

    def can_make(self, state, hand, contract, call=None) -> float:
        """A margin: positive when the hand looks good enough for the contract (bid by `call`, when
        the talon procedure is the call's)."""
        made = goal_profile(state, contract)
        if not made:
            return self._points_margin(state, hand, contract)
        # a goal on tricks: the margin before boldness depends on the hand, the contract, the talon
        # exchange ahead (wanting none) and the seats playing only, so it is kept per rule set
        if made == {0}:
            key: tuple = (hand, contract.name, len(state.active), *self._exchange(state, contract, call))
        else:
            key = (hand, contract.name, len(state.active))
        cache = state.R.__dict__.setdefault("_bot_margins", {})
        got = cache.get(key)
        if got is None:
            if len(cache) > 200_000:            # bounded: the search bot judges many sampled hands
                cache.clear()
            got = cache[key] = self._tricks_margin(state, hand, contract, made, key[3:])
        return got + self.boldness

    def _tricks_margin(self, state, hand, contract, made: set[int], exchange: tuple) -> float:
        total = state.R.rs.hand_size
        if made == {0}:
            take, discard = exchange
            return 5.0 * (self.zero_chance(state, hand, take, discard) - self.zero_bar)
        lo = min(made)
        if len(made) == 1 and lo < total:       # an exact number of tricks: enough, and no more than the
            forced = bot_play.forced_tricks(state, hand)         # tricks the ladder expects it forced to take
            return min(self.tricks_estimate(state, hand, contract) - lo + 1.0, lo - forced)
        if lo == total:
            return self.tricks_estimate(state, hand, contract) - total + 0.5
        return self.tricks_estimate(state, hand, contract) - lo + 2.2

    def _points_margin(self, state, hand, contract) -> float:
        """A goal on card points (not decided by trick counts): the declaring side must take about half
        the tricks; a called partner brings his share, the talon helps by its procedure; a figure the
        contract must declare needs its card in hand. All against all is a fallback, never a wish."""
        from interpreter.engine.phases.talon import procedure_under

        plans = state.R.__dict__.setdefault("_bot_points_plans", {})
        plan = plans.get((contract.name, len(state.active)))
        if plan is None:
            plan = plans[(contract.name, len(state.active))] = self._points_plan(state, contract)
        fixed, cards, risk, need = plan
        if fixed is not None:
            return fixed
        for card in cards:
            if not hand >> card & 1:
                return -99
        proc = procedure_under(state, contract)
        kind = proc.kind if proc is not None else None
        talon = _TALON_HELP.get(kind or "", 0.0)
        return self.tricks_estimate(state, hand, contract) - need - 0.3 - risk + talon + self.boldness

    @staticmethod
    def _points_plan(state, contract) -> tuple:
        """What _points_margin reads of a contract, worked out once per rule set, contract and number of
        seats playing: (a fixed answer or None, the cards of the figures it must declare, their risk, the
        tricks the declaring side needs)."""
        if contract.side == "nobody":
            return -0.5, (), 0.0, 0.0
        rec = contract.ref.rec
        if "points(" not in str(rec.get("goal") or ""):
            return -99, (), 0.0, 0.0
        R = state.R
        risk = 0.0
        cards = []
        for fig in rec.get("must_declare") or ():
            f = getattr(R, "figures", {}).get(fig)
            if f is not None and f.card >= 0:
                cards.append(f.card)
            risk += 1.5                         # a figure promised besides the game
        total = R.rs.hand_size
        need = total / 2 - (total / len(state.active) if contract.side == "called" else 0)
        return None, tuple(cards), risk, need
