"""The rule bot: seeded, and knowing no game by name, it reads each contract's goal by trying it on
trick counts, and judges its hand from card ranks and the trump suit (bots/rule_judge.py), its card play
from tables kept per rule set and contract (bots/rule_play.py), and in a partnership game with
invitation calls its bidding from bots/invitations.py."""
from __future__ import annotations

import random

from interpreter.bots import invitations, passing, rule_levels, rule_play, rule_strains
from interpreter.bots.rule_judge import HandJudge, call_entries, goal_profile
from interpreter.engine import actions as A
from interpreter.engine import sides
from interpreter.engine.cards import bits

_PLAYS_FROM, _PLAYS_TO = A.make(A.PLAY), A.make(A.PLAY + 1)     # the actions of kind PLAY lie between


def _stance(state, con, me: int) -> tuple[bool, bool]:
    """How seat `me` plays `con`: whether it wants few tricks (rule_play.wants_few), and whether it defends
    a contract that wants none (rule_play.against_zero). Kept on the contract (a handful of answers) by all
    the rest they read: whether a seat declares and whether `me` is on the declaring side."""
    declarer = state.declarer
    key = (declarer is None, me in state.declarers)
    stances = con.__dict__.get("_bot_stances")
    if stances is None:
        stances = con.__dict__["_bot_stances"] = {}
    got = stances.get(key)
    if got is None:
        made = goal_profile(state, con) if declarer is not None else set()
        got = stances[key] = (rule_play.wants_few(state, me, made),
                              made == {0} and not key[1] and declarer is not None)
    return got


