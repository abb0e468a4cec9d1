"""Königrufen through the engine, during play: the play obligations (must beat, the Pagat held back,
taroks as a plain suit in the Farben games), when a game stops early, the open hands, the declared birds,
and random playouts that check the cards are conserved, the 70 points counted and the partner kept hidden.
As in test_koenigrufen_play.py (the knock, the auction, the king call and the talon), every test deals
explicit hands or a seed (dealer seat 0 unless said, order of play 1, 2, 3, 0) and drives the engine with
legal actions in their text form; the shared deal and helpers are in koenigrufen_support.py."""
from __future__ import annotations

import pytest
from koenigrufen_support import (
    DEAL_A,
    RS,
    act,
    bid,
    bid_alone,
    bids,
    cards,
    choose_contract,
    game,
    legal_texts,
    quiet_round,
)

from interpreter import load
from interpreter.engine import actions as A
from interpreter.engine import new_game

# ---- the play -------------------------------------------------------------------------------------
# a deal for the negative games: forehand (1) holds the Pagat; seats 2 and 3 have no spades
DEAL_B = {
    1: "4H 7S 8S 7C 8C 4D 3D T2 T3 T4 T5 T1",
    2: "KH 1H 3H 9C 10C 2D 1D T9 T10 T6 T11 JD",
    3: "QH 2H JC CC CD QD T7 T8 T12 T13 T14 KD",
    0: "CH JH 9S 10S JS CS QS KS QC KC T15 T16",
    "talon": "T17 T18 T19 T20 T21 SK",
}


def to_play(deal: dict, call: str):
    st = game(deal)
    bid_alone(st, call)
    if st.phase == "partner":
        st.apply(st.legal_actions()[0])
    while st.phase == "talon":
        st.apply(st.legal_actions()[0])
    quiet_round(st)
    assert st.phase == "play"
    return st


@pytest.mark.rules("KR-EX-05", "KR-PLAY-15", "KR-PLAY-09", "KR-DECK-04", "KR-PLAY-05")
def test_must_beat_in_a_negative_game_a_higher_heart_if_one_is_held():
    st = to_play(DEAL_B, "bettler")
    act(st, 1, "play 4H")
    assert set(legal_texts(st)) == {"play KH", "play 1H", "play 3H"}   # every heart beats the 4
    act(st, 2, "play 1H")                                              # the ace: highest red pip
    assert legal_texts(st) == ["play QH"]                             # 2H would not take the lead
    act(st, 3, "play QH")
    assert set(legal_texts(st)) == {"play CH", "play JH"}             # nothing beats: any heart
    act(st, 0, "play JH")
    assert st.play.history[-1][1] == 3


@pytest.mark.rules("KR-EX-06", "KR-PLAY-11", "KR-PLAY-12", "KR-PLAY-15", "KR-PLAY-10")
def test_must_beat_a_tarok_with_a_higher_tarok_when_void_in_the_suit_led():
    st = to_play(DEAL_B, "bettler")
    act(st, 1, "play 7S")
    assert set(legal_texts(st)) == {"play T6", "play T9", "play T10", "play T11"}   # void: a tarok
    act(st, 2, "play T11")
    assert set(legal_texts(st)) == {"play T12", "play T13", "play T14"}   # T7, T8 would not beat
    act(st, 3, "play T12")
    assert len(legal_texts(st)) == 6                                   # seat 0 follows spades, none beats
    act(st, 0, "play 9S")
    assert st.play.history[-1][1] == 3                                 # the highest tarok wins (KR-PLAY-06)


@pytest.mark.rules("KR-PLAY-16", "KR-PLAY-17", "KR-AMB-24")
def test_the_pagat_is_held_back_in_negative_games_only():
    st = to_play(DEAL_B, "bettler")
    assert "play T1" not in legal_texts(st)                            # not led while other taroks are held
    st = to_play(DEAL_B, "solodreier")
    assert st.current_player() == 1 and "play T1" in legal_texts(st)   # a positive game: no Pagat rule


