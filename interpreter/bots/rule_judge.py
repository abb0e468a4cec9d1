"""Judging a hand for the rule-based bot (bots/rule.py): which trick counts make a contract's goal, how
many tricks a hand should take under a trump, how likely it is to take none, and the margins a call is
judged by. Kept per rule set and hand, bounded, since the search bot judges many sampled hands."""
from __future__ import annotations

import re

from interpreter.bots import rule_play
from interpreter.engine import sides
from interpreter.engine.cards import bits
from interpreter.engine.phases.play import own_play
from interpreter.engine.phases.talon import procedure_under


def goal_profile(state, contract) -> set[int]:
    """The declarer trick counts for which `contract`'s goal holds (trick-based goals only)."""
    key = ("profile", contract.name)
    cache = state.R.__dict__.setdefault("_bot_cache", {})
    if key in cache:
        return cache[key]
    total = state.R.rs.hand_size
    probe = state.clone()
    probe.given_up = False                  # the goal itself: nothing declared that decides the game
    probe.announce = type(probe.announce)()
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
        won = own_play(probe).tricks_won = [0] * probe.n
        for i, s in enumerate(side):
            won[s] = k // len(side) + (1 if i < k % len(side) else 0)
        others = [s for s in probe.active if s not in side]
        rest = total - k
        for i, s in enumerate(others):
            won[s] = rest // len(others) + (1 if i < rest % len(others) else 0)
        try:
            if contract.goal(probe.ctx()):
                made.add(k)
        except Exception:  # a goal that needs more than tricks: treat as unknown
            made = set(range(total + 1))
            break
    cache[key] = made
    return made


POINTS, ZERO, EXACT, ALL, AT_LEAST = range(5)   # the kinds of goal can_make tells apart
_WORD = re.compile(r"[A-Za-z_]\w*")
_POINTS_CALL = re.compile(r"\bpoints\(")


def reads_points(R, contract) -> bool:
    """Whether the contract's goal reads card points (`points(…)`), itself or through the lets it uses;
    kept per rule set and contract."""
    memo = R.__dict__.setdefault("_bot_reads_points", {})
    got = memo.get(contract.name)
    if got is None:
        lets = R.rs.game.lets
        texts = [str(contract.ref.rec.get("goal") or "")]
        seen: set[str] = set()
        got = False
        while texts and not got:
            text = texts.pop()
            got = bool(_POINTS_CALL.search(text))
            for word in _WORD.findall(text):
                if word in lets and word not in seen:
                    seen.add(word)
                    body = lets[word]
                    texts.append(str(body.get("body") if isinstance(body, dict) else body))
        memo[contract.name] = got
    return got


def goal_kind(state, contract) -> tuple[int, int]:
    """(kind, lowest trick count) of `contract`'s goal as goal_profile gives it: POINTS (not decided by
    trick counts), ZERO (no trick), EXACT (one count, not all), ALL (every trick) or AT_LEAST (more); read off
    goal_profile once per rule set and contract (a handful)."""
    kinds = state.R.__dict__.setdefault("_bot_goal_kinds", {})
    got = kinds.get(contract.name)
    if got is None:
        made = goal_profile(state, contract)
        total = state.R.rs.hand_size
        lo = min(made) if made else 0
        if not made:
            got = (POINTS, 0)
        elif made == {0}:
            got = (ZERO, 0)
        elif len(made) == 1 and lo < total:
            got = (EXACT, lo)
        else:
            got = (ALL if lo == total else AT_LEAST, lo)
        kinds[contract.name] = got
    return got


def contract_entry(state, contract, call=None) -> tuple:
    """What can_make reads of `contract` bid with `call` (None: the contract's own talon procedure):
    (contract, goal kind, trump, lowest trick count, the talon exchange procedure or None); kept per rule
    set, contract and call (a handful)."""
    entries = state.R.__dict__.setdefault("_bot_entries", {})
    key = (contract.name, call.name if call is not None else None)
    got = entries.get(key)
    if got is None:
        kind, lo = goal_kind(state, contract)
        name = getattr(call, "talon", None) or contract.talon
        proc = state.R.talons.get(name) if name else None
        if proc is not None and proc.kind != "exchange":
            proc = None
        got = entries[key] = (contract, kind, contract.trump, lo, proc)
    return got


def call_entries(state, call, by_call: bool = True) -> tuple:
    """contract_entry for each contract of `call`, bid with it (`by_call`) or held (its contracts' own
    talon procedures); kept per rule set and call."""
    entries = state.R.__dict__.setdefault("_bot_call_entries", {})
    key = (call.name, by_call)
    got = entries.get(key)
    if got is None:
        R = state.R
        got = entries[key] = tuple(contract_entry(state, R.contracts[n], call if by_call else None)
                                   for n in call.contracts or ())
    return got


_TALON_HELP = {"halves": 0.5, "exchange": 1.0, "defenders": -1.8}   # what the talon's procedure brings


