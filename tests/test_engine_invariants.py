"""Random playouts of every Préférence-family rule file: the invariants that must hold at every step."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.bots.random_bot import RandomBot
from interpreter.bots.rule import RuleBot
from interpreter.engine import deal_cards, new_game
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from interpreter.engine.text import parse
from interpreter.resources import builtin_games


def preference_games():
    out = []
    for name in builtin_games():
        try:
            rs = load(name)
        except Exception:  # an invalid file is reported by the validation tests
            continue
        if rs.doc.get("family") == "preference":
            out.append(name)
    return out


GAMES = preference_games()


def places(st: State) -> list[int]:
    out = list(st.hands) + [st.discards] + list(st.play.won_cards)
    m = 0
    for c in st.talon:
        m |= 1 << c
    out.append(m)
    t = 0
    for _, c in st.trick:
        t |= 1 << c
    out.append(t)
    return out


def check_cards(st: State) -> None:
    seen = 0
    for m in places(st):
        assert seen & m == 0, "a card is in two places"
        seen |= m
    assert seen == st.R.full_mask, "a card is nowhere"


def playout(rs, seed: int, bot_kind: str):
    R = compile_rules(rs)
    rng = random.Random(seed)
    dealer = seed % R.n_seats
    hands, talon = deal_cards(R, rng, dealer)
    st = State(R, dealer, hands, talon)
    bots = [(RandomBot if bot_kind == "random" else RuleBot)(f"{seed}:{s}") for s in range(R.n_seats)]
    steps = 0
    while not st.is_over():
        check_cards(st)
        legal = st.legal_actions()
        assert legal, f"no legal action in phase {st.phase} but the deal is not over"
        assert st.current_player() in range(R.n_seats)
        st.apply(bots[st.current_player()].choose(st))
        steps += 1
        assert steps < 500, "the deal does not terminate"
    check_cards(st)
    assert st.legal_actions() == []
    assert st.current_player() == -1
    return st, (dealer, hands, talon)


@pytest.mark.rules("WIEN-DEAL-03", "WIEN-SESS-06", "WIEN-SCORE-04")
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bot_kind", ["random", "rule"])
def test_random_playouts_keep_invariants(name, bot_kind):
    rs = load(name)
    for seed in range(60):
        st, _ = playout(rs, seed, bot_kind)
        money = st.accounts["money"]
        assert sum(money) + st.accounts.get("pot", 0) == 0, "players plus pot must sum to zero"


@pytest.mark.parametrize("name", GAMES)
def test_replaying_the_log_reproduces_the_final_state(name):
    rs = load(name)
    for seed in range(25):
        st, (dealer, hands, talon) = playout(rs, seed, "random")
        texts = [(s, st.action_text(a)) for s, a in st.log]
        again = new_game(rs, deal={"hands": [rs.codes(h) for h in hands], "talon": [rs.cards[c].code for c in talon]},
                         dealer=dealer)
        for seat, text in texts:
            assert again.current_player() == seat
            again.apply(parse(again, text))
        assert again.is_over()
        assert again.result() == st.result()
        assert again.hands == st.hands and again.play.won_cards == st.play.won_cards


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_independent(name):
    rs = load(name)
    st = new_game(rs, seed=5)
    rng = random.Random(1)
    for _ in range(6):
        st.apply(rng.choice(st.legal_actions()))
    copy = st.clone()
    before = (list(st.hands), list(st.log), st.phase)
    while not copy.is_over():
        copy.apply(rng.choice(copy.legal_actions()))
    assert (list(st.hands), list(st.log), st.phase) == before


def test_observation_hides_other_hands():
    rs = load("wien")
    st = new_game(rs, seed=11)
    obs = st.observation(0)
    assert set(obs["hand"]) == set(rs.codes(st.hands[0]))
    assert "open_hands" not in obs
    text = repr(obs)
    for s in (1, 2):
        for code in rs.codes(st.hands[s]):
            assert f"'{code}'" not in text


def test_illegal_action_text_lists_the_legal_ones():
    rs = load("wien")
    st = new_game(rs, seed=3)
    with pytest.raises(ValueError) as err:
        parse(st, "bid nonsense")
    assert "legal:" in str(err.value) and "pass" in str(err.value)


@pytest.mark.rules("CRO-TAL-01", "CRO-VAR-05")
def test_an_exposed_talon_is_seen_by_everyone_a_hidden_one_by_nobody():
    from interpreter.engine.text import parse as act

    for name, shown in (("croatian", True), ("slovenian-hidden", False)):
        rs = load(name)
        st = new_game(rs, seed=4, dealer=2)
        talon = [rs.cards[c].code for c in st.talon]
        for text in ("bid two", "pass", "pass"):
            st.apply(act(st, text))
        assert st.phase == "talon"
        for seat in range(3):
            obs = st.observation(seat)
            assert (obs.get("talon") == talon) is shown
            if seat != st.declarer:
                assert "discards" not in obs