@pytest.mark.rules("KR-PLAY-02", "KR-PLAY-06", "KR-PLAY-08", "KR-PLAY-01")
def test_forehand_leads_a_positive_game_and_the_highest_tarok_wins():
    st = to_play(DEAL_A, "solodreier")
    assert st.current_player() == 1
    act(st, 1, "play 7S")
    act(st, 2, "play T1")                                              # void in spades: a tarok
    act(st, 3, "play T6")
    act(st, 0, "play QS")
    assert st.play.history[-1][1] == 3 and st.current_player() == 3   # the winner leads next


@pytest.mark.rules("KR-PLAY-07", "KR-PLAY-13", "KR-PLAY-14", "KR-CON-04")
def test_in_farben_games_taroks_are_a_plain_suit_but_the_tarok_obligation_holds():
    deal = dict(DEAL_A)
    deal[1], deal[0] = DEAL_A[0], DEAL_A[1]
    st = to_play(deal, "farbensolo")
    assert not any(t in legal_texts(st) for t in ("play T10", "play T11", "play T12"))   # no tarok lead
    act(st, 1, "play QS")
    assert all(t.startswith("play T") for t in legal_texts(st))       # void in spades: must play a tarok
    act(st, 2, "play T5")
    act(st, 3, "play T9")
    act(st, 0, "play 7S")
    assert st.play.history[-1][1] == 1                                 # the queen of the suit led wins


@pytest.mark.rules("KR-PLAY-27", "KR-AMB-21")
def test_a_negative_game_stops_when_its_target_is_out_of_reach():
    st = to_play(DEAL_A, "bettler")
    act(st, 1, "play SK")
    for _ in range(3):
        st.apply(st.legal_actions()[0])
    assert st.is_over() and len(st.play.history) == 1                 # the bettler took a trick


@pytest.mark.rules("KR-AUC-14", "KR-PLAY-04", "KR-CON-36", "KR-PLAY-27", "KR-AMB-21")
def test_bei_the_base_bidder_leads_and_play_goes_on_while_one_declarer_can_still_make_it():
    st = game(DEAL_A)
    act(st, 3, "cut")
    bid(st, 1, "piccolo")
    bid(st, 2, "bettler_bei_p")
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "pass")
    quiet_round(st)
    assert st.phase == "play" and st.current_player() == 1            # the base bidder leads
    for lead in ("SK", "T21"):                                         # the piccolo takes two tricks
        act(st, 1, f"play {lead}")
        for _ in range(3):
            st.apply(st.legal_actions()[0])
    assert st.tricks(1) == 2 and st.tricks(2) == 0
    assert not st.is_over()                                            # his piccolo is lost, the bettler bei plays on
    while st.tricks(2) == 0 and not st.is_over():
        st.apply(st.legal_actions()[0])
    assert st.is_over()                                                # once both are out of reach
    assert st.tricks(2) == 1 or len(st.play.history) == 12
    judge = st.R.compiler.text                                          # each game judged on its own
    assert judge("tricks(base_bidder) == base_contract.tricks")(st.ctx()) is False
    assert judge("made")(st.ctx()) == (st.tricks(2) == 0)


@pytest.mark.rules("KR-PLAY-18", "KR-PLAY-19", "KR-CON-05", "KR-CON-32", "KR-CON-33")
def test_ouverte_hands_are_laid_open_right_after_the_lead_to_the_second_trick():
    st = to_play(DEAL_B, "bettler_ouverte")
    for _ in range(4):
        assert "open_hands" not in st.observation(2)
        st.apply(st.legal_actions()[0])
    assert len(st.play.history) == 1 and "open_hands" not in st.observation(2)
    st.apply(st.legal_actions()[0])                                    # the lead to the second trick
    shown = st.observation(2)["open_hands"]
    assert set(shown) == {0, 1, 3}                                     # declarer and opponents alike
    assert set(shown[1]) == cards(st, 1)


