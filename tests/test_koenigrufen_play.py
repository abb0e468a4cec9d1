"""Königrufen through the engine, before and during play: the knock, the auction with mein spiel and bei,
the king call and the hidden partner, the talon procedures and the play obligations. Every test deals
explicit hands (dealer seat 0, so forehand is seat 1 and the order of play is 1, 2, 3, 0), drives the
engine with legal actions in their text form and asserts what the engine allows and does."""
from __future__ import annotations

from fractions import Fraction

import pytest

from interpreter import load
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.engine.phases.announce import end_of_turn
from interpreter.engine.text import parse

RS = load("koenigrufen")

# a deal where forehand (1) is strong in taroks; seat 2 holds the king of hearts
DEAL_A = {
    1: "SK T21 T20 T19 T18 T17 T16 KS KC 7S 8C 9C",
    2: "KH QH CH JH 1H 2H T1 T2 T3 T4 T5 7C",
    3: "KD QD CD JD 1D 2D 3D T6 T7 T8 T9 10C",
    0: "QS CS JS 10S 9S 8S QC CC JC T10 T11 T12",
    "talon": "4D 3H 4H T13 T14 T15",
}


def game(deal: dict, rs=RS, dealer: int = 0):
    seats = rs.seats
    hands = [deal.get(s, "").split() for s in range(seats)]
    return new_game(rs, deal={"hands": hands, "talon": deal["talon"].split()}, dealer=dealer)


def act(st, seat: int, *texts: str) -> None:
    for text in texts:
        assert st.current_player() == seat, (st.phase, st.current_player(), seat, text)
        st.apply(parse(st, text))


def bids(st) -> set[str]:
    """The calls the seat to act may make, by name."""
    return {st.R.calls[A.arg_of(a)].name for a in st.legal_actions() if A.kind_of(a) == A.BID}


def bid(st, seat: int, call: str) -> None:
    assert st.current_player() == seat
    st.apply(st.R.call_by_name[call].action)


def choose_contract(st, seat: int, name: str) -> None:
    assert st.current_player() == seat
    st.apply(A.make(A.DECLARE, st.R.contract_index[name]))


def contract_choices(st) -> set[str]:
    return {st.R.contract_names[A.arg_of(a)] for a in st.legal_actions() if A.kind_of(a) == A.DECLARE}


def legal_texts(st) -> list[str]:
    return [st.action_text(a) for a in st.legal_actions()]


def cards(st, seat: int) -> set[str]:
    return set(st.R.rs.codes(st.hands[seat]))


def quiet_round(st) -> None:
    """The declaration round with nothing declared: every turn ends at once."""
    while st.phase == "announce":
        st.apply(end_of_turn(st))


def bid_alone(st, call: str) -> None:
    """The knock is declined, forehand bids `call`, the others pass."""
    act(st, 3, "cut")
    bid(st, 1, call)
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")


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
    assert st.phase == "announce" and st.declared.get("pagat_ultimo") == 1   # pagatrufer: pagat declared


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
    assert st.declared.get("uhu") == 1                                 # bid uhurufer: uhu is declared
    declare(st, 1, "kakadu")
    quiet_round(st)
    assert st.declared.get("kakadu") == 1
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
    for _, c in st.play.trick:
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
    from interpreter.engine.phases.talon import mask_points

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