class RuleBot(HandJudge):
    """Bids what its hand can make, discards its weakest cards, defends when it can take tricks,
    and plays sensibly: win cheaply when it wants tricks, duck when it wants none."""

    go_bar = 1.5            # the tricks a defender expects before going along
    kontra_help = 1.0       # the tricks a defender counts on from its partner when judging a kontra
    rank_pull = 0.3         # how much a safe margin leans to a higher-ranked (better-paid) contract
    rekontra_bar = 1.5      # the tricks over its goal a declarer wants before doubling back
    fallback_cost = 1.0     # how much worse than its margin says an all-against-all fallback is, for a forced call

    def __init__(self, seed=0, boldness=0.0):
        self.rng = random.Random(seed)
        self.boldness = boldness

    # ---- choosing ----------------------------------------------------------------------------------
    def choose(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if legal[0] >> A.SHIFT == A.CHOOSE:         # a decision (`choice`): its phase has the choice's name
            return rule_levels.choose_option(self, state, legal)
        return getattr(self, "_" + state.phase, self._any)(state, legal)

    def _any(self, state, legal):
        return legal[self.rng.randrange(len(legal))]

    def _auction(self, state, legal):
        chosen = invitations.choose(self, state, legal)     # partnership games with invitation calls
        if chosen is None:
            chosen = rule_strains.choose(self, state, legal)    # bids of levels and strains (a ladder with strains)
        if chosen is not None:
            return chosen
        hand = state.hands[state.to_act]
        best, best_margin = None, None
        for a in legal:
            margin = self._call_margin(state, hand, a)
            if margin is None:
                continue
            if margin > 0 and (best_margin is None or margin > best_margin - 0.3 and A.kind_of(a) == A.HOLD or margin > best_margin):
                best, best_margin = a, margin
        if best is not None:
            return best
        passes = [a for a in legal if A.kind_of(a) == A.PASS]
        if passes:
            return passes[0]
        return self._forced(state, hand, legal)

    def _forced(self, state, hand: int, legal: list[int]) -> int:
        """No pass, and no call worth making: the cheapest call, unless it is the all-against-all fallback
        (every contract of it has no declaring side) and another call looks better for the hand than that."""
        first = min(legal, key=lambda a: self._cost(state, a))
        R = state.R
        if A.kind_of(first) != A.BID:
            return first
        call = R.calls[A.arg_of(first)]
        if not call.contracts or any(R.contracts[n].side != "nobody" for n in call.contracts):
            return first
        fallback = self._call_margin(state, hand, first)
        best, best_margin = first, (fallback if fallback is not None else 0.0) - self.fallback_cost
        for a in legal:
            margin = self._call_margin(state, hand, a)
            if a != first and margin is not None and margin > best_margin:
                best, best_margin = a, margin
        return best

    def passes(self, state) -> bool:
        """Whether the bot passes at this turn of the auction, as choose() decides, without valuing every
        call once one is worth making (a sampler reads only whether a seat's call shows strength)."""
        legal = state.legal_actions()
        if len(legal) > 1:
            chosen = invitations.choose(self, state, legal)
            if chosen is None:
                chosen = rule_strains.choose(self, state, legal)
            if chosen is not None:
                return A.kind_of(chosen) == A.PASS
            hand = state.hands[state.to_act]
            for a in legal:
                margin = self._call_margin(state, hand, a)
                if margin is not None and margin > 0:
                    return False                # a call worth making is made
            return any(A.kind_of(a) == A.PASS for a in legal)
        return bool(legal) and A.kind_of(legal[0]) == A.PASS

    def _call_margin(self, state, hand: int, a: int) -> float | None:
        """How good the call `a` is for the hand (above 0: worth making); None for a pass."""
        R = state.R
        kind = a >> A.SHIFT
        if kind == A.BID:
            call = R.calls[a & A.ARG]
            margin = (self.best_margin(state, hand, call_entries(state, call)) - 0.05 * call.rank
                      + rule_levels.talon_help(state, call, self, hand))
            if margin > 0 and not rule_levels.worth(self, state, hand, call):     # a level the game is not worth
                return -99
            return margin
        if kind == A.REVEAL:
            return self.can_make(state, hand, R.contracts[R.contract_names[a & A.ARG]]) + 0.5
        if kind == A.HOLD:
            high = state.auction.high_call
            entries = call_entries(state, high, by_call=False) if high else ()
            margin = self.best_margin(state, hand, entries) + 0.1
            if margin > 0 and not rule_levels.worth(self, state, hand, high):
                return -99
            return margin
        return None

    def _cost(self, state, a):
        R = state.R
        if A.kind_of(a) == A.REVEAL:
            return R.contracts[R.contract_names[A.arg_of(a)]].rank
        return 0


    # ---- the knock, the partner call and the talon's choices (engine/phases/knock, partner, talon) -----
    def _knock(self, state, legal):
        """Cut rather than knock; after a knock, take the first pile still there."""
        return A.make(A.KNOCK, 0) if A.make(A.KNOCK, 0) in legal else legal[0]

    def _partner(self, state, legal):
        """Call "the fourth" when allowed; else a card of the group the hand does not hold, in the suit
        where the hand holds the most card points (then the most cards); its own only when it must."""
        R = state.R
        hand = state.hands[state.to_act]
        fourth = [a for a in legal if A.arg_of(a) >= 1 << 20]
        if fourth:
            return fourth[0]

        whole = rule_play.card_points(R)[1]

        def value(a):
            c = A.arg_of(a)
            suit = R.suit_masks[R.suit_of[c]]
            held = hand & suit
            pts = sum([whole[i] for i in bits(held)])
            return (not hand >> c & 1, pts, held.bit_count(), -c)
        return max(legal, key=value)

    def _card_worth(self, state, c) -> float:
        """How much a card helps the hand: trumps by rank, kings and matadors most, court cards some."""
        return rule_play.card_worths(state)[c]

    def _talon(self, state, legal):
        tl = state.talon_state
        hand = state.hands[state.to_act]
        if tl.stage == "give_up":
            con = state.con
            trumps = bin(hand & con.trump_mask).count("1") if con is not None else 0
            return A.make(A.GIVE_UP, 0 if trumps >= 8 else 1)
        if tl.stage == "choose":
            worth = rule_play.card_worths(state)
            return max(legal, key=lambda a: (sum([worth[c] for c in bits(tl.packets[A.arg_of(a)])]), -A.arg_of(a)))
        if all(A.arg_of(a).bit_count() == 1 for a in legal):
            return self._discard_one(state, legal)
        return self._discard(state, legal)

    def _discard_one(self, state, legal):
        """Discard card by card: points banked from short suits first (a void helps), trumps last."""
        R = state.R
        hand = state.hands[state.to_act]
        con = state.con
        trump = con.trump if con is not None else None
        suit_of, order_of, points = R.suit_of, R.order_of, rule_play.card_points(R)[0]
        lengths = [(hand & m).bit_count() for m in R.suit_masks]

        def score(a):
            c = A.arg_of(a).bit_length() - 1
            suit = suit_of[c]
            if suit == trump:
                return -100.0 - order_of[c]
            return points[c] + 4.0 / lengths[suit]
        return max(legal, key=score)

    def _plan(self, state):
        """The contract the seat to act plays for: the one fixed, else its best among those left to name."""
        if state.con is not None or not getattr(state, "choices", None):
            return state.con
        hand = state.hands[state.to_act]
        R = state.R
        return max((R.contracts[n] for n in state.choices), key=lambda c: self.can_make(state, hand, c))

    def _discard(self, state, legal):
        R = state.R
        con = state.con
        plan = self._plan(state) if state.to_act == state.declarer else None
        if plan is not None and goal_profile(state, plan) == {0}:
            # a contract that wants no tricks: lay away the cards most likely to be forced to take one
            def risk(a):
                left = state.hands[state.to_act] & ~A.arg_of(a)
                return self.zero_chance(state, left)
            return max(legal, key=risk)
        # per card what it costs to lay away (its rank, more for a trump), and per suit what a shorter suit gains
        cost = rule_play.discard_costs(R, con)
        hand = state.hands[state.to_act]
        gain = [2.0 / (1 + (hand & m).bit_count()) for m in R.suit_masks]
        suit_of = R.suit_of

        def badness(a):
            score = 0.0
            for c in bits(A.arg_of(a)):
                score -= cost[c]
                score += gain[suit_of[c]]
            return score
        return max(legal, key=badness)

    def _contract(self, state, legal):
        R = state.R
        hand = state.hands[state.to_act]

        def value(a):
            if A.kind_of(a) == A.DECLARE:
                con = R.contracts[R.contract_names[A.arg_of(a)]]
                margin = self.can_make(state, hand, con)
                return margin + (self.rank_pull * con.rank if margin > 1.0 else -0.01 * con.rank)
            return self.tricks_estimate(state, hand, R.with_trump(state.con, A.arg_of(a)))
        return max(legal, key=value)

    def _number_bids(self, state, legal):
        """State the number of tricks the hand looks good for (the contract's trump counted); when that
        number is barred, the nearest allowed one."""
        hand = state.hands[state.to_act]
        est = self.tricks_estimate(state, hand, state.con) if state.con is not None else 0.0
        want = int(est + 0.5 + self.boldness)
        return min(legal, key=lambda a: (abs(A.arg_of(a) - want), A.arg_of(a), self.rng.random()))

    def _pass_cards(self, state, legal):
        """Pass the cards most likely to take a trick or cost points (bots/passing.py)."""
        return passing.choose(state, legal)

    def _after_purchase(self, state, legal):
        if state.after_purchase.stage == "ask":
            return A.make(A.AFTER, 0)
        if state.after_purchase.stage == "discard":
            return self._discard(state, legal)
        return legal[0]

    def _defence(self, state, legal):
        if state.defence.stage == "invite":
            return A.make(A.INVITE, 1)
        est = self.tricks_estimate(state, state.hands[state.to_act], state.con)
        return A.make(A.DEFEND, 0 if est >= self.go_bar else 1)

    def _kontra(self, state, legal):
        """Kontra when the declarer is likely to fail: a defender doubles when its own tricks and its
        partner's likely share reach what beats the contract; the declarer answers only when well over
        its goal. Against a contract that wants no tricks, only a hand that takes no trick is trusted.
        Never past the second call of the chain."""
        words = [a for a in legal if A.arg_of(a) > 0]
        passes = [a for a in legal if A.arg_of(a) == 0]
        if not words or state.kontra.level >= 2:
            return passes[0] if passes else legal[0]
        return words[0] if self.kontra_sense(state) or not passes else passes[0]

    def kontra_sense(self, state) -> bool:
        """Whether the seat to act should double (or, as the declarer, double back) the contract."""
        me = state.to_act
        hand = state.hands[me]
        con = state.con
        made = goal_profile(state, con)
        if not made:
            return False
        total = state.R.rs.hand_size
        if me in state.declarers or me == state.declarer:
            if made == {0}:
                return self.zero_chance(state, hand) >= 0.85
            return self.tricks_estimate(state, hand, con) - min(made) >= self.rekontra_bar
        if made == {0}:
            return False
        need = total - min(made) + 1          # defence tricks that beat it
        return self.tricks_estimate(state, hand, con) >= need - self.kontra_help

    def _announce(self, state, legal):
        """The declaration round: declare a figure made with a card only when holding that card with a
        long trump suit; say kontra on the game with a strong defending hand, answer it with a strong
        declaring hand, never past the second call, and leave the other side's figures alone."""
        from interpreter.engine.phases.announce import DONE, GAME_CODE, end_of_turn, unpack

        R = state.R
        me = state.to_act
        hand = state.hands[me]
        con = state.con
        trumps = bin(hand & con.trump_mask).count("1") if con is not None else 0
        for a in legal:
            kind, arg = A.kind_of(a), A.arg_of(a)
            if kind == A.ANNOUNCE and 0 < arg < DONE:
                fig = R.announce.figures[arg - 1]
                if fig.card >= 0 and hand >> fig.card & 1 and trumps >= 9 and not fig.multiplier:
                    return a
            elif kind == A.ITEM_KONTRA:
                code, level, _other = unpack(arg)
                if code != GAME_CODE or level > 2:
                    continue
                est = self.tricks_estimate(state, hand, con)
                if level == 1 and est >= 5.5 or level == 2 and est >= 6.5:
                    return a
        return end_of_turn(state)

    def _play_to_number(self, state, legal):
        """After number bids: while short of the number it stated, take the trick as cheaply as it can
        (lead its strongest card); once there, duck (lead its weakest, play the highest card that loses)."""
        me = state.to_act
        strength = state.con.strength
        plays = [a for a in legal if _PLAYS_FROM <= a < _PLAYS_TO]       # the cards (kind PLAY)
        short = state.play.tricks_won[me] < state.number_bids[me]
        if not state.trick:
            pick = max if short else min
            rand = self.rng.random          # one draw per card, in order (ties are broken by them)
            return pick(plays, key=lambda c: (strength[c], rand()))
        beats = state.con.beaters[state.win[1]]
        if short:
            winners = [c for c in plays if beats >> c & 1]
            return min(winners or plays, key=strength.__getitem__)
        losers = [c for c in plays if not beats >> c & 1]
        return max(losers or plays, key=strength.__getitem__)

    def _play(self, state, legal):
        offer = state.play.offer
        if offer is None and state.number_bids and state.number_bids[state.to_act] is not None:
            return self._play_to_number(state, legal)
        if offer is not None:
            d = offer[1]
            fair = d >= 7 if state.to_act == state.declarer else d <= 7
            return A.make(A.NEGOTIATE, A.ACCEPT if fair else A.REFUSE)
        legal = [a for a in legal if _PLAYS_FROM <= a < _PLAYS_TO]      # the cards (kind PLAY)
        con = state.con
        me = state.to_act
        wants_few, against_zero = _stance(state, con, me)
        if against_zero:
            return rule_play.against_zero(state, legal, self.rng)
        strength = con.strength
        if not state.trick:
            if wants_few:
                rand = self.rng.random          # one draw per card, in order (ties are broken by them)
                return min(legal, key=lambda c: (strength[c], rand()))
            return rule_play.lead(state, legal)
        win_seat, win_card = state.win
        beats = con.beaters[win_card]
        if wants_few:
            losers = [c for c in legal if not beats >> c & 1]
            if len(losers) == 1:
                return losers[0]
            if losers:      # the highest card that still loses; out of the suit, the one most likely to be caught later
                risks = self.zero_risks(state, state.hands[me])
                suit_of = con.suit_of       # the suits as the contract's ranking sees them
                win_suit = suit_of[win_card]
                return max(losers, key=lambda c: (suit_of[c] != win_suit and risks.get(c, 0.0), strength[c]))
            return min(legal, key=strength.__getitem__)
        winners = [c for c in legal if beats >> c & 1]
        if winners:
            # the sides as this seat knows them: a hidden partner is not known to the others (engine/sides.py)
            known = sides.known_to(state, me)
            if (win_seat in known) != (me in known) or state.declarer is None:      # the other side wins
                return min(winners, key=strength.__getitem__)
        return min(legal, key=strength.__getitem__)
