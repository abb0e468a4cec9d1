"""Schafkopf (games/schafkopf): who plays with whom, the deal thrown in, the declarer searching his own called
ace, and the order of the Obers and Unters among themselves, run on games/schafkopf/schafkopf.stw under both
engines. The scores are in the scenario files of games/schafkopf/scenarios."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.session import Session
from tests.helpers import act, legal_texts

A, B, C, D = 0, 1, 2, 3
# D deals: A is forehand. A holds QC QS and the Gras-7; C holds the Gras-Sau (AS).
HANDS = {A: ["QC", "QS", "JC", "JH", "AH", "10H", "7S", "9D"],
         B: ["QH", "JD", "8H", "7H", "10S", "9S", "KC", "9C"],
         C: ["AS", "KS", "QD", "JS", "KH", "9H", "AC", "10C"],
         D: ["AD", "10D", "KD", "8D", "7D", "8S", "8C", "7C"]}


def start(hands=HANDS, dealer: int = D, name: str = "schafkopf"):
    return new_game(load(name), deal={"hands": [hands[s] for s in (A, B, C, D)], "talon": []}, dealer=dealer)


def announce(st, declarer: int, call: str, *then: str) -> None:
    while st.phase == "auction":
        act(st, call if st.to_act == declarer else "weiter")
    for t in then:
        act(st, t)
    while st.phase != "play":
        act(st, "weiter")                     # no Stoß


def play(st, *cards: str) -> None:
    for c in cards:
        act(st, f"play {c}")


def tricks(st) -> list[int]:
    return [st.observation(A)["tricks"][s] for s in (A, B, C, D)]


@pytest.mark.rules("SCHAF-SEAT-01", "SCHAF-CON-01")
def test_the_game_announced_makes_the_partnership_or_none(engine):
    st = start()
    announce(st, A, "bid sauspiel", "call AS")
    assert set(st.declarers) == {A, C} and set(st.defenders) == {B, D}      # two against two: the ace's holder
    st = start()
    announce(st, A, "bid wenz")
    assert list(st.declarers) == [A] and set(st.defenders) == {B, C, D}     # one against three
    st = start()
    announce(st, C, "bid solo", "trump S")
    assert list(st.declarers) == [C] and set(st.defenders) == {A, B, D}
    # from deal to deal: the first player who may play a Sauspiel plays one, with whoever holds the ace he calls
    partners = set()
    sess = Session(load("schafkopf"), {}, dealer=D)
    rng = random.Random(11)
    for _ in range(12):
        st = sess.start(rng=rng)
        while st.phase == "auction":
            act(st, "bid sauspiel" if "bid sauspiel" in legal_texts(st) and st.declarer is None else "weiter")
        while not st.is_over():
            st.apply(rng.choice(st.legal_actions()))
        if st.result()["contract"] == "sauspiel":
            ace = st.R.rs.codes(1 << st.called_card)[0] if isinstance(st.called_card, int) else str(st.called_card)
            holder = next(s for s in range(4) if ace in st.R.rs.codes(st.dealt_hands[s]))
            assert set(st.declarers) == {st.declarer, holder}
            partners.add(frozenset(st.declarers))
        sess.finish(st)
    assert len(partners) >= 2


@pytest.mark.rules("SCHAF-BID-06", "SCHAF-SEAT-03", "SCHAF-SESS-02")
def test_when_everyone_says_weiter_the_cards_are_thrown_in_and_the_next_dealer_deals(engine):
    sess = Session(load("schafkopf"), {}, dealer=D)
    rng = random.Random(6)
    st = sess.start(rng=rng)
    for seat in (A, B, C, D):
        assert st.to_act == seat
        act(st, "weiter")
    assert st.is_over() and st.all_passed and st.result()["contract"] is None
    assert set(st.result()["tricks"].values()) == {0} and set(st.result()["payments"].values()) == {0}
    sess.finish(st)
    st = sess.start(rng=rng)
    assert st.dealer == A and st.to_act == B                       # clockwise: A deals, B is forehand


@pytest.mark.rules("SCHAF-CALL-11", "SCHAF-CALL-06")
def test_the_declarer_may_lead_the_called_suit_himself_to_search_the_ace(engine):
    st = start()
    announce(st, A, "bid sauspiel", "call AS")
    assert st.to_act == A and "play 7S" in legal_texts(st)          # at the first trick
    play(st, "7S", "9S")
    assert legal_texts(st) == {"play AS"}                           # C must play the ace: the ace is searched
    play(st, "AS", "8S")
    assert tricks(st) == [0, 0, 1, 0]
    # or later, at any trick he leads
    st = start()
    announce(st, A, "bid sauspiel", "call AS")
    play(st, "QC", "QH", "QD", "7D")                                # A wins with the Eichel-Ober
    assert st.to_act == A and "play 7S" in legal_texts(st)
    play(st, "7S", "10S")
    assert legal_texts(st) == {"play AS"}


# A and B hold every Ober and Unter between them (and the Herz), C and D none: each trick below is A's card
# against B's, C and D throwing off whatever they may
ORDER_1 = {A: ["QC", "QH", "JC", "JH", "AH", "KH", "8H", "7S"], B: ["QS", "QD", "JS", "JD", "10H", "9H", "7H", "9D"],
           C: ["AS", "KS", "10S", "9S", "8S", "AC", "10C", "KC"], D: ["AD", "10D", "KD", "8D", "7D", "9C", "8C", "7C"]}
ORDER_2 = {A: ["QS", "QD", "JS", "JD", "AH", "KH", "8H", "7S"], B: ["QC", "QH", "JC", "JH", "10H", "9H", "7H", "9D"],
           C: ORDER_1[C], D: ORDER_1[D]}


def duel(st, a_card: str, b_card: str) -> int:
    """A leads a_card, B answers b_card, C and D play their first legal card: who won the trick."""
    assert st.to_act == A
    before = tricks(st)
    play(st, a_card, b_card)
    for _ in (C, D):
        st.apply(st.legal_actions()[0])
    return next(s for s in (A, B, C, D) if tricks(st)[s] > before[s])


@pytest.mark.rules("SCHAF-DECK-03", "SCHAF-ORD-01", "SCHAF-ORD-04")
@pytest.mark.parametrize("game", ["sauspiel", "wenz"])
def test_obers_and_unters_rank_eichel_gras_herz_schellen(engine, game):
    # the catalog's order, highest first: QC QS QH QD, and JC JS JH JD; each pair next to each other is played
    # out, A's card the higher one each time, so A wins every trick
    first = [("QH", "QD"), ("QC", "QS"), ("JH", "JD"), ("JC", "JS")]
    second = [("QS", "QH"), ("JS", "JH")]
    if game == "wenz":                            # only the Unters are trumps: the Obers are plain cards
        first, second = [("JH", "JD"), ("JC", "JS")], [("JS", "JH")]
    for hands, pairs in ((ORDER_1, first), (ORDER_2, second)):
        st = start(hands)
        if game == "sauspiel":
            announce(st, A, "bid sauspiel", "call AS")
        else:
            announce(st, D, "bid wenz")
        for higher, lower in pairs:
            assert duel(st, higher, lower) == A, (game, higher, lower)
