"""The rule bot's card play works from tables kept per rule set, contract and hand (engine/rule_play.py):
every choice is the one the plain computation makes (written out here as it was before the tables), the
cards of a suit in an order that is not that of their indices are sorted, and the memos are bounded."""
from __future__ import annotations

import random
from fractions import Fraction
from types import SimpleNamespace

import pytest

from interpreter.bots import rule_play
from interpreter.bots.rule import RuleBot
from interpreter.bots.rule_judge import goal_profile
from interpreter.engine import actions as A
from interpreter.engine import sides
from interpreter.engine.cards import bits
from interpreter.harness.runner import play_one
from interpreter.pipeline import load

GAMES = ("wien", "koenigrufen", "priffe", "croatian", "simple")


# ---- the plain computations ------------------------------------------------------------------------
def plain_zero_risks(R, opponents: int, hand: int) -> dict[int, float]:
    risks: dict[int, float] = {}
    for smask in R.suit_masks:
        cards = sorted(bits(hand & smask), key=lambda c: R.order_of[c])
        size = bin(smask).count("1")
        for i, c in enumerate(cards):
            excess = R.order_of[c] - opponents * i
            risk = 0.0 if excess <= 0 else min(0.9, 0.22 * excess + 0.06)
            above = size - 1 - R.order_of[c] - (len(cards) - 1 - i)
            top = (0.7, 0.35, 0.12)[above] if above < 3 else 0.0
            risks[c] = max(risk, top)
    return risks


def plain_lead(state, legal):
    R, con, me = state.R, state.con, state.to_act
    hand = state.hands[me]
    gone = hand
    for m in state.play.won_cards:
        gone |= m
    out = ((1 << len(R.cards)) - 1) & ~gone
    trump_mask = con.trump_mask if con.trump >= 0 else 0

    def master(c):
        same = out & R.suit_masks[R.suit_of[c]]
        return not any(con.strength[o] > con.strength[c] for o in bits(same))

    trumps = [c for c in legal if (1 << c) & trump_mask]
    if me in state.declarers and trumps and out & trump_mask:
        top = max(trumps, key=lambda c: con.strength[c])
        if master(top):
            return top
    side = [c for c in legal if c not in trumps]
    cash = [c for c in side if master(c)]
    if cash:
        return max(cash, key=lambda c: (con.strength[c], -c))
    length = {s: bin(hand & m).count("1") for s, m in enumerate(R.suit_masks)}
    return min(side or legal, key=lambda c: (-length[R.suit_of[c]], con.strength[c], c))


def plain_against_zero(state, legal, rng):
    con = state.con
    if not state.trick:
        return min(legal, key=lambda c: (con.strength[c], rng.random()))
    win_seat, win_card = state.win
    under = [c for c in legal if not (1 << c) & con.beaters[win_card]]
    if win_seat in state.declarers and under:
        return max(under, key=lambda c: con.strength[c])
    if not any(s in state.declarers for s, _c in state.trick):
        return min(legal, key=lambda c: con.strength[c])
    return max(under or legal, key=lambda c: con.strength[c]) if state.to_act is not None else legal[0]


def plain_play(state, legal, rng):
    legal = [a for a in legal if A.kind_of(a) == A.PLAY]
    R, con, me = state.R, state.con, state.to_act
    made = goal_profile(state, con) if state.declarer is not None else set()
    few = rule_play.wants_few(state, me, made)
    if made == {0} and me not in state.declarers and state.declarer is not None:
        return plain_against_zero(state, legal, rng)
    if not state.trick:
        if few:
            return min(legal, key=lambda c: (con.strength[c], rng.random()))
        return plain_lead(state, legal)
    win_seat, win_card = state.win
    winners = [c for c in legal if c in bits(con.beaters[win_card])]
    known = sides.known_to(state, me)
    partner_wins = (win_seat in known) == (me in known) and state.declarer is not None
    if few:
        losers = [c for c in legal if c not in winners]
        if losers:
            risks = plain_zero_risks(R, max(1, len(state.active) - 1), state.hands[me])
            return max(losers, key=lambda c: (R.suit_of[c] != R.suit_of[win_card] and risks.get(c, 0.0),
                                              con.strength[c]))
        return min(legal, key=lambda c: con.strength[c])
    if winners and not partner_wins:
        return min(winners, key=lambda c: con.strength[c])
    return min(legal, key=lambda c: con.strength[c])


