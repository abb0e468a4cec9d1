"""Königrufen through the engine, before play: the knock, the auction with mein spiel and bei, the king
call and the hidden partner, and the talon procedures. Every test deals explicit hands (dealer seat 0, so
forehand is seat 1 and the order of play is 1, 2, 3, 0), drives the engine with legal actions in their
text form and asserts what the engine allows and does. The play obligations and the random playouts are
in test_koenigrufen_play_tricks.py; the shared deal and helpers in koenigrufen_support.py."""
from __future__ import annotations

from fractions import Fraction

import pytest
from koenigrufen_support import (
    DEAL_A,
    act,
    bid,
    bid_alone,
    bids,
    cards,
    choose_contract,
    contract_choices,
    game,
    legal_texts,
    quiet_round,
)


# ---- the knock ------------------------------------------------------------------------------------
@pytest.mark.rules("KR-DEAL-01", "KR-DEAL-07", "KR-DEAL-08", "KR-VAR-03")
def test_the_player_left_of_the_dealer_cuts_or_knocks_and_the_players_choose_piles_forehand_first():
    st = game(DEAL_A)
    assert st.phase == "knock" and st.current_player() == 3            # the dealer's left: prev(dealer)
    assert legal_texts(st) == ["knock", "cut"]
    dealt = [set(cards(st, s)) for s in range(4)]
    act(st, 3, "knock")
    assert st.current_player() == 1                                    # forehand chooses first
    act(st, 1, "take 4")
    assert st.current_player() == 2 and "take 4" not in legal_texts(st)
    act(st, 2, "take 1")
    act(st, 3, "take 2")
    assert legal_texts(st) == ["take 3"]
    act(st, 0, "take 3")
    # face-down piles of a shuffled deck: the pile a seat takes is the hand it was dealt
    assert [cards(st, s) for s in range(4)] == dealt
    assert st.phase == "auction" and st.current_player() == 1


@pytest.mark.rules("KR-DEAL-07", "KR-DEAL-08")
def test_nobody_sees_a_card_before_the_cut_or_while_the_piles_are_chosen():
    st = game(DEAL_A)
    assert all(st.observation(s)["hand"] == [] for s in range(4))
    act(st, 3, "knock")
    act(st, 1, "take 4")
    assert st.phase == "knock" and st.observation(1)["hand"] == []
    for seat, pile in ((2, "take 1"), (3, "take 2"), (0, "take 3")):
        act(st, seat, pile)
    assert all(sorted(st.observation(s)["hand"]) == sorted(cards(st, s)) for s in range(4))
    assert len(st.observation(1)["hand"]) == 12


# ---- the auction ----------------------------------------------------------------------------------
@pytest.mark.rules("KR-AUC-01", "KR-AUC-03", "KR-AUC-04", "KR-AUC-05", "KR-AUC-08", "KR-AUC-12")
def test_forehand_opens_may_not_pass_and_the_rank_0_games_are_not_bids():
    st = game(DEAL_A)
    act(st, 3, "cut")
    assert st.current_player() == 1
    assert "pass" not in legal_texts(st)
    calls = bids(st)
    assert "mein_spiel" in calls and "rufer" in calls
    assert not calls & {"trischaken", "sechserdreier"}


@pytest.mark.rules("KR-AUC-06", "KR-AUC-07", "KR-AUC-09", "KR-AUC-10", "KR-AUC-11", "KR-AMB-06")
def test_mein_spiel_counts_as_rufer_and_forehand_then_chooses_any_game_but_a_bei():
    st = game(DEAL_A)
    act(st, 3, "cut")
    bid(st, 1, "mein_spiel")
    calls = bids(st)
    assert "rufer" not in calls and "piccolo" in calls              # to overbid mein spiel: piccolo at least
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    assert st.phase == "contract" and st.current_player() == 1 and st.declarer == 1
    choices = contract_choices(st)
    assert {"trischaken", "sechserdreier", "solodreier", "rufer"} <= choices
    assert not any("bei" in t for t in choices)


