"""Oh Hell, the game of numeric bids: the number_bids phase, hands by deal number (deal.hand), the
turned-up trump (deal.turn_up, turned_up, suit_of), the checks that guard them, and the bots."""
from __future__ import annotations

import json
import random
import statistics

import pytest

from interpreter import load
from interpreter.cli import main
from interpreter.engine import IllegalAction, new_game
from interpreter.engine import actions as A
from interpreter.engine.deals import DealError, validate_deal
from interpreter.engine.rules import compile_rules
from interpreter.engine.session import Session
from interpreter.harness.runner import play_session


@pytest.fixture(scope="module")
def rs():
    return load("oh-hell")


def play_random(state, seed=0):
    rng = random.Random(seed)
    while not state.is_over():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def test_the_hand_grows_to_the_top_and_shrinks_back_and_the_game_then_ends(rs):
    sess = Session(rs, {"top": 3})
    sizes = []
    rng = random.Random(4)
    while not sess.ended:
        st = sess.start(rng=rng)
        sizes.append(bin(st.hands[1]).count("1"))
        assert all(bin(st.hands[s]).count("1") == sizes[-1] for s in range(4))
        assert len(st.talon) == 52 - 4 * sizes[-1]
        play_random(st, len(sizes))
        assert sum(st.play.tricks_won) == sizes[-1]
        sess.finish(st)
        assert len(sizes) < 10
    assert sizes == [1, 2, 3, 2, 1]


def _sizes(rs, options):
    sess = Session(rs, options)
    sizes = []
    rng = random.Random(4)
    while not sess.ended and len(sizes) < 30:
        st = sess.start(rng=rng)
        sizes.append(bin(st.hands[1]).count("1"))
        sess.finish(play_random(st, len(sizes)))
    return sizes


@pytest.mark.rules("OHH-DEAL-02", "OHH-VAR-02")
def test_pagats_falling_sequence_and_a_table_that_plays_only_one_half(rs, tmp_path):
    assert _sizes(rs, {"top": 4, "sequence": "falling"}) == [4, 3, 2, 1, 2, 3, 4]
    half = tmp_path / "rising-only.stw"           # the custom: only the rising half, by the session's end
    half.write_text('extends "oh-hell"\ntitle = "Oh Hell, rising only"\nsession { ends = round == top - 1 }\n',
                    encoding="utf-8")
    assert _sizes(load(str(half)), {"top": 4}) == [1, 2, 3, 4]


def test_the_turned_up_card_names_trumps_and_a_full_deal_has_none(rs):
    st = new_game(rs, seed=3, options={"top": 13}, deal_number=4)
    turned = st.R.codes[st.talon[0]]
    assert st.trump == turned[-1]
    assert st.observation(2)["turned_up"] == turned
    full = new_game(rs, seed=3, options={"top": 13}, deal_number=12)
    assert all(bin(h).count("1") == 13 for h in full.hands) and full.talon == []
    assert full.trump is None and "turned_up" not in full.observation(0)


def test_the_dealer_may_never_make_the_bids_add_up(rs):
    for seed in range(40):
        st = new_game(rs, seed=seed, deal_number=seed % 19, dealer=seed % 4)
        first = (st.dealer + 1) % 4
        assert st.current_player() == first
        while st.phase == "number_bids":
            legal = st.legal_actions()
            assert all(A.kind_of(a) == A.NUMBER for a in legal)
            st.apply(legal[seed % len(legal)])
        total = bin(st.dealt_hands[0]).count("1")
        assert sum(st.number_bids) != total
        assert st.phase == "play" and st.current_player() == first


def test_an_exact_bid_scores_ten_plus_the_tricks_and_a_miss_nothing(rs):
    for seed in range(10):
        st = play_random(new_game(rs, seed=seed, deal_number=5), seed)
        for s in range(4):
            exact = st.play.tricks_won[s] == st.number_bids[s]
            assert st.accounts["score"][s] == (10 + st.play.tricks_won[s] if exact else 0)


def test_a_number_outside_the_bids_is_refused(rs):
    st = new_game(rs, seed=1, deal_number=0)
    with pytest.raises(IllegalAction):
        st.apply(A.make(A.NUMBER, 2))        # one card each: 2 tricks cannot be bid