def plain_talon(bot, state, legal):
    """The talon's choices that read card points, ranks and risks (a packet, card-by-card discards, a discard)."""
    R, con = state.R, state.con
    hand = state.hands[state.to_act]

    def worth(c):
        trump = con is not None and con.trump >= 0 and R.suit_of[c] == con.trump
        return (6.0 + 0.3 * R.order_of[c] if trump else 0.0) + float(R.cards[c].points) * 0.8

    if state.talon_state.stage == "choose":
        packets = state.talon_state.packets
        return max(legal, key=lambda a: (sum(worth(c) for c in bits(packets[A.arg_of(a)])), -A.arg_of(a)))
    if all(bin(A.arg_of(a)).count("1") == 1 for a in legal):
        def score(a):
            c = A.arg_of(a).bit_length() - 1
            suit = R.suit_of[c]
            if con is not None and suit == con.trump:
                return -100.0 - R.order_of[c]
            return float(R.cards[c].points) + 4.0 / bin(hand & R.suit_masks[suit]).count("1")
        return max(legal, key=score)

    plan = bot._plan(state) if state.to_act == state.declarer else None
    if plan is not None and goal_profile(state, plan) == {0}:
        def chance(a):
            p = 1.0
            for risk in sorted(plain_zero_risks(R, max(1, len(state.active) - 1), hand & ~A.arg_of(a)).values(),
                               reverse=True):
                p *= 1.0 - risk
            return p
        return max(legal, key=chance)

    def badness(a):
        score = 0.0
        for c in bits(A.arg_of(a)):
            suit = R.suit_of[c]
            score -= R.order_of[c] * 1.0 + (5 if con is not None and suit == con.trump else 0)
            score += 2.0 / (1 + bin(hand & R.suit_masks[suit]).count("1"))
        return score
    return max(legal, key=badness)


def plain_partner(state, legal):
    R = state.R
    hand = state.hands[state.to_act]
    fourth = [a for a in legal if A.arg_of(a) >= 1 << 20]
    if fourth:
        return fourth[0]

    def value(a):
        c = A.arg_of(a)
        held = hand & R.suit_masks[R.suit_of[c]]
        return (not hand >> c & 1, sum(R.cards[i].points for i in bits(held)), bin(held).count("1"), -c)
    return max(legal, key=value)


# ---- the bot's choices are the plain ones ------------------------------------------------------------
class CheckedBot(RuleBot):
    """A rule bot that, before each card play and talon or partner choice, works out the plain answer
    (from a copy of its random draws) and counts the choices compared."""

    def __init__(self, seed, seen: list):
        super().__init__(seed)
        self.seen = seen

    def choose(self, state):
        legal = state.legal_actions()
        want = None
        numbered = state.number_bids and state.number_bids[state.to_act] is not None
        if len(legal) > 1 and state.phase == "play" and state.play.offer is None and not numbered:
            copy = random.Random()
            copy.setstate(self.rng.getstate())
            want = plain_play(state, legal, copy)
        elif len(legal) > 1 and state.phase == "partner":
            want = plain_partner(state, legal)
        elif len(legal) > 1 and state.phase == "talon" and state.talon_state.stage != "give_up":
            want = plain_talon(self, state, legal)
        got = super().choose(state)
        if want is not None:
            assert got == want, (state.phase, state.log)
            self.seen.append(state.phase)
        return got


@pytest.mark.parametrize("game", GAMES)
def test_the_choices_are_the_plain_ones(game, monkeypatch):
    rs = load(game)
    seen: list[str] = []
    monkeypatch.setattr("interpreter.harness.runner._bot", lambda kind, seed, seat=0: CheckedBot(seed, seen))
    for i in range(16):
        play_one(rs, {}, 7, i)
    assert seen.count("play") > 50


def test_zero_risks_are_the_plain_ones():
    for game in GAMES:
        rs = load(game)
        state, _start = play_one(rs, {}, 3, 0)
        R = state.R
        opponents = max(1, len(state.active) - 1)
        rng = random.Random(game)
        for _ in range(300):
            hand = rng.getrandbits(len(R.cards)) & rng.getrandbits(len(R.cards))
            got = rule_play.zero_risks(state, hand)
            assert got == plain_zero_risks(R, opponents, hand)
            assert list(got) == list(plain_zero_risks(R, opponents, hand))      # in the same order (sums)


def fake_rules(orders: list[int]) -> SimpleNamespace:
    """A one-suit rule set whose card orders are `orders` (by card index)."""
    n = len(orders)
    return SimpleNamespace(suit_masks=[(1 << n) - 1], order_of=orders, suit_of=[0] * n)


def test_a_suit_ranked_against_its_card_indices_is_sorted():
    R = fake_rules([3, 0, 4, 1, 2, 5])
    state = SimpleNamespace(R=R, active=(0, 1, 2))
    assert rule_play._suit_orders(R)[0][1] == [1, 3, 4, 0, 2, 5]
    for hand in range(1, 1 << 6):
        assert list(rule_play.zero_risks(state, hand).items()) == list(plain_zero_risks(R, 2, hand).items())
    in_order = fake_rules(list(range(6)))
    assert rule_play._suit_orders(in_order)[0][1] is None         # cards in index order: no sorting needed


def test_the_zero_risk_memos_are_bounded():
    R = fake_rules([0, 1, 2, 3])
    state = SimpleNamespace(R=R, active=(0, 1))
    rule_play.zero_risks(state, 0b11)
    parts = R.__dict__["_bot_suit_risks"]
    hands = R.__dict__["_bot_zero_risks"]
    for k in range(200_001):
        parts[("x", k)] = hands[("x", k)] = {}
    assert rule_play.zero_risks(state, 0b101) == plain_zero_risks(R, 1, 0b101)
    assert len(parts) == 1 and len(hands) == 1


def test_card_points_compare_as_the_points_do():
    R = SimpleNamespace(cards=[SimpleNamespace(points=Fraction(p)) for p in (3, 2.5, 4, 0.5)])
    floats, whole = rule_play.card_points(R)
    assert floats == [3.0, 2.5, 4.0, 0.5]
    assert whole == [6, 5, 8, 1]
