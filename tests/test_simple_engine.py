"""Simple Préférence played through the engine (games/simple/simple.stw against
../shared/rules/simple-preference.md): the defenders' alliance, the declarer's lead and payment only
after all ten tricks. Explicit hands; seats in the order of play, A = 0 deals, so B = 1 is forehand and
C = 2 middlehand. The file-level tests and the payment formulas are in tests/test_simple_rules.py."""
from __future__ import annotations

from fractions import Fraction

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.text import parse

A, B, C = 0, 1, 2          # A deals; B is forehand, C middlehand


@pytest.fixture(scope="module")
def rs():
    return load("simple")


def act(state, *texts: str) -> None:
    for text in texts:
        state.apply(parse(state, text))


def trick(state, *codes: str) -> int:
    n = len(state.play.history)
    for code in codes:
        act(state, "play " + code)
    assert len(state.play.history) == n + 1
    return state.play.history[-1][1]


# B holds six top hearts: Premium, made after six tricks, with four tricks still to play.
SIX = {
    "hands": [
        ["8H", "7H", "AC", "KC", "QC", "AS", "KS", "AD", "KD", "QD"],
        ["AH", "KH", "QH", "JH", "10H", "9H", "7C", "8C", "7S", "7D"],
        ["JC", "10C", "9C", "QS", "JS", "10S", "9S", "JD", "10D", "9D"],
    ],
    "talon": ["8S", "8D"],
}

# B holds five top hearts; A and C share the five other tricks between them.
FIVE = {
    "hands": [
        ["9H", "8H", "7H", "AC", "KC", "QC", "AS", "KS", "QD", "KD"],
        ["AH", "KH", "QH", "JH", "10H", "7C", "8C", "7S", "8S", "7D"],
        ["JC", "10C", "9C", "QS", "JS", "10S", "9S", "AD", "JD", "10D"],
    ],
    "talon": ["9D", "8D"],
}


def premium(rs, cards, *answers):
    state = new_game(rs, deal=cards, dealer=A)
    act(state, "bid premium", "pass", "pass", *answers)
    assert state.declarer == B and state.trump == "H"
    return state


@pytest.mark.rules("SIMPLE-DEF-01", "SIMPLE-CON-01")
def test_def_01_the_two_others_defend_together(rs):
    for bids, declarer in ((("bid game_c", "pass", "pass"), B), (("pass", "bid game_c", "pass"), C),
                           (("pass", "pass", "bid game_c"), A)):
        state = new_game(rs, deal=SIX, dealer=A)
        act(state, *bids)
        others = tuple(s for s in (A, B, C) if s != declarer)
        assert state.declarer == declarer and state.defenders == others
        assert state.opponents_of(declarer) == others
        assert all(state.opponents_of(s) == (declarer,) for s in others)   # not against each other
        asked = []
        while state.phase == "defence":
            asked.append(state.current_player())
            act(state, "go along")
        assert sorted(asked) == list(others)

    # together the two take five tricks, neither alone: the declarer has fallen
    state = premium(rs, FIVE, "go along", "go along")
    for cards, winner in ((("AH", "9S", "7H"), B), (("KH", "10S", "8H"), B), (("QH", "9C", "9H"), B),
                          (("JH", "10D", "KS"), B), (("10H", "JD", "KD"), B), (("7D", "AD", "QD"), C),
                          (("QS", "AS", "7S"), A), (("AC", "7C", "JC"), A), (("KC", "8C", "10C"), A),
                          (("QC", "8S", "JS"), A)):
        assert trick(state, *cards) == winner
    assert state.play.tricks_won == [4, 5, 1] and state.result()["made"] is False
    pay = state.result()["payments"]
    P = 10
    assert Fraction(pay[B]) == P - 2 * P - 5 * Fraction(P, 10) - 2 * 5   # pot, double back, 5 tricks, heart bonus
    assert Fraction(pay[A]) == 4 * Fraction(P, 10) + 5                    # four tricks and the heart bonus
    assert Fraction(pay[C]) == Fraction(P, 10) - P + 5                    # one trick: fallen once


@pytest.mark.rules("SIMPLE-PLAY-01", "SIMPLE-DEF-02")
def test_play_01_the_declarer_leads_when_one_or_both_go_along(rs):
    seen = set()
    for bids, declarer in ((("bid game_c", "pass", "pass"), B), (("pass", "bid game_c", "pass"), C),
                           (("pass", "pass", "bid game_c"), A)):
        for answers in (("go along", "go along"), ("go along", "stay home"), ("stay home", "go along")):
            state = new_game(rs, deal=SIX, dealer=A)
            act(state, *bids, *answers)
            assert state.phase == "play"
            assert state.current_player() == declarer, (declarer, answers)
            assert len(state.playing) == 1 + answers.count("go along")
            seen.add((declarer, len(state.playing)))
    assert {d for d, _ in seen} == {A, B, C}                       # not just forehand
    # both stay home: no cards are played at all
    state = new_game(rs, deal=SIX, dealer=A)
    act(state, "pass", "pass", "bid game_c", "stay home", "stay home")
    assert state.is_over() and state.play.history == []


@pytest.mark.rules("SIMPLE-SCORE-01", "SIMPLE-PLAY-07")
def test_score_01_paid_only_once_all_ten_tricks_are_played(rs):
    state = premium(rs, SIX, "go along", "go along")
    money = list(state.accounts["money"])
    pot = state.accounts["pot"]
    cards = [("AH", "9S", "7H"), ("KH", "10S", "8H"), ("QH", "9C", "AS"), ("JH", "JD", "KS"),
             ("10H", "10D", "AD"), ("9H", "9D", "KD")]
    for c in cards:
        assert trick(state, *c) == B
    assert state.play.tricks_won[B] == 6                                # made already: the play goes on
    for _ in range(4):
        assert not state.is_over() and state.payments == []
        assert state.accounts["money"] == money and state.accounts["pot"] == pot
        state.apply(state.legal_actions()[0])
        while state.trick:
            state.apply(state.legal_actions()[0])
    assert state.is_over() and len(state.play.history) == 10
    assert state.payments and state.accounts["money"] != money
    assert state.result()["made"] is True

    # the defence's fifth trick does not end it either
    state = premium(rs, FIVE, "go along", "go along")
    for c in (("7D", "AD", "QD"), ("QS", "AS", "7S"), ("AC", "7C", "JC"), ("KC", "8C", "10C"), ("KS", "8S", "JS")):
        trick(state, *c)
    assert state.play.tricks_won[A] + state.play.tricks_won[C] == 5
    assert not state.is_over() and state.payments == [] and len(state.play.history) == 5
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    assert len(state.play.history) == 10 and state.play.tricks_won[B] == 5 and state.payments