@pytest.mark.rules("KR-AUC-10")
def test_who_has_passed_may_not_bid_again():
    st = game(DEAL_A)
    act(st, 3, "cut")
    bid(st, 1, "rufer")
    act(st, 2, "pass")
    bid(st, 3, "piccolo")
    act(st, 0, "pass")
    bid(st, 1, "solorufer")
    assert st.current_player() == 3                                    # seat 2 passed: skipped for good


@pytest.mark.rules("KR-EX-01", "KR-AUC-13", "KR-AUC-15", "KR-AUC-17", "KR-AUC-18", "KR-AMB-05")
def test_bidding_example_a_bei_overbid_lapses_with_its_base():
    st = game(DEAL_A)
    act(st, 3, "cut")
    bid(st, 1, "mein_spiel")                                        # A
    act(st, 2, "pass")                                                  # B
    bid(st, 3, "piccolo")                                           # C
    bid(st, 0, "pagatrufer")                                        # D
    assert "piccolo_bei_p" in bids(st)                                  # C's piccolo is still his latest
    bid(st, 1, "piccolo_bei_p")                                     # A: rank 10, after other calls
    act(st, 3, "pass")                                                  # C
    bid(st, 0, "dreier")                                            # D
    bid(st, 1, "piccolo_ouverte")                                   # A
    act(st, 0, "pass")                                                  # D
    assert st.declarer == 1 and st.con.name == "piccolo_ouverte"
    assert st.base_bidder is None and st.base_con is None              # C's piccolo is not played
    assert st.declarers == (1,) and set(st.defenders) == {0, 2, 3}


@pytest.mark.rules("KR-EX-02", "KR-AUC-16", "KR-AUC-18", "KR-CON-06", "KR-CON-34", "KR-CON-35")
def test_bei_on_a_bei_is_impossible_and_a_bei_plays_with_its_base():
    st = game(DEAL_A)
    act(st, 3, "cut")
    bid(st, 1, "piccolo")                                           # A
    bid(st, 2, "bettler_bei_p")                                     # B on A's piccolo
    calls = bids(st)
    assert "bettler_bei_b" not in calls and "piccolo_bei_b" not in calls   # no base (EX-02 a)
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "pass")                                                  # A has spoken again: passes
    assert st.con.name == "bettler_bei_p" and st.declarer == 2
    assert st.base_bidder == 1 and st.base_con.name == "piccolo"       # both play, each alone
    assert 1 in st.defenders                                            # each is an opponent in the other's game


@pytest.mark.rules("KR-EX-02")
def test_a_higher_bei_on_the_same_base_keeps_the_base():
    st = game(DEAL_A)
    act(st, 3, "cut")
    bid(st, 1, "piccolo")                                           # A
    bid(st, 2, "piccolo_bei_p")                                     # B: rank 10 on A's piccolo
    bid(st, 3, "bettler_bei_p")                                     # C: rank 12, also on A's piccolo
    act(st, 0, "pass")
    act(st, 1, "pass")
    act(st, 2, "pass")
    assert st.declarer == 3 and st.con.name == "bettler_bei_p"
    assert st.base_bidder == 1 and st.base_con.name == "piccolo"


@pytest.mark.rules("KR-AUC-18", "KR-AMB-05")
def test_the_base_bidder_speaking_again_ends_the_chance_of_a_bei():
    st = game(DEAL_A)
    act(st, 3, "cut")
    bid(st, 1, "piccolo")
    act(st, 2, "pass")
    act(st, 3, "pass")
    bid(st, 0, "solorufer")
    bid(st, 1, "bettler")                                           # A's latest is now bettler
    calls = bids(st)
    assert "piccolo_bei_p" not in calls and "bettler_bei_b" in calls
    st2 = game(DEAL_A)
    act(st2, 3, "cut")
    bid(st2, 1, "piccolo")
    bid(st2, 2, "zwiccolo")
    act(st2, 3, "pass")
    act(st2, 0, "pass")
    act(st2, 1, "pass")                                                 # a pass counts as speaking again
    assert st2.con.name == "zwiccolo"