def talon_help(R, proc, seats: int) -> float:
    """What a talon procedure brings the declarer's side (in tricks): a fixed amount by its kind. A talon in
    packets (`halves`) brings it when one packet is half the talon; a smaller packet brings less, and a talon
    put aside (nobody's) is a packet of no card: for each card fewer than half, a card's share of a trick
    (1 / the seats playing) for the exchange, again for the discard that counts for the declarer's side
    (`discards = declarer`), and again for the card the declarer's side does not count (unless the talon
    left is its own, `rest = declarer`)."""
    if proc is None:
        return 0.0
    if proc.kind == "aside" or proc.kind == "halves" and proc.packets > 2:
        talon = R.rs.talon_size
        fewer = talon / 2 - (talon / proc.packets if proc.kind == "halves" else 0)
        per_card = 1 + (proc.discards_to == "declarer") + (proc.rest_to != "declarer")
        return _TALON_HELP["halves"] - fewer * per_card / seats
    return _TALON_HELP.get(proc.kind, 0.0)


# The slack of a goal of at least so many tricks, calibrated on the built-in games with ten cards or more
# in a hand; a deal of fewer cards gets a share (at_least_slack).
AT_LEAST_SLACK = 2.2
SLACK_HAND = 10


class HandJudge:
    """The hand-judging half of the rule-based bot: margins for its calls, from its hand alone."""

    zero_bar = 0.6          # the chance of taking no trick at which a contract that wants none is worth bidding
    boldness = 0.0          # added to every margin (RuleBot sets its own)
    def tricks_estimate(self, state, hand: int, contract) -> float:
        R = state.R
        cache = R.__dict__.get("_bot_estimates")
        if cache is None:
            cache = R.__dict__["_bot_estimates"] = {}
        ranked = contract.ranking is not None      # judged by the suits its ranking makes (rule_play)
        key = (hand, contract.trump, contract.ranking) if ranked else (hand, contract.trump)
        got = cache.get(key)
        if got is None:
            if len(cache) > 200_000:            # bounded: the search bot judges many sampled hands
                cache.clear()
            got = cache[key] = (rule_play.ranked_estimate(R, hand, contract) if ranked
                                else self._tricks_estimate(R, hand, contract))
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
        holdings = R.__dict__.get("_bot_suit_holdings")
        if holdings is None:                    # per suit: its part by the cards the hand holds in it
            holdings = R.__dict__["_bot_suit_holdings"] = [{} for _ in R.suit_masks]
        parts = []
        for smask, memo in zip(R.suit_masks, holdings):
            held = hand & smask
            part = memo.get(held)
            if part is None:
                if len(memo) > 200_000:         # bounded, as below
                    memo.clear()
                part = memo[held] = HandJudge._suit_part(R, smask, held)
            parts.append(part)
        if len(cache) > 200_000:                # bounded: the search bot judges many sampled hands
            cache.clear()
        got = cache[hand] = tuple(parts)
        return got

    @staticmethod
    def _suit_part(R, smask: int, held: int) -> tuple:
        """(the cards held in the suit, what its top cards add) for `held`, the hand's cards in the suit."""
        cards = sorted(bits(held), key=lambda i: R.order_of[i], reverse=True)
        n = len(cards)
        top = len(bits(smask)) - 1
        tops = []
        for depth, c in enumerate(cards[:3]):
            gap = top - R.order_of[c]
            if gap <= depth and n > depth:
                tops.append(1.0 if gap == 0 else 0.6)
        return n, tuple(tops)

    def low_estimate(self, state, hand, contract) -> float:
        """How many tricks the hand is likely to be forced to take (for contracts wanting few)."""
        R = state.R
        holdings = R.__dict__.get("_bot_low_holdings")
        if holdings is None:                    # per suit: what its cards add, by the cards the hand holds
            holdings = R.__dict__["_bot_low_holdings"] = [{} for _ in R.suit_masks]
        risk = 0.0
        for smask, memo in zip(R.suit_masks, holdings):
            held = hand & smask
            adds = memo.get(held)
            if adds is None:
                if len(memo) > 200_000:         # bounded: the search bot judges many sampled hands
                    memo.clear()
                adds = memo[held] = self._low_adds(R, smask, held)
            for add in adds:                    # one by one, in the same order: the same float
                risk += add
        return risk

    @staticmethod
    def _low_adds(R, smask: int, held: int) -> tuple[float, ...]:
        """What the cards `held` in a suit add to low_estimate's risk, in order."""
        adds = []
        cards = bits(held)
        size = len(bits(smask))
        for c in cards:
            o = R.order_of[c]
            if o >= size - 3:
                adds.append(0.9)
            elif o >= size - 5:
                adds.append(0.3)
        if cards and min(R.order_of[c] for c in cards) >= 2:
            adds.append(0.5)
        return tuple(adds)

    def zero_risks(self, state, hand: int) -> dict[int, float]:
        return rule_play.zero_risks(state, hand)

    def zero_chance(self, state, hand: int, take: int = 0, discard: int = 0) -> float:
        return rule_play.zero_chance(state, hand, take, discard)

    def can_make(self, state, hand, contract, call=None) -> float:
        """A margin: positive when the hand looks good enough for the contract (bid by `call`, when
        the talon procedure is the call's)."""
        return self.best_margin(state, hand, (contract_entry(state, contract, call),))

    def best_margin(self, state, hand: int, entries: tuple) -> float:
        """The best of can_make's margins for the contracts of `entries` (call_entries, contract_entry),
        the first of equal ones; -99 for none. The margin before boldness depends on the hand, the seats
        playing and, for a goal on tricks, the trump, the goal's kind and lowest count and (wanting none)
        the talon exchange still ahead only; for a goal on points, the contract and the talon procedure
        of the final call: so it is kept per rule set."""
        margins = state.R.__dict__.get("_bot_margins")
        if margins is None:
            margins = state.R.__dict__["_bot_margins"] = {}
        seats = len(state.active)
        best = None
        key: tuple
        for contract, kind, trump, lo, proc in entries:
            if kind == POINTS:
                final = state.final_call            # its talon procedure, if any, rules (procedure_under)
                key = (hand, contract.name, seats, final.talon if final is not None else None)
                points = margins.get(key)
                if points is None:
                    if len(margins) > 200_000:  # bounded: the search bot judges many sampled hands
                        margins.clear()
                    points = margins[key] = self._points_margin(state, hand, contract)
                margin = points[0] + self.boldness if points[1] else points[0]
            else:
                take = discard = 0
                if kind == ZERO:
                    if proc is not None and state.phase == "auction":     # the exchange still ahead
                        take = proc.take if proc.take is not None else len(state.talon)
                        discard = proc.discard if proc.discard is not None else take
                    key = (hand, seats, take, discard, self.zero_bar)
                else:
                    key = (hand, kind, trump, lo, seats)
                got = margins.get(key)
                if got is None:
                    if len(margins) > 200_000:  # bounded: the search bot judges many sampled hands
                        margins.clear()
                    got = margins[key] = self._tricks_margin(state, hand, contract, kind, lo, take, discard)
                margin = got + self.boldness
            if best is None or margin > best:
                best = margin
        return -99 if best is None else best

    def _tricks_margin(self, state, hand, contract, kind: int, lo: int, take: int, discard: int) -> float:
        if kind == ZERO:
            return 5.0 * (self.zero_chance(state, hand, take, discard) - self.zero_bar)
        if kind == EXACT:                       # an exact number of tricks: enough, and no more than the
            forced = rule_play.forced_tricks(state, hand)         # tricks the ladder expects it forced to take
            return min(self.tricks_estimate(state, hand, contract) - lo + 1.0, lo - forced)
        if kind == ALL:
            return self.tricks_estimate(state, hand, contract) - lo + 0.5
        return self.tricks_estimate(state, hand, contract) - lo + self.at_least_slack(state.R)

    @staticmethod
    def at_least_slack(R) -> float:
        """What a goal of at least so many tricks allows beyond the hand's estimate (the tricks the estimate
        does not see: long cards, a partner's share, the play): AT_LEAST_SLACK for a deal of SLACK_HAND
        cards or more, for fewer a share of it by the square of their part of ten (five cards leave less
        unseen than ten: a quarter; calibrated on a five-card game's rule bots, whose contracts were made a third
        of the time with the whole slack and 73% with a quarter)."""
        return AT_LEAST_SLACK * min(1.0, R.rs.hand_size / SLACK_HAND) ** 2

    def _points_margin(self, state, hand, contract) -> tuple[float, bool]:
        """A goal on card points (not decided by trick counts): the declaring side must take about half
        the tricks; a called partner brings his share, the talon helps by its procedure; a figure the
        contract must declare needs its card in hand. All against all is a fallback, never a wish.
        (The margin before boldness, whether boldness is added.)"""
        plans = state.R.__dict__.get("_bot_points_plans")
        if plans is None:
            plans = state.R.__dict__["_bot_points_plans"] = {}
        key = (contract.name, len(state.active))
        plan = plans.get(key)
        if plan is None:
            plan = plans[key] = self._points_plan(state, contract)
        fixed, cards, risk, need = plan
        if fixed is not None:
            return fixed, False
        if hand & cards != cards:
            return -99, False
        proc = procedure_under(state, contract)
        return self.tricks_estimate(state, hand, contract) - need - 0.3 - risk + talon_help(state.R, proc, len(state.active)), True

    @staticmethod
    def _points_plan(state, contract) -> tuple:
        """What _points_margin reads of a contract, worked out once per rule set, contract and number of
        seats playing: (a fixed answer or None, the cards of the figures it must declare as a card mask,
        their risk, the tricks the declaring side needs)."""
        if contract.side == "nobody":
            return -0.5, 0, 0.0, 0.0
        rec = contract.ref.rec
        if not reads_points(state.R, contract):
            return -99, 0, 0.0, 0.0
        R = state.R
        risk = 0.0
        cards = 0
        for fig in rec.get("must_declare") or ():
            f = getattr(R, "figures", {}).get(fig)
            if f is not None and f.card >= 0:
                cards |= 1 << f.card
            risk += 1.5                         # a figure promised besides the game
        total = R.rs.hand_size
        need = total / 2 - (total / len(state.active) if contract.side == "called" else 0)
        return None, cards, risk, need