def test_an_explicit_deal_must_have_the_hand_of_its_deal_number(rs):
    R = compile_rules(rs)
    cards = [c.code for c in rs.cards]
    hands = [cards[0:2], cards[2:4], cards[4:6], cards[6:8]]
    validate_deal(R, hands, cards[8:], 0, deal_number=1)
    with pytest.raises(DealError, match="the rules deal 1 in deal 1"):
        validate_deal(R, hands, cards[8:], 0, deal_number=0)


def test_the_rule_bot_bids_and_scores_better_than_random_bots(rs):
    def mean(kind):
        return statistics.mean(sum(play_session(rs, {}, 7, i, 40, kind)[1].values()) for i in range(6))
    rule, rnd = mean("rule"), mean("random")
    assert rule > 2 * rnd, (rule, rnd)


def test_rule_bots_make_their_bids_far_more_often_than_random_bots(rs):
    from interpreter.harness.runner import play_one

    def exact(kind):
        states = [play_one(rs, {}, 11, i, kind)[0] for i in range(120)]
        return sum(st.play.tricks_won[s] == st.number_bids[s] for st in states for s in range(4)) / (4 * len(states))
    rule, rnd = exact("rule"), exact("random")
    assert rule > 0.4 and rule > 1.8 * rnd, (rule, rnd)


def test_a_simulate_log_of_later_deals_replays(tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    assert main(["simulate", "oh-hell", "--deals", "6", "--log", str(log)]) == 0
    sizes = [len(json.loads(line)["hands"][0]) for line in log.read_text().splitlines()]
    assert sizes == [1, 2, 3, 4, 5, 6]
    assert main(["replay", str(log)]) == 0
    assert "replayed 6 deals" in capsys.readouterr().out


@pytest.mark.parametrize("old,new,code,message", [
    ("  contract = round_played", "  contract = round_plyed", "E301", "unknown contract 'round_plyed'"),
    ("  contract = round_played", "", "E306", "name no contract"),
    ("  trump = suit_of(turned_up)", "  trump = turned_up", "E402", "must give a suit"),
    ("  hand = top - abs(round - (top - 1))", "  hand = tricks(forehand)", "E402", "cannot read forehand, tricks"),
    ("  hand = top - abs(round - (top - 1))", "  hand = number_bid(dealer) > 1", "E402", "must be a number"),
])
def test_mistakes_in_the_number_bids_and_the_deal_are_located(tmp_path, capsys, old, new, code, message):
    from interpreter.resources import builtin_games

    text = builtin_games()["oh-hell"].read_text()
    lines = [line for line in text.splitlines() if line.split("#")[0].rstrip() != old]
    assert len(lines) == len(text.splitlines()) - 1
    index = next(i for i, line in enumerate(text.splitlines()) if line.split("#")[0].rstrip() == old)
    if new:
        lines.insert(index, new)
    bad = tmp_path / "bad.stw"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert code in out and message in out and "bad.stw:" in out


def test_the_search_bots_sampled_worlds_keep_the_hand_size_and_the_turned_up_card(rs):
    from interpreter.bots.sampler import Sampler
    from interpreter.bots.view import seat_view

    st = new_game(rs, seed=8, deal_number=4)
    st.apply(st.legal_actions()[0])
    sampler = Sampler(seat_view(st, 2))
    worlds = [w for w in (sampler.sample(random.Random(k)) for k in range(20)) if w is not None]
    assert len(worlds) >= 15
    for w in worlds:
        assert w.talon[0] == st.talon[0] and w.trump == st.trump
        assert [bin(h).count("1") for h in w.hands] == [5, 5, 5, 5]
        assert w.hands[2] == st.hands[2] and w.number_bids == st.number_bids


@pytest.mark.slow
def test_the_search_bot_makes_its_bid_more_often_than_the_rule_bot(rs):
    from interpreter.harness.runner import play_one

    def rate(kind):
        states = [play_one(rs, {}, 5, i, kind)[0] for i in range(3, 30)]
        return sum(st.play.tricks_won[0] == st.number_bids[0] for st in states) / len(states)
    assert rate("search,rule,rule,rule") >= rate("rule") + 0.15


@pytest.mark.filterwarnings("ignore:Observation")
def test_the_game_ai_adapters_play_oh_hell():
    import pyspiel
    from pettingzoo.test import api_test

    import interpreter.adapters.openspiel_game  # noqa: F401  (registers python_stichwort)
    from interpreter.adapters.pettingzoo_env import env

    game = pyspiel.load_game("python_stichwort", {"rules": "oh-hell"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    api_test(env("oh-hell", seed=1), num_cycles=200)