# ---- the king call --------------------------------------------------------------------------------
@pytest.mark.rules("KR-CON-01", "KR-CON-07", "KR-CON-08", "KR-CON-09", "KR-CON-14", "KR-AUC-20")
def test_the_called_kings_holder_is_the_hidden_partner_until_the_king_is_played():
    st = game(DEAL_A)
    bid_alone(st, "rufer")
    assert st.phase == "partner" and st.current_player() == 1           # after the bidding, before the talon
    assert legal_texts(st) == ["call KC", "call KS", "call KD", "call KH"]
    act(st, 1, "call KH")
    assert st.declarers == (1, 2) and st.partner == {1: 2, 2: 1}
    assert [st.observation(s)["declarers"] for s in (1, 2, 3, 0)] == [[1], [1, 2], [1], [1]]
    assert st.observation(3)["called_card"] == "KH"
    act(st, 1, "take 2", "discard 7S", "discard 8C", "discard 9C")
    quiet_round(st)
    assert st.phase == "play"
    while "KH" in cards(st, 2):
        assert st.observation(0)["declarers"] == [1] and not st.revealed
        st.apply(st.legal_actions()[0])
    assert st.revealed
    assert all(st.observation(s)["declarers"] == [1, 2] for s in range(4))


@pytest.mark.rules("KR-CON-11", "KR-AMB-09")
def test_calling_ones_own_king_plays_alone_and_nobody_else_knows():
    st = game(DEAL_A)
    bid_alone(st, "rufer")
    act(st, 1, "call KS")
    assert st.declarers == (1,) and st.partner == {}
    assert st.observation(2)["declarers"] == [1] and not st.observation(2)["partner_revealed"]


@pytest.mark.rules("KR-CON-10", "KR-CON-12")
def test_the_fourth_king_by_count_and_all_four_kings_call_oneself():
    three = dict(DEAL_A)
    three[1] = "SK T21 T20 T19 T18 T17 T16 KS KC KD 8C 9C"
    three[3] = "7S QD CD JD 1D 2D 3D T6 T7 T8 T9 10C"
    st = game(three)
    bid_alone(st, "rufer")
    assert "call the fourth" in legal_texts(st)
    act(st, 1, "call the fourth")
    assert st.R.codes[st.called_card] == "KH" and st.declarers == (1, 2)
    assert st.observation(0)["called_by_count"] is True
    assert st.observation(0)["called_card"] is None                    # "the fourth": which one is not said
    assert st.observation(2)["called_card"] == "KH"                    # … but its holder knows it is his
    four = dict(three)
    four[1] = "SK T21 T20 T19 T18 T17 T16 KS KC KD KH 9C"
    four[2] = "8C QH CH JH 1H 2H T1 T2 T3 T4 T5 7C"
    st = game(four)
    bid_alone(st, "rufer")
    assert "call the fourth" not in legal_texts(st)                    # no fourth king to name
    assert set(legal_texts(st)) == {"call KC", "call KS", "call KD", "call KH"}   # all his own


@pytest.mark.rules("KR-CON-13", "KR-CON-15", "KR-TAL-02", "KR-AMB-07", "KR-DEF-15")
def test_the_called_king_in_the_talon_may_be_given_up_at_once():
    deal = dict(DEAL_A)
    deal[2] = "4D QH CH JH 1H 2H T1 T2 T3 T4 T5 7C"
    deal["talon"] = "KH 3H 4H T13 T14 T15"
    st = game(deal)
    bid_alone(st, "rufer")
    act(st, 1, "call KH")
    assert st.declarers == (1,)                                         # no partner, and no other call
    assert st.phase == "talon" and legal_texts(st) == ["give up", "play on"]
    assert [set(p) for p in st.observation(0)["packets"]] == [{"KH", "3H", "4H"}, {"T13", "T14", "T15"}]
    assert st.observation(0)["declarers"] == [1]                        # seen in the talon: public
    act(st, 1, "give up")
    assert st.given_up and st.is_over()
    assert st.play.history == []                                        # no declaration round, no play