@pytest.mark.rules("KR-PLAY-20", "KR-PLAY-21", "KR-TAL-14", "KR-CON-37", "KR-AUC-19")
def test_trischaken_adds_the_talon_to_the_first_six_tricks():
    st = game(DEAL_A)
    act(st, 3, "cut")
    bid(st, 1, "mein_spiel")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    choose_contract(st, 1, "trischaken")
    assert st.phase == "play" and st.current_player() == 1             # forehand leads, no declaration round
    talon = list(st.talon)
    for trick in range(6):
        for _ in range(4):
            st.apply(st.legal_actions()[0])
        winner = st.play.history[-1][1]
        assert st.play.won_cards[winner] >> talon[trick] & 1           # the winner takes all five cards
        assert st.observation(2)["talon_in_tricks"][-1] == (trick + 1, st.R.codes[talon[trick]])   # face up
        assert len(st.talon) == 5 - trick
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    assert sum(bin(m).count("1") for m in st.play.won_cards) == 54
    assert sum(st.points(s) for s in range(4)) == 70                   # no side shares: every card in a trick


# KR-EX-07: declared uhu (tarok II, trick 11) and kakadu (tarok III, trick 10); forehand holds II, III
# and the 4 of diamonds with three tricks left and nobody else has a tarok.
DEAL_EX7 = {
    1: "SK T21 T20 T19 T18 T17 T16 T15 7C T2 T3 4D",
    2: "T14 T13 T12 T11 KC KD KS QC QD QS CC CD",
    3: "T10 T9 T8 T7 KH QH CH JH 1H 2H 3H 4H",
    0: "T6 T5 T4 T1 CS JS 10S 9S 8S 7S JC 10C",
    "talon": "9C 8C JD 1D 2D 3D",
}


def declare(st, seat: int, figure: str) -> None:
    assert st.current_player() == seat
    st.apply(A.make(A.ANNOUNCE, 1 + st.R.figures[figure].index))


@pytest.mark.rules("KR-CON-03", "KR-CON-21", "KR-EX-07", "KR-PLAY-22", "KR-PLAY-23", "KR-PLAY-24", "KR-PLAY-25", "KR-PLAY-26", "KR-AMB-26")
def test_declared_birds_wait_for_their_tricks_and_go_in_order():
    st = game(DEAL_EX7)
    bid_alone(st, "uhurufer")
    act(st, 1, "call KH", "take 1", "discard 9C", "discard 8C", "discard JD")
    assert legal_texts(st) == ["declare uhu"]                          # bid uhurufer: uhu is his to declare first
    declare(st, 1, "uhu")
    assert st.announce.declared.get("uhu") == 1
    declare(st, 1, "kakadu")
    quiet_round(st)
    assert st.announce.declared.get("kakadu") == 1
    assert not {"play T2", "play T3"} & set(legal_texts(st))          # held for their tricks
    discards = {2: ["QC", "QD", "CC", "CD"], 3: ["QH", "CH", "JH", "1H"], 0: ["CS", "JS", "10S", "9S"]}
    for n, lead in enumerate(["SK", "T21", "T20", "T19", "T18", "T17", "T16", "T15"]):
        act(st, 1, f"play {lead}")
        for seat in (2, 3, 0):
            texts = legal_texts(st)
            taroks = [t for t in texts if t.startswith("play T")]
            act(st, seat, taroks[0] if taroks else f"play {discards[seat][n - 4]}")
    assert all(not st.hands[s] & st.R.suit_masks[st.R.suit_names.index("T")] for s in (2, 3, 0))
    act(st, 1, "play 7C")                                               # trick 9: seat 2 wins with KC
    act(st, 2, "play KC")
    act(st, 3, "play 2H")
    act(st, 0, "play JC")
    act(st, 2, "play KD")                                               # trick 10, kakadu's: diamonds led
    act(st, 3, "play 3H")
    act(st, 0, "play 10C")
    assert legal_texts(st) == ["play 4D"]                              # must follow: kakadu fails
    act(st, 1, "play 4D")
    act(st, 2, "play KS")                                               # trick 11, uhu's: spades led
    act(st, 3, "play 4H")
    act(st, 0, "play 8S")
    assert legal_texts(st) == ["play T3"]                              # III before II: uhu fails too
    act(st, 1, "play T3")
    assert st.R.codes[st.play.history[10][0][-1][1]] == "T3"


# ---- playouts -------------------------------------------------------------------------------------
def places(st) -> list[int]:
    talon = 0
    for c in st.talon:
        talon |= 1 << c
    trick = 0
    for _, c in st.trick:
        trick |= 1 << c
    return list(st.hands) + [st.discards, talon, trick] + list(st.play.won_cards)


