"""Bots. Both are seeded and know no game by name: the rule-based bot reads each contract's goal
by trying it on trick counts, and judges its hand from card ranks and the trump suit."""
from __future__ import annotations

import random

from interpreter.engine import actions as A
from interpreter.engine.cards import bits


class RandomBot:
    """Uniformly random among the legal actions, from its own seeded random.Random."""

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]


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
    made = set()
    for k in range(total + 1):
        probe.tricks_won = [0] * probe.n
        probe.tricks_won[probe.declarer] = k
        others = [s for s in probe.active if s != probe.declarer]
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


class RuleBot:
    """Bids what its hand can make, discards its weakest cards, defends when it can take tricks,
    and plays sensibly: win cheaply when it wants tricks, duck when it wants none."""

    def __init__(self, seed=0, boldness=0.0):
        self.rng = random.Random(seed)
        self.boldness = boldness

    # ---- judging a hand ---------------------------------------------------------------------------
    def tricks_estimate(self, state, hand: int, contract) -> float:
        R = state.R
        est = 0.0
        for s, smask in enumerate(R.suit_masks):
            cards = sorted(bits(hand & smask), key=lambda i: R.order_of[i], reverse=True)
            n = len(cards)
            if not n:
                continue
            top = len(bits(smask)) - 1
            for depth, c in enumerate(cards[:3]):
                gap = top - R.order_of[c]
                if gap <= depth and n > depth:
                    est += 1.0 if gap == 0 else 0.6
            if s == contract.trump:
                est += max(0, n - 3) * 0.9 + 0.3 * min(n, 3)
        hand_size = R.rs.hand_size
        return min(est, hand_size)

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

    def can_make(self, state, hand, contract) -> float:
        """A margin: positive when the hand looks good enough for the contract."""
        made = goal_profile(state, contract)
        if not made:
            return -99
        total = state.R.rs.hand_size
        if made == {0}:
            return 1.6 - self.low_estimate(state, hand, contract) + self.boldness
        lo = min(made)
        if lo == total:
            return self.tricks_estimate(state, hand, contract) - total + 0.5 + self.boldness
        return self.tricks_estimate(state, hand, contract) - lo + 2.2 + self.boldness

    # ---- choosing ----------------------------------------------------------------------------------
    def choose(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return getattr(self, "_" + state.phase, self._any)(state, legal)

    def _any(self, state, legal):
        return legal[self.rng.randrange(len(legal))]

    def _auction(self, state, legal):
        me = state.to_act
        hand = state.hands[me]
        R = state.R
        best, best_margin = None, None
        for a in legal:
            kind = A.kind_of(a)
            if kind == A.BID:
                call = R.calls[A.arg_of(a)]
                names = call.contracts or []
                margin = max((self.can_make(state, hand, R.contracts[n]) for n in names), default=-99)
                margin -= 0.05 * call.rank
            elif kind == A.REVEAL:
                margin = self.can_make(state, hand, R.contracts[R.contract_names[A.arg_of(a)]]) + 0.5
            elif kind == A.HOLD:
                names = state.high_call.contracts if state.high_call else []
                margin = max((self.can_make(state, hand, R.contracts[n]) for n in names), default=-99) + 0.1
            else:
                continue
            if margin > 0 and (best_margin is None or margin > best_margin - 0.3 and A.kind_of(a) == A.HOLD or margin > best_margin):
                best, best_margin = a, margin
        if best is not None:
            return best
        passes = [a for a in legal if A.kind_of(a) == A.PASS]
        if passes:
            return passes[0]
        return min(legal, key=lambda a: self._cost(state, a))

    def _cost(self, state, a):
        R = state.R
        if A.kind_of(a) == A.REVEAL:
            return R.contracts[R.contract_names[A.arg_of(a)]].rank
        return 0

    def _talon(self, state, legal):
        return self._discard(state, legal)

    def _discard(self, state, legal):
        R = state.R
        con = state.con
        def badness(a):
            score = 0.0
            for c in bits(A.arg_of(a)):
                suit = R.suit_of[c]
                score -= R.order_of[c] * 1.0 + (5 if con is not None and suit == con.trump else 0)
                score += 2.0 / (1 + bin(state.hands[state.to_act] & R.suit_masks[suit]).count("1"))
            return score
        return max(legal, key=badness)

    def _contract(self, state, legal):
        R = state.R
        hand = state.hands[state.to_act]

        def value(a):
            if A.kind_of(a) == A.DECLARE:
                con = R.contracts[R.contract_names[A.arg_of(a)]]
                return self.can_make(state, hand, con) - 0.01 * con.rank
            return self.tricks_estimate(state, hand, R.with_trump(state.con, A.arg_of(a)))
        return max(legal, key=value)

    def _after_purchase(self, state, legal):
        if state.ap_stage == "ask":
            return A.make(A.AFTER, 0)
        if state.ap_stage == "discard":
            return self._discard(state, legal)
        return legal[0]

    def _defence(self, state, legal):
        if state.defence_stage == "invite":
            return A.make(A.INVITE, 1)
        est = self.tricks_estimate(state, state.hands[state.to_act], state.con)
        return A.make(A.DEFEND, 0 if est >= 1.5 else 1)

    def _kontra(self, state, legal):
        """Say kontra only with a strong defending hand, answer only with a strong declaring hand,
        and never go past the second call of the chain."""
        words = [a for a in legal if A.arg_of(a) > 0]
        passes = [a for a in legal if A.arg_of(a) == 0]
        if not words or state.kontra_level >= 2:
            return passes[0] if passes else legal[0]
        est = self.tricks_estimate(state, state.hands[state.to_act], state.con)
        if state.to_act == state.declarer:
            strong = est >= 7.5
        else:
            strong = est >= 3.5
        return words[0] if strong else (passes[0] if passes else words[0])

    def _play(self, state, legal):
        if state.offer is not None:
            d = state.offer[1]
            fair = d >= 7 if state.to_act == state.declarer else d <= 7
            return A.make(A.NEGOTIATE, A.ACCEPT if fair else A.REFUSE)
        legal = [a for a in legal if A.kind_of(a) == A.PLAY]
        R = state.R
        con = state.con
        me = state.to_act
        made = goal_profile(state, con) if state.declarer is not None else set()
        wants_few = (me in state.declarers and made == {0}) or con.side == "nobody"
        if not state.trick:
            if wants_few:
                return min(legal, key=lambda c: (con.strength[c], self.rng.random()))
            return max(legal, key=lambda c: (R.order_of[c], self.rng.random()))
        win_seat, win_card = state.play.win
        winners = [c for c in legal if c in bits(con.beaters[win_card])]
        partner_wins = (win_seat in state.defenders) == (me in state.defenders) and state.declarer is not None
        if wants_few:
            losers = [c for c in legal if c not in winners]
            pool = losers or legal
            return max(pool, key=lambda c: con.strength[c])
        if winners and not partner_wins:
            return min(winners, key=lambda c: con.strength[c])
        return min(legal, key=lambda c: con.strength[c])