@pytest.mark.rules("KR-CON-16", "KR-CON-19", "KR-CON-20", "KR-TAL-03")
def test_playing_on_with_the_called_king_in_the_talon_the_declarer_may_take_either_half():
    deal = dict(DEAL_A)
    deal[2] = "4D QH CH JH 1H 2H T1 T2 T3 T4 T5 7C"
    deal["talon"] = "KH 3H 4H T13 T14 T15"
    st = game(deal)
    bid_alone(st, "pagatrufer")
    act(st, 1, "call KH", "play on")
    assert legal_texts(st) == ["take 1", "take 2"]
    act(st, 1, "take 2")
    assert len(cards(st, 1)) == 15 and not st.given_up
    act(st, 1, "discard 7S", "discard 8C", "discard 9C")
    assert st.phase == "announce" and legal_texts(st) == ["declare pagat_ultimo"]   # pagatrufer: he must declare it
    act(st, 1, "declare pagat_ultimo")
    assert st.announce.declared.get("pagat_ultimo") == 1


# ---- the talon ------------------------------------------------------------------------------------
@pytest.mark.rules("KR-CON-02", "KR-CON-22", "KR-AUC-02", "KR-TAL-01", "KR-TAL-04", "KR-TAL-05", "KR-TAL-06", "KR-TAL-07", "KR-TAL-08", "KR-AMB-02", "KR-AMB-03")
def test_the_half_talon_buy_discards_card_by_card_taroks_last_and_face_up():
    deal = dict(DEAL_A)
    deal[1] = "SK T21 T20 T19 T18 T17 T16 KS KC T13 8C 9C"
    deal["talon"] = "4D 3H 4H 7S T14 T15"
    st = game(deal)
    bid_alone(st, "dreier")
    assert st.phase == "talon"
    act(st, 1, "take 2")                                                # 7S T14 T15
    # kings and matadors never; taroks II-XX only when nothing else is left
    assert set(legal_texts(st)) == {"discard 8C", "discard 9C", "discard 7S"}
    act(st, 1, "discard 8C", "discard 9C", "discard 7S")
    assert "face_up_discards" not in st.observation(0)
    deal["talon"] = "4D 3H 4H 7S T14 T15"
    deal[1] = "SK T21 T20 T19 T18 T17 T16 KS KC T13 T12 9C"
    deal[0] = "QS CS JS 10S 9S 8S QC CC JC T10 T11 8C"
    st = game(deal)
    bid_alone(st, "dreier")
    act(st, 1, "take 2", "discard 9C", "discard 7S")
    texts = set(legal_texts(st))
    assert "discard KS" not in texts and "discard SK" not in texts and "discard T21" not in texts
    assert {"discard T12", "discard T13", "discard T14"} <= texts
    act(st, 1, "discard T12")
    assert st.observation(3)["face_up_discards"] == ["T12"]           # seen by everyone
    # the discards count for the declarer, the half left on the table for the defenders
    quiet_round(st)
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    blatt = Fraction(1, 3)
    assert st.declarers == (1,)                                         # dreier: alone against three
    assert st.points(st.declarers) + st.points(st.defenders) == 70
    talon_left = 3 * blatt + 0                                          # 4D 3H 4H: no court cards
    assert st.points(st.defenders) >= talon_left
    assert st.made == (st.points(st.declarers) >= 35 + 2 * blatt)      # a positive game: 36 card points


@pytest.mark.rules("KR-TAL-09", "KR-CON-17", "KR-CON-23")
def test_solo_games_give_the_whole_talon_unseen_to_the_defenders():
    st = game(DEAL_A)
    bid_alone(st, "solodreier")
    assert st.phase == "announce"                                       # no talon choice
    assert "talon" not in st.observation(0) and len(cards(st, 1)) == 12
    quiet_round(st)
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    talon = sum(st.R.cards[c].points for c in st.talon)
    won = sum(st.R.cards[c].points for s in st.defenders for c in range(54) if st.play.won_cards[s] >> c & 1)
    assert st.points(st.defenders) == won + talon
    assert st.points(st.declarers) + st.points(st.defenders) == 70


