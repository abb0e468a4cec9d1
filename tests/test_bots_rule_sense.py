"""The rule bot's sense in the games that landed later: goals of a partnership read on the side's tricks,
contracts whose goal is an upper bound (or that nobody declares and that want few tricks) played by
ducking, exact-number contracts judged on the ladder, a king called that the hand does not hold, and
per-deal values of a game played in sits."""
from __future__ import annotations

import pytest

from interpreter.bots import rule_play
from interpreter.bots.rule import RuleBot, goal_profile
from interpreter.bots.value import deal_values
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.pipeline import load


@pytest.fixture(scope="module")
def priffe():
    return load("priffe")


@pytest.fixture(scope="module")
def koenigrufen():
    return load("koenigrufen")


def _mask(rs, codes: str) -> int:
    m = 0
    for c in codes.split():
        m |= 1 << rs.card_index[c]
    return m


def test_a_partnership_goal_counts_the_sides_tricks(priffe):
    st = new_game(priffe, seed=1)
    kinds = {n: c.ref.rec.get("kind") for n, c in st.R.contracts.items() if c.side == "partnership"}
    assert kinds
    for name, kind in kinds.items():
        made = goal_profile(st, st.R.contracts[name])
        # 13 stick: a positive contract needs seven of them for the side, a negative one at most six
        assert made == (set(range(7, 14)) if kind == "positive" else set(range(0, 7))), name


def _ducks(priffe, upper_bound: bool) -> int:
    """Play rule-bot deals; whenever a seat that wants few tricks follows and could lose the trick, it
    must play a card that loses. Returns how many such choices were checked."""
    checked = 0
    for seed in range(300):
        st = new_game(priffe, seed=seed, dealer=seed % 4)
        bots = [RuleBot(f"{seed}:{s}") for s in range(4)]
        while not st.is_over():
            me = st.current_player()
            a = bots[me].choose(st)
            if st.phase == "play" and st.trick and A.kind_of(a) == A.PLAY:
                con = st.con
                wanted = (st.declarer is not None) == upper_bound
                made = goal_profile(st, con) if st.declarer is not None else set()
                if wanted and rule_play.wants_few(st, me, made):
                    beats = con.beaters[st.win[1]]
                    legal = [x for x in st.legal_actions() if A.kind_of(x) == A.PLAY]
                    if any(not (1 << x) & beats for x in legal):
                        assert not (1 << a) & beats, (seed, con.name, st.action_text(a))
                        checked += 1
            st.apply_unchecked(a)
        if checked >= 40:
            break
    return checked


def test_a_contract_with_an_upper_bound_is_played_low(priffe):
    """The declaring side of a contract that allows at most some tricks, and its defenders (who must make
    the declarers exceed it), lay a card that loses the trick whenever they have one."""
    assert _ducks(priffe, upper_bound=True) >= 40


def test_a_contract_nobody_declares_that_wants_few_is_played_low(priffe):
    assert _ducks(priffe, upper_bound=False) >= 40


def test_exact_contracts_are_judged_on_the_ladder(koenigrufen):
    """Exactly one trick: a hand of low cards with one master may bid it; a hand of middle trumps, which
    the ladder expects to be forced to take many tricks, may not."""
    st = new_game(koenigrufen, seed=1)
    bot = RuleBot(0)
    one = next(c for c in st.R.contracts.values() if goal_profile(st, c) == {1})
    low = _mask(koenigrufen, "SK T1 T2 T3 7C 8C 7S 8S 4D 3D 4H 3H")
    middle = _mask(koenigrufen, "T8 T9 T10 T11 T12 T13 T14 T15 KC KS QD QH")
    assert bot.can_make(st, low, one) > 0 > bot.can_make(st, middle, one)


def test_the_king_called_is_one_the_hand_does_not_hold(koenigrufen):
    calls = 0
    for seed in range(200):
        st = new_game(koenigrufen, seed=seed, dealer=seed % 4)
        bots = [RuleBot(f"{seed}:{s}") for s in range(4)]
        while not st.is_over() and st.phase not in ("talon", "announce", "play"):
            me = st.current_player()
            a = bots[me].choose(st)
            if st.phase == "partner" and len(st.legal_actions()) > 1:
                options = [x for x in st.legal_actions() if A.arg_of(x) < 1 << 20]
                not_held = [x for x in options if not st.hands[me] >> A.arg_of(x) & 1]
                if not_held and len(options) == len(st.legal_actions()):
                    assert a in not_held, st.action_text(a)
                    calls += 1
            st.apply_unchecked(a)
        if calls >= 10:
            return
    pytest.fail(f"only {calls} king calls in 200 deals")


def test_a_deal_in_a_game_played_in_sits_has_a_value(priffe):
    """The running sit is closed before the result is read, so a deal's points reach the value; partners
    get the same value and their opponents the opposite."""
    moved = 0
    for seed in range(20):
        st = new_game(priffe, seed=seed, dealer=seed % 4)
        start = st.clone()
        bots = [RuleBot(s) for s in range(4)]
        while not st.is_over():
            st.apply_unchecked(bots[st.current_player()].choose(st))
        v = deal_values(start, st)
        assert v[0] == v[2] and v[1] == v[3] and v[0] == -v[1]
        moved += v[0] != 0
    assert moved >= 10


@pytest.mark.parametrize("name", ["wien", "croatian", "simple", "koenigrufen", "priffe", "wien-4", "koenigrufen-5"])
def test_passes_answers_as_choose_decides(name):
    """RuleBot.passes (what the sampler asks of its model) is whether choose() passes, at every turn of
    the auction of many deals, whatever was called before."""
    import random

    rs = load(name)
    rng = random.Random(7)
    asked = passed = 0
    for seed in range(40):
        st = new_game(rs, seed=seed, dealer=seed % rs.seats)
        bot = RuleBot(seed)
        while not st.is_over() and st.phase != "play":
            legal = st.legal_actions()
            if st.phase == "auction" and len(legal) > 1:
                chosen = bot.choose(st)
                assert bot.passes(st) == (A.kind_of(chosen) == A.PASS), (name, seed, st.action_text(chosen))
                asked += 1
                passed += A.kind_of(chosen) == A.PASS
            st.apply(legal[rng.randrange(len(legal))])       # random calls: every kind of auction is met
    assert asked > 40 and 0 < passed < asked                 # both answers were checked