def conserved(st) -> bool:
    seen = 0
    for m in places(st):
        if seen & m:
            return False
        seen |= m
    return seen == st.R.full_mask


def playout(name: str, seed: int, opening: str | None = None):
    import random

    rs = load(name)
    st = new_game(rs, seed=seed, dealer=seed % rs.seats)
    rng = random.Random(seed)
    hidden_seen = False
    while not st.is_over():
        assert conserved(st)
        if st.called_card is not None and st.phase in ("talon", "announce", "play") and len(st.declarers) == 2:
            partner = st.declarers[1]
            others = [s for s in st.active if s not in st.declarers]
            if not st.revealed:
                hidden_seen = True
                assert all(st.observation(s)["declarers"] == [st.declarer] for s in others + [st.declarer])
                assert st.observation(partner)["declarers"] == list(st.declarers)
            else:
                assert all(st.observation(s)["declarers"] == list(st.declarers) for s in st.active)
        legal = st.legal_actions()
        texts = [st.action_text(a) for a in legal]
        if st.phase == "auction" and opening is not None and opening in bids(st) and not st.auction.calls:
            a = st.R.call_by_name[opening].action
        elif st.phase == "auction" and opening is not None and st.auction.calls and "pass" in texts:
            a = legal[texts.index("pass")]
        else:
            a = legal[rng.randrange(len(legal))]
        st.apply(a)
    assert conserved(st)
    assert sum(st.accounts["money"]) == 0
    if st.con.ref.rec.get("kind") == "positive" and not st.given_up:
        assert st.points(st.declarers) + st.points(st.defenders) == 70
    return st, hidden_seen


@pytest.mark.rules("KR-DECK-11", "KR-AMB-02", "KR-SEAT-01", "KR-DEAL-02", "KR-DEAL-05")
@pytest.mark.parametrize("name", ["koenigrufen", "koenigrufen-5"])
def test_random_playouts_conserve_cards_and_count_70_in_positive_games(name):
    for seed in range(24):
        playout(name, seed)


@pytest.mark.rules("KR-CON-09", "KR-CON-07", "KR-DEAL-06", "KR-VAR-01")
@pytest.mark.parametrize("name", ["koenigrufen", "koenigrufen-5"])
def test_rufer_playouts_keep_the_partner_hidden_until_revealed(name):
    hidden = 0
    for seed in range(20):
        st, seen = playout(name, seed, opening="rufer")
        hidden += seen
        if st.R.n_seats == 5:
            assert st.dealt_hands[st.dealer] == 0 and st.dealer not in st.active
    assert hidden >= 8                                                # most rufer deals have a real partner


@pytest.mark.rules("KR-TAL-07", "KR-TAL-08")
def test_whose_side_counts_the_discards_and_the_packet_left_is_what_the_talon_says(tmp_path):
    from interpreter import pipeline
    from interpreter.engine.readings import mask_points

    variant = tmp_path / "swapped.stw"
    variant.write_text('extends "koenigrufen"\ntitle = "swapped"\n'
                       'talon halves { discards = defenders  rest = declarer }\n', encoding="utf-8")
    for rs, swapped in ((RS, False), (pipeline.load(str(variant)), True)):
        st = game(DEAL_A, rs=rs)
        bid_alone(st, "dreier")
        act(st, 1, "take 2", "discard 7S", "discard 8C", "discard 9C")
        quiet_round(st)
        while not st.is_over():
            st.apply(st.legal_actions()[0])
        discarded = st.R.rs.mask(["7S", "8C", "9C"])
        left = st.R.rs.mask(["4D", "3H", "4H"])                        # the packet not taken

        def won(seats, st=st):
            m = 0
            for s in seats:
                m |= st.play.won_cards[s]
            return m
        to_declarers, to_defenders = (left, discarded) if swapped else (discarded, left)
        assert st.points(st.declarers) == mask_points(st.R, won(st.declarers) | to_declarers)
        assert st.points(st.defenders) == mask_points(st.R, won(st.defenders) | to_defenders)
        assert st.points(st.declarers) + st.points(st.defenders) == 70
