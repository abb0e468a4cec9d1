"""Spades (games/spades): the deal, the turn to deal, and spades broken in the table game against OpenSpiel's form
(never broken). The scoring is in games/spades/scenarios; the agreement with OpenSpiel in test_conformance_games.py."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.session import Session

HANDS = {"A": ["AC", "KC", "QC", "AD", "KD", "QD", "2C", "2D", "2H", "3H", "4H", "5H", "AS"],
         "B": ["JC", "10C", "9C", "JD", "10D", "9D", "6H", "KS", "QS", "JS", "7H", "8H", "9H"],
         "C": ["8C", "7C", "6C", "8D", "7D", "6D", "10S", "9S", "8S", "7S", "6S", "10H", "JH"],
         "D": ["5C", "4C", "3C", "5D", "4D", "3D", "5S", "4S", "3S", "2S", "QH", "KH", "AH"]}


def _start(name: str):
    st = new_game(load(name), deal={"hands": [HANDS[s] for s in "ABCD"], "talon": []}, dealer=3)
    for _ in range(4):
        st.apply(next(a for a in st.legal_actions() if st.action_text(a) == "bid 1"))
    return st


def _play(st, *cards):
    for c in cards:
        st.apply(next(a for a in st.legal_actions() if st.action_text(a) == f"play {c}"))


def _leads(st):
    return sorted(st.action_text(a)[5:] for a in st.legal_actions())


@pytest.mark.rules("SPD-DEAL-01", "SPD-SEAT-03")
def test_thirteen_cards_each_and_the_deal_passes_to_the_left():
    rs = load("spades")
    sess = Session(rs, {})
    rng = random.Random(2)
    dealers = []
    for _ in range(3):
        st = sess.start(rng=rng)
        assert all(bin(h).count("1") == 13 for h in st.hands) and not st.talon
        dealers.append(st.dealer)
        assert st.current_player() == (st.dealer + 1) % 4          # the dealer's left bids first
        while not st.is_over():
            st.apply(st.legal_actions()[0])
        sess.finish(st)
    assert dealers == [dealers[0], (dealers[0] + 1) % 4, (dealers[0] + 2) % 4]


@pytest.mark.rules("SPD-PLAY-01", "SPD-PLAY-03")
def test_spades_are_led_once_broken_in_the_table_game():
    st = _start("spades")
    assert "AS" not in _leads(st) and st.current_player() == 0       # A leads; no spade lead at first
    _play(st, "AC", "9C", "6C", "3C", "KC", "10C", "7C", "4C", "QC", "JC", "8C", "5C")
    assert "AS" not in _leads(st)                                   # A still leads, spades not broken
    _play(st, "2C", "KS", "6S", "2S")                               # B trumps: spades are broken
    assert st.current_player() == 1 and {"QS", "JS"} <= set(_leads(st))


@pytest.mark.rules("SPD-OS-04")
def test_openspiels_spades_are_never_broken():
    st = _start("spades-openspiel")
    _play(st, "AC", "9C", "6C", "3C", "KC", "10C", "7C", "4C", "QC", "JC", "8C", "5C", "2C", "KS", "6S", "2S")
    assert st.current_player() == 1 and set(_leads(st)) == {"9D", "10D", "JD", "6H", "7H", "8H", "9H"}   # no spade


@pytest.mark.rules("SPD-VAR-01")
def test_blind_nil_is_not_offered_and_the_file_says_so():
    # SPD-VAR-01 is not written (no bid can be made before the cards are seen): the customs say so, and the
    # first bidder, who already holds his cards, is offered the bids 0 (nil) to 13 and nothing else
    rs = load("spades")
    assert any("SPD-VAR-01" in c and "not in this file" in c for c in rs.doc["customs"])
    st = _start_bidding()
    assert st.phase == "number_bids" and st.observation(0)["hand"]
    assert {st.action_text(a) for a in st.legal_actions()} == {f"bid {n}" for n in range(14)}


def _start_bidding():
    return new_game(load("spades"), deal={"hands": [HANDS[s] for s in "ABCD"], "talon": []}, dealer=3)


@pytest.mark.rules("SPD-OS-07")
@pytest.mark.parametrize("num_tricks", [1, 5, 13])
def test_openspiels_num_tricks_changes_no_rule(num_tricks):
    pyspiel = pytest.importorskip("pyspiel")
    from dataclasses import replace
    from pathlib import Path

    from interpreter.adapters.conformance import Pair, run
    from interpreter.adapters.conformance_map import load_mapping

    # the parameter is real: it sizes the observation …
    sizes = {pyspiel.load_game("spades", {"num_tricks": n}).observation_tensor_size() for n in (2, num_tricks)}
    assert len(sizes) == (1 if num_tricks == 2 else 2)
    # … and the rule file without any option plays move for move as OpenSpiel's game with it
    mapping = load_mapping(Path(__file__).resolve().parent.parent / "games" / "spades" / "openspiel.yml")
    default = next(c for c in mapping.configs if c.name == "default")
    config = replace(default, name=f"num_tricks={num_tricks}", params={"num_tricks": num_tricks})
    report = run(Pair(mapping, config), 20, seed=f"num-tricks-{num_tricks}")
    assert report.deals == 20 and not report.disagreements, report.disagreements[:1]