@pytest.mark.rules("KR-CON-18", "KR-AMB-08")
def test_solorufer_with_the_called_king_in_the_talon_gives_the_declarer_that_half():
    deal = dict(DEAL_A)
    deal[2] = "4H QH CH JH 1H 2H T1 T2 T3 T4 T5 7C"
    deal["talon"] = "4D 3H KH T13 T14 T15"
    st = game(deal)
    bid_alone(st, "solorufer")
    act(st, 1, "call KH")
    assert st.declarers == (1,)
    assert not st.observation(0)["partner_revealed"]                   # found only at the count
    quiet_round(st)
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    mine = st.talon_state.to_declarers
    assert set(st.R.rs.codes(mine)) == {"4D", "3H", "KH"}               # the top three as dealt
    assert st.points(st.declarers) + st.points(st.defenders) == 70


@pytest.mark.rules("KR-TAL-10", "KR-TAL-11", "KR-CON-24")
def test_sechserdreier_takes_the_whole_talon_unseen_and_discards_six():
    st = game(DEAL_A)
    act(st, 3, "cut")
    bid(st, 1, "mein_spiel")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    choose_contract(st, 1, "sechserdreier")
    assert st.phase == "talon" and len(cards(st, 1)) == 18
    assert "talon" not in st.observation(0)                             # not shown
    assert set(legal_texts(st)) == {"discard 7S", "discard 8C", "discard 9C", "discard 4D", "discard 3H", "discard 4H"}
    for _ in range(6):
        st.apply(st.legal_actions()[0])
    assert len(cards(st, 1)) == 12 and st.phase == "announce"


@pytest.mark.rules("KR-TAL-12", "KR-CON-04", "KR-CON-25", "KR-CON-26", "KR-AMB-20")
def test_farbendreier_discards_taroks_freely_face_down_and_needs_six_side_cards():
    st = game(DEAL_A)
    bid_alone(st, "farbendreier")
    act(st, 1, "take 2")                                                # T13 T14 T15
    texts = set(legal_texts(st))
    assert "discard T13" in texts and "discard 9C" in texts and "discard KS" not in texts
    act(st, 1, "discard T13", "discard T14", "discard T15")
    assert "face_up_discards" not in st.observation(0)
    # 5 side-suit cards: KS KC 7S 8C 9C — lost at once, without play
    assert st.given_up and st.is_over() and st.play.history == []
    st = game(DEAL_A)
    bid_alone(st, "farbendreier")
    act(st, 1, "take 1", "discard T16", "discard T17", "discard T18")   # 4D 3H 4H in: 8 side cards
    assert not st.given_up and st.phase == "announce"


@pytest.mark.rules("KR-CON-27", "KR-CON-28")
def test_farbensolo_needs_six_side_cards_in_the_dealt_hand():
    st = game(DEAL_A)
    bid_alone(st, "farbensolo")
    assert st.given_up and st.is_over()
    deal = dict(DEAL_A)
    deal[1], deal[0] = DEAL_A[0], DEAL_A[1]                             # nine side cards to forehand
    st = game(deal)
    bid_alone(st, "farbensolo")
    assert not st.given_up and st.phase == "announce"


@pytest.mark.rules("KR-TAL-13", "KR-CON-29", "KR-CON-30", "KR-CON-31", "KR-PLAY-03")
def test_negative_games_set_the_talon_aside_and_the_declarer_leads():
    for call in ("bettler", "piccolo", "zwiccolo"):
        st = game(DEAL_A)
        bid_alone(st, call)
        quiet_round(st)
        assert st.phase == "play" and st.current_player() == 1 == st.declarer
        assert st.talon_state.to_defenders == 0 and st.talon_state.to_declarers == 0
        assert len(st.talon) == 6
