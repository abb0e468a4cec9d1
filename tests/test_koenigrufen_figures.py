"""Königrufen's figures and counting through the engine: deals whose play is forced by the hands, played
to the end with legal actions, then judged by the rule file's figure goals (`achieved`) and paid by its
settlement; the count by threes; the session's deals one after another. Dealer seat 0, so forehand is
seat 1 and the order of play is 1, 2, 3, 0."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.context import Ctx
from interpreter.engine.session import Session
from interpreter.engine.text import parse

RS = load("koenigrufen")


def game(deal: dict):
    hands = [deal.get(s, "").split() for s in range(RS.seats)]
    return new_game(RS, deal={"hands": hands, "talon": deal["talon"].split()}, dealer=0)


def act(st, seat: int, *texts: str) -> None:
    for text in texts:
        assert st.current_player() == seat, (st.phase, st.current_player(), seat, text)
        st.apply(parse(st, text))


def legal(st) -> list[str]:
    return [st.action_text(a) for a in st.legal_actions()]


def play_out(st, lead_order: list[str]) -> None:
    """The declarer (1) leads `lead_order` card by card; every other seat plays its first legal card."""
    leads = list(lead_order)
    while not st.is_over():
        if st.current_player() == 1 and not st.trick:
            act(st, 1, "play " + leads.pop(0))
        else:
            st.apply(st.legal_actions()[0])


def made(st, side) -> set[str]:
    c = Ctx(st, cache={})
    f = st.R.compiler.text
    return {name for name in st.R.figures if f(f"achieved({name}, {side})")(c)}


# the declarer holds every high tarok and the three birds; nobody else can win a trick
BIRDS = {
    1: "SK T21 T20 T19 T18 T17 T16 T15 T14 T3 T2 T1",
    2: "KS QS KD QD CD JD 1D KH QH T4 T5 T6",
    3: "8S 9S 10S JS CS 3D 2D KC T7 T8 T9 T10",
    0: "QC CH JH 1H 2H 3H 4H 7S 4D T11 T12 T13",
    "talon": "7C 8C 9C 10C JC CC",
}


@pytest.mark.rules("KR-ANN-04", "KR-ANN-05", "KR-ANN-06", "KR-ANN-07", "KR-ANN-09", "KR-ANN-10", "KR-ANN-11",
                   "KR-ANN-12", "KR-ANN-13", "KR-SCORE-23", "KR-SCORE-29", "KR-SCORE-30", "KR-SCORE-34", "KR-SCORE-35")
def test_valat_with_the_three_birds_declared_and_made():
    st = game(BIRDS)
    act(st, 3, "cut")
    act(st, 1, "bid solodreier")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "declare kakadu", "declare uhu", "declare pagat_ultimo", "I am ready")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    assert "play T3" not in legal(st)                  # the birds wait for their tricks (KR-PLAY-22)
    play_out(st, ["SK", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T3", "T2", "T1"])
    assert st.tricks(1) == 12
    # the talon went to the opponents, so four kings and the points come only with the valat (KR-SCORE-29)
    assert made(st, "declarers") == {"valat", "trull", "four_kings", "grammeln", "grossgrammeln",
                                     "kakadu", "uhu", "pagat_ultimo"}
    assert made(st, "defenders") == set()
    # the game 8 × 4 for the silent valat; of the figures only the declared ones are paid, each doubled in
    # a solo game: (6 + 4 + 2) × 2 = 24; 32 + 24 = 56 from each opponent
    assert st.result()["payments"] == {0: -56, 1: 168, 2: -56, 3: -56}


# the declarer has twelve taroks and calls the king of hearts; his partner keeps it for the last trick
KING = {
    1: "SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11",
    2: "KH 7C 8C 9C 10C JC CC QC 7S 8S 9S 10S",
    3: "KC KS KD QD CD JD T1 T2 T3 T4 T5 T6",
    0: "QS CS JS 1D 2D 3D 4D T7 T8 T9 T10 QH",
    "talon": "CH JH 1H 2H 3H 4H",
}


@pytest.mark.rules("KR-ANN-08", "KR-AMB-11", "KR-AMB-10", "KR-SCORE-31", "KR-AMB-18", "KR-CON-17", "KR-SCORE-36")
def test_kung_ultimo_made_by_the_partners_king_in_a_trick_the_declarer_wins():
    st = game(KING)
    act(st, 3, "cut")
    act(st, 1, "bid solorufer")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "call KH")
    act(st, 1, "I am ready")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    leads = ["SK", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "T12", "T11"]
    while not st.is_over():
        seat = st.current_player()
        if seat == 1 and not st.trick:
            act(st, 1, "play " + leads.pop(0))
        elif seat == 2:                               # the partner keeps the king to the last
            options = legal(st)
            act(st, 2, next((t for t in options if t != "play KH"), "play KH"))
        else:
            st.apply(st.legal_actions()[0])
    last_trick, winner = st.play.history[-1]
    assert winner == 1 and (2, RS.card_index["KH"]) in last_trick   # the king did not win the trick
    assert {"kung_ultimo", "valat", "trull"} <= made(st, "declarers")
    # a silent valat in solorufer (2 × 4 = 8) against the silent figures, doubled in a solo game: trull,
    # four kings, grammeln, großgrammeln and kung ultimo, 5 × 2 = 10, more than the valat bonus 3 × 2 = 6:
    # the figures are paid with the game once, 2 + 10 = 12 from each opponent to one of the side
    assert st.result()["payments"] == {0: -12, 1: 12, 2: 12, 3: -12}


@pytest.mark.rules("KR-SCORE-03", "KR-SCORE-04", "KR-SCORE-07", "KR-DECK-10")
def test_the_count_by_threes_is_the_exact_count_rounded():
    st = game(BIRDS)
    f = st.R.compiler.text
    counted = [f(f"counted_tricks({n})")(Ctx(st)) for n in range(13)]
    assert counted == [0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16]
    for n in range(13):                              # n tricks of four cards: 4n blatt, rounded half up
        blatt = Fraction(4 * n, 3)
        assert counted[n] == int(blatt + Fraction(1, 2))


@pytest.mark.rules("KR-SESS-04", "KR-SESS-05", "KR-SESS-06", "KR-SESS-03")
def test_a_session_deals_anew_each_time_from_the_last_forehand():
    assert any("how long to play" in c for c in RS.doc["customs"])
    session = Session(RS, dealer=0)
    rng = random.Random(5)
    dealers, hands = [], []
    for _ in range(4):
        st = session.start(rng=rng)
        dealers.append(st.dealer)
        hands.append(tuple(st.hands))
        while not st.is_over():
            legal_now = st.legal_actions()
            st.apply(legal_now[rng.randrange(len(legal_now))])
        before = list(session.accounts["money"]) if session.accounts else [0, 0, 0, 0]
        session.finish(st)
        assert [session.accounts["money"][s] - before[s] for s in range(4)] == [st.result()["payments"][s] for s in range(4)]
    assert dealers == [0, 1, 2, 3]                   # forehand of a deal deals the next
    assert len(set(hands)) == 4                      # shuffled and dealt anew each time


# the declarer's pagat goes to the last trick, but C keeps a higher tarok for it; a king lies in the talon
PAGAT_LOST = {
    1: "SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T1 7S",
    3: "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 8S",
    2: "7C 8C 9C 10C JC CC QC KC 4D 3D 2D 1D",
    0: "JD CD QD KD 4H 3H 2H 1H JH CH QH KH",
    "talon": "9S 10S JS CS QS KS",
}


@pytest.mark.rules("KR-SCORE-38", "KR-SCORE-44", "KR-SCORE-37", "KR-ANN-09", "KR-TAL-09")
def test_a_declared_pagat_that_does_not_win_the_last_trick_fails_and_so_do_trull_and_four_kings():
    st = game(PAGAT_LOST)
    act(st, 3, "cut")
    act(st, 1, "bid solodreier")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "declare pagat_ultimo", "I am ready")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    while not st.is_over():
        seat = st.current_player()
        if seat == 1 and not st.trick:
            options = [t for t in legal(st) if t != "play T1" and t != "play 7S"]
            act(st, 1, options[0] if options else ("play 7S" if "play 7S" in legal(st) else "play T1"))
        elif seat == 3:                                # C plays his taroks lowest first and keeps XII
            options = legal(st)
            act(st, 3, next((t for t in options if t not in ("play T12", "play 8S")), options[0]))
        else:
            st.apply(st.legal_actions()[0])
    last_trick, winner = st.play.history[-1]
    assert winner == 3 and (1, RS.card_index["T1"]) in last_trick
    declarers = made(st, "declarers")
    assert "pagat_ultimo" not in declarers                       # played to its trick, but did not win it
    assert "trull" not in declarers                              # the pagat went to the other side
    assert "four_kings" not in declarers                         # the king of spades lay in their talon share
    assert declarers == set() and st.points(st.declarers) == Fraction(133, 3)
    # the solodreier is won with 44 1/3 (8); the declared pagat fails at its declared value, doubled in a
    # solo game (-2 × 2): 4 from each opponent
    assert st.result()["payments"] == {0: -4, 1: 12, 2: -4, 3: -4}


# the declarer has only the pagat left in taroks when C leads clubs in trick 11
PAGAT_FORCED = {
    1: "SK T21 T20 T19 T18 T17 T16 T15 T14 T1 7S 4D",
    3: "T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 8S 9S",
    2: "KS QS 7C 8C 9C 10C JC CC QC KC 3D 2D",
    0: "1D JD CD QD KD 4H 3H 2H 1H JH CH QH",
    "talon": "T2 T3 10S JS CS KH",
}


@pytest.mark.rules("KR-SCORE-39", "KR-PLAY-11", "KR-PLAY-22")
def test_a_declared_pagat_forced_out_before_the_last_trick_fails():
    st = game(PAGAT_FORCED)
    act(st, 3, "cut")
    act(st, 1, "bid solodreier")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "declare pagat_ultimo", "I am ready")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    leads = ["SK", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "7S"]
    dumps = ["3D", "2D", "KC", "QC", "CC", "JC", "10C", "9C", "8C", "KS", "7C", "QS"]
    while not st.is_over():
        seat = st.current_player()
        if seat == 1 and not st.trick and leads:
            act(st, 1, "play " + leads.pop(0))
        elif seat == 2:
            card = next(c for c in dumps if "play " + c in legal(st))
            dumps.remove(card)
            act(st, 2, "play " + card)
        elif seat == 3:                                  # C keeps XIII to the end
            options = legal(st)
            act(st, 3, next((t for t in options if t != "play T13"), options[0]))
        else:
            st.apply(st.legal_actions()[0])
    trick_of_pagat = next(i for i, (trick, _) in enumerate(st.play.history, 1)
                          if (1, RS.card_index["T1"]) in trick)
    assert trick_of_pagat == 11                          # no club, only the pagat in taroks: forced out
    assert "pagat_ultimo" not in made(st, "declarers")
    assert st.announce.declared == {"pagat_ultimo": 1}
    # the solodreier won with 40 (8), the declared pagat lost (-2 × 2 in a solo game): 4 from each
    assert st.points(st.declarers) == 40 and st.result()["payments"] == {0: -4, 1: 12, 2: -4, 3: -4}


# the partner's only heart is the called king, and the declarer leads a heart at once
KING_FORCED = {
    1: "SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 4H",
    2: "KH 7C 8C 9C 10C JC CC QC KC 7S 8S 9S",
    3: "T1 T2 T3 T4 T5 T6 10S JS CS QS KS 4D",
    0: "T7 T8 T9 T10 T11 3D 2D 1D JD CD QD KD",
    "talon": "3H 2H 1H JH CH QH",
}


@pytest.mark.rules("KR-SCORE-43", "KR-PLAY-09", "KR-ANN-18")
def test_kung_ultimo_fails_when_following_suit_forces_the_king_out_early():
    st = game(KING_FORCED)
    act(st, 3, "cut")
    act(st, 1, "bid solorufer")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "call KH")
    act(st, 1, "I am ready")
    act(st, 2, "declare kung_ultimo", "done")
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "pass")
    act(st, 1, "play 4H")
    assert legal(st) == ["play KH"]                    # his only heart: he must follow suit
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    assert "kung_ultimo" not in made(st, "declarers")
    assert st.announce.declared == {"kung_ultimo": 2}


@pytest.mark.rules("KR-SCORE-42")
def test_a_pagat_declared_by_one_who_never_had_it_fails():
    deal = {**BIRDS, 1: "SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T3 T2", 0: "QC CH JH 1H 2H 3H 4H 7S 4D T11 T12 T1"}
    st = game(deal)
    act(st, 3, "cut")
    act(st, 1, "bid solodreier")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "declare pagat_ultimo", "I am ready")        # allowed without the card, at his risk
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    play_out(st, ["SK", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "T3", "T2"])
    assert st.tricks(1) == 12
    assert "pagat_ultimo" not in made(st, "declarers") and "valat" in made(st, "declarers")
    # silent valat: 8 × 4 = 32, the declared pagat lost at -2 × 2 in a solo game: 28 from each
    assert st.result()["payments"] == {0: -28, 1: 84, 2: -28, 3: -28}
