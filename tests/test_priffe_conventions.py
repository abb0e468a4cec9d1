"""The rule bot's Priffe bidding against the conventions of the catalog (PRIFFE-CONV-…, guidance for bots,
never legality). Each test deals explicit hands, applies the calls before the bot's turn in their text
form and asserts the call the engine's RuleBot makes where the convention decides it. Only conventions
the bot really follows are named here.

Seats A, B, C, D = 0, 1, 2, 3 with D dealing: A is forehand, B second hand, C third hand, D rear hand,
and the partnerships are A-C against B-D (PRIFFE-DEAL-04, PRIFFE-DEAL-05)."""
from __future__ import annotations

from collections import Counter

import pytest

from interpreter import load
from interpreter.bots.rule import RuleBot
from interpreter.engine import new_game
from interpreter.engine.text import parse

BASE = load("priffe")
A, B, C, D = 0, 1, 2, 3
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in "CSDH" for r in RANKS]

# hands of 13 cards for the seat whose call is judged
THREE_ACES = ["AC", "AS", "AD", "KH", "QH", "5H", "3C", "4C", "3S", "4S", "3D", "4D", "6H"]      # stoppers in 4 suits
FOUR_ACES = ["AC", "AS", "AD", "AH", "KC", "3C", "4C", "3S", "4S", "3D", "4D", "5H", "6H"]
TWO_ACES_TWO_KINGS = ["AC", "AS", "KD", "QD", "5D", "KH", "3C", "4C", "3S", "4S", "3D", "5H", "6H"]
GOOD_NOLLA = ["2C", "3C", "5C", "2S", "4S", "6S", "2D", "3D", "5D", "2H", "4H", "7H", "9H"]     # all low cards
FAIR_NOLLA = ["KC", "3C", "5C", "2S", "4S", "QS", "2D", "3D", "5D", "2H", "4H", "QH", "9H"]     # low, but three honours
GOOD_NOLLA_ONE_ACE = ["AC", "3C", "4C", "5S", "3S", "4S", "5D", "3D", "4D", "5H", "3H", "4H", "6H"]
TWO_ACES_GOOD_NOLLA = ["AC", "AS", "2C", "3C", "2S", "3S", "2D", "3D", "4D", "2H", "3H", "4H", "5H"]
# two sure stick (the aces; a queen without its king is no sure stick) and many high cards: poor for nolla
TWO_ACES_POOR_NOLLA = ["AC", "QC", "JC", "10C", "AS", "QS", "JS", "QD", "JD", "10D", "QH", "JH", "10H"]
STRONG_BLACK_AND_HEARTS = ["AC", "KC", "QC", "AS", "KS", "QS", "AH", "KH", "QH", "2D", "3D", "4C", "4S"]
WEAK = ["2C", "3C", "4C", "5C", "2S", "3S", "4S", "2D", "3D", "4D", "2H", "3H", "4H"]
LONG_DIAMONDS = ["AD", "KD", "QD", "9D", "8D", "3C", "4C", "2S", "3S", "5H", "3H", "4H", "6H"]
LONG_HEARTS = ["AH", "KH", "QH", "9H", "8H", "3C", "4C", "2S", "3S", "5D", "3D", "4D", "6D"]
LONG_DIAMONDS_POOR_NOLLA = ["AD", "KD", "QD", "9D", "8D", "QC", "JC", "QS", "JS", "10S", "QH", "JH", "10H"]
LONG_HEARTS_POOR_NOLLA = ["AH", "KH", "QH", "9H", "8H", "QC", "JC", "QS", "JS", "10S", "QD", "JD", "10D"]
RED_ACES = ["AH", "AD", "2C", "3C", "4C", "2S", "3S", "4S", "2D", "3D", "5D", "2H", "3H"]
BLACK_ACES = ["AC", "AS", "2C", "3C", "4C", "2S", "3S", "4S", "2D", "3D", "5D", "2H", "3H"]


def deal_with(seat: int, hand: list[str]):
    """A deal with `hand` at `seat`; the other 39 cards go round to the other seats in deck order."""
    rest = [c for c in DECK if c not in hand]
    hands: list[list[str]] = [[], [], [], []]
    hands[seat] = list(hand)
    others = [s for s in range(4) if s != seat]
    for i, c in enumerate(rest):
        hands[others[i % 3]].append(c)
    assert all(len(h) == 13 for h in hands) and len({c for h in hands for c in h}) == 52
    return new_game(BASE, deal={"hands": hands, "talon": []}, dealer=D)


def bot_call(seat: int, hand: list[str], *before: str) -> str:
    """The rule bot's call at `seat` holding `hand`, after the calls `before` (forehand first)."""
    st = deal_with(seat, hand)
    for text in before:
        st.apply(parse(st, text))
    assert st.current_player() == seat
    return st.action_text(RuleBot(seed=1).choose(st))


@pytest.mark.rules("PRIFFE-CONV-02")
def test_conv_02_priffe_blocks_a_suit_bid_and_a_nolla_and_a_weak_hand_bids_nolla():
    # weak in the diamonds forehand bid, strong elsewhere: second hand overbids with priffe
    assert bot_call(B, STRONG_BLACK_AND_HEARTS, "bid ruter") == "bid priffe"
    # a strong hand overbids the opponents' nolla with priffe
    assert bot_call(B, STRONG_BLACK_AND_HEARTS, "bid nolla") == "bid priffe"
    # a weak hand bids nolla, over a trump bid as well as in third hand (forehand's and second hand's own
    # nolla is an invitation to priffe and needs tops as well: PRIFFE-CONV-10)
    assert bot_call(B, WEAK, "bid ruter") == "bid nolla"
    assert bot_call(C, WEAK, "pass", "pass") == "bid nolla"


@pytest.mark.rules("PRIFFE-CONV-05")
def test_conv_05_bidding_ends_most_often_in_priffe_then_nolla_rarely_trumps():
    finals: Counter[str] = Counter()
    for seed in range(1000):                    # nolla and trump finals are both a few percent: a large sample
        st = new_game(BASE, seed=seed, dealer=seed % 4)
        bots = [RuleBot(seed=seed * 4 + s) for s in range(4)]
        while st.phase == "auction":
            st.apply(bots[st.current_player()].choose(st))
        finals[st.con.name] += 1
    trumps = finals["ruter"] + finals["hjarter"]
    assert finals.most_common(1)[0][0] == "priffe"
    assert finals["nolla"] > trumps
    assert trumps <= 0.2 * sum(finals.values())


@pytest.mark.rules("PRIFFE-CONV-11")
def test_conv_11_priffe_on_ones_own_needs_four_sure_stick_else_an_invitation():
    assert bot_call(A, FOUR_ACES) == "bid priffe"                 # four sure stick, stoppers in four suits
    assert bot_call(A, THREE_ACES) == "bid spader"                # three: only an invitation
    # second hand: after forehand's nolla the invitations are shut out, so priffe instead of one
    assert bot_call(B, TWO_ACES_TWO_KINGS, "pass") == "bid spader"
    assert bot_call(B, TWO_ACES_TWO_KINGS, "bid nolla") == "bid priffe"


@pytest.mark.rules("PRIFFE-CONV-13")
def test_conv_13_second_hand_bids_no_nolla_over_forehands_invitation():
    assert bot_call(B, BLACK_ACES, "pass") == "bid nolla"         # the same hand bids nolla otherwise
    assert bot_call(B, BLACK_ACES, "bid klover") == "pass"
    assert bot_call(B, BLACK_ACES, "bid spader") == "pass"


@pytest.mark.rules("PRIFFE-CONV-14")
def test_conv_14_second_hand_with_strong_priffe_cards_bids_spader_over_klover():
    assert bot_call(B, THREE_ACES, "bid klover") == "bid spader"


@pytest.mark.rules("PRIFFE-CONV-17")
def test_conv_17_third_hand_bids_ruter_to_get_diamonds_as_trumps():
    assert bot_call(C, LONG_DIAMONDS, "pass", "pass") == "bid ruter"


@pytest.mark.rules("PRIFFE-CONV-18")
def test_conv_18_third_hand_bids_hjarter_to_get_hearts_as_trumps():
    assert bot_call(C, LONG_HEARTS, "pass", "pass") == "bid hjärter"


@pytest.mark.rules("PRIFFE-CONV-19")
def test_conv_19_third_hand_bids_nolla_with_cards_for_nolla():
    assert bot_call(C, GOOD_NOLLA, "pass", "pass") == "bid nolla"          # to play nolla
    assert bot_call(C, GOOD_NOLLA, "pass", "bid ruter") == "bid nolla"     # over second hand's trump bid
    assert bot_call(C, STRONG_BLACK_AND_HEARTS, "pass", "bid ruter") != "bid nolla"   # not without nolla cards


@pytest.mark.rules("PRIFFE-CONV-21", "PRIFFE-AMB-09")
def test_conv_21_answer_to_klover_priffe_with_three_stick_or_two_and_poor_nolla_cards():
    assert bot_call(C, THREE_ACES, "bid klover", "pass") == "bid priffe"
    assert bot_call(C, TWO_ACES_POOR_NOLLA, "bid klover", "pass") == "bid priffe"
    assert bot_call(C, TWO_ACES_GOOD_NOLLA, "bid klover", "pass") != "bid priffe"
    assert bot_call(C, GOOD_NOLLA_ONE_ACE, "bid klover", "pass") != "bid priffe"


@pytest.mark.rules("PRIFFE-CONV-23")
def test_conv_23_answer_to_nolla_priffe_with_two_stick_and_poor_nolla_cards_else_let_it_stand():
    assert bot_call(C, TWO_ACES_POOR_NOLLA, "bid nolla", "pass") == "bid priffe"
    assert bot_call(C, TWO_ACES_GOOD_NOLLA, "bid nolla", "pass") == "pass"
    assert bot_call(C, GOOD_NOLLA, "bid nolla", "pass") == "pass"


@pytest.mark.rules("PRIFFE-CONV-24")
def test_conv_24_nolla_on_partners_klover_not_in_rear_hand_never_on_spader():
    assert bot_call(C, GOOD_NOLLA, "bid klover", "pass") == "bid nolla"
    assert bot_call(C, GOOD_NOLLA_ONE_ACE, "bid klover", "pass") == "bid nolla"
    # rear hand gets passnolla by passing
    assert bot_call(D, GOOD_NOLLA, "pass", "bid klover", "pass") == "pass"
    # on partner's spader: priffe, never nolla
    assert bot_call(C, GOOD_NOLLA, "bid spader", "pass") == "bid priffe"


@pytest.mark.rules("PRIFFE-CONV-24")
def test_conv_24_nolla_on_partners_klover_only_with_really_good_nolla_cards():
    # "may": merely fair nolla cards (three honours) and too little for priffe pass, nolla failing too often
    assert bot_call(C, FAIR_NOLLA, "bid klover", "pass") == "pass"
    assert bot_call(C, GOOD_NOLLA, "bid klover", "pass") == "bid nolla"


@pytest.mark.rules("PRIFFE-CONV-25")
def test_conv_25_partners_trump_invitation_is_left_standing():
    # no nolla on it, unless it is forehand's ruter (then see PRIFFE-CONV-26)
    assert bot_call(C, GOOD_NOLLA, "bid hjarter", "pass") == "pass"
    assert bot_call(C, GOOD_NOLLA, "bid ruter", "pass") == "bid nolla"
    for invitation in ("bid ruter", "bid hjarter"):
        assert bot_call(C, TWO_ACES_TWO_KINGS, invitation, "pass") == "pass"  # no priffe over it
    assert bot_call(D, GOOD_NOLLA, "pass", "bid hjarter", "pass") == "pass"



@pytest.mark.rules("PRIFFE-CONV-08")
def test_conv_08_ruter_invitation_shows_top_strong_diamonds_and_good_nolla_cards():
    assert bot_call(A, LONG_DIAMONDS) == "bid ruter"
    assert bot_call(B, LONG_DIAMONDS, "pass") == "bid ruter"
    assert bot_call(A, LONG_DIAMONDS_POOR_NOLLA) != "bid ruter"     # the diamonds alone are not enough


@pytest.mark.rules("PRIFFE-CONV-09")
def test_conv_09_hjarter_invitation_shows_top_strong_hearts_and_good_nolla_cards():
    assert bot_call(A, LONG_HEARTS) == "bid hjärter"
    assert bot_call(B, LONG_HEARTS, "pass") == "bid hjärter"
    assert bot_call(A, LONG_HEARTS_POOR_NOLLA) != "bid hjärter"


@pytest.mark.rules("PRIFFE-CONV-12")
def test_conv_12_no_nolla_when_strong_in_the_red_suits():
    assert bot_call(A, BLACK_ACES) == "bid nolla"
    assert bot_call(A, RED_ACES) != "bid nolla"
    assert bot_call(B, RED_ACES, "pass") != "bid nolla"


# tops of the klöver kind together with good nolla cards (two or more twos)
TWO_ACES_THREE_STOPPERS_TWOS = ["AC", "AS", "KD", "2D", "3D", "2C", "3C", "4C", "2S", "3S", "2H", "3H", "4H"]
ACE_GUARDED_KING_TWOS = ["AC", "5C", "7C", "2C", "KS", "9S", "2S", "3D", "4D", "6D", "2H", "3H", "5H"]
ACE_HEADED_CLUBS_TWOS = ["AC", "9C", "8C", "6C", "2C", "3S", "2S", "3D", "4D", "2H", "3H", "5H", "6H"]
# long diamonds strong at the top, otherwise many high cards and fewer than three stoppers: good for ruter only
LONG_DIAMONDS_ONLY = ["AD", "KD", "QD", "9D", "8D", "7D", "QC", "JC", "10C", "QS", "JS", "JH", "10H"]


@pytest.mark.rules("PRIFFE-CONV-10")
def test_conv_10_nolla_invites_to_priffe_with_klover_tops_and_good_nolla_cards():
    # two aces and three stoppers would invite with klöver; with good nolla cards the invitation is nolla
    assert bot_call(A, TWO_ACES_POOR_NOLLA) == "bid klöver"
    assert bot_call(A, TWO_ACES_THREE_STOPPERS_TWOS) == "bid nolla"
    assert bot_call(B, TWO_ACES_THREE_STOPPERS_TWOS, "pass") == "bid nolla"
    assert bot_call(A, ACE_GUARDED_KING_TWOS) == "bid nolla"                  # a) an ace and a guarded king
    assert bot_call(B, ACE_HEADED_CLUBS_TWOS, "pass") == "bid nolla"          # b) an ace-headed black suit
    # good nolla cards without those tops: no invitation, so no nolla from forehand or second hand
    assert bot_call(A, GOOD_NOLLA_ONE_ACE) == "pass"
    assert bot_call(B, GOOD_NOLLA, "pass") == "pass"


@pytest.mark.rules("PRIFFE-CONV-03")
def test_conv_03_forehand_and_second_hand_promise_more_than_cards_for_the_contract():
    # a hand good for ruter only: third hand bids it, forehand and second hand do not
    assert bot_call(C, LONG_DIAMONDS_ONLY, "pass", "pass") == "bid ruter"
    assert bot_call(A, LONG_DIAMONDS_ONLY) == "pass"
    assert bot_call(B, LONG_DIAMONDS_ONLY, "pass") == "pass"
    # a hand good for nolla only: the same
    assert bot_call(C, GOOD_NOLLA, "pass", "pass") == "bid nolla"
    assert bot_call(A, GOOD_NOLLA) == "pass"
    assert bot_call(B, GOOD_NOLLA, "pass") == "pass"


# third hand's diamond support (four diamonds to an honour) under forehand's ruter
SUPPORT_FAIR_HEARTS = ["KD", "8D", "4D", "2D", "2C", "3C", "5C", "2S", "4S", "6S", "AH", "5H", "3H"]
SUPPORT_WEAK_HEARTS = ["KD", "8D", "4D", "2D", "2C", "3C", "5C", "7C", "2S", "4S", "6S", "5H", "9H"]
SUPPORT_POOR_NOLLA_BLACK_GUARDED = ["AC", "KC", "5C", "AS", "KS", "6S", "QD", "9D", "7D", "4D", "KH", "8H", "7H"]
SUPPORT_POOR_NOLLA_BLACK_WEAK = ["QC", "5C", "4C", "6S", "5S", "3S", "AD", "QD", "9D", "4D", "AH", "KH", "QH"]


@pytest.mark.rules("PRIFFE-CONV-26")
def test_conv_26_third_hand_over_forehands_ruter_with_diamond_support():
    # fair nolla cards and fair hearts: pass with a clear conscience
    assert bot_call(C, SUPPORT_FAIR_HEARTS, "bid ruter", "pass") == "pass"
    # weak hearts but fair nolla cards: nolla limits rear hand (shuts out hjärter)
    assert bot_call(C, SUPPORT_WEAK_HEARTS, "bid ruter", "pass") == "bid nolla"
    # weak nolla cards: priffe to block nolla only when guarding both black suits himself
    assert bot_call(C, SUPPORT_POOR_NOLLA_BLACK_GUARDED, "bid ruter", "pass") == "bid priffe"
    # weak in black as well: let the opponents take a few tricks in nolla rather than risk priffe
    assert bot_call(C, SUPPORT_POOR_NOLLA_BLACK_WEAK, "bid ruter", "pass") == "pass"


@pytest.mark.rules("PRIFFE-CONV-04")
def test_conv_04_rear_hand_does_not_let_ruter_stand_when_third_hand_passes():
    # forehand ruter, second hand and third hand pass: rear hand chooses hjärter or nolla
    assert bot_call(D, LONG_HEARTS, "bid ruter", "pass", "pass") == "bid hjärter"
    assert bot_call(D, GOOD_NOLLA, "bid ruter", "pass", "pass") == "bid nolla"
    # with the conventions third hand blocks hjärter with nolla rather than pass with weak hearts ...
    assert bot_call(C, SUPPORT_WEAK_HEARTS, "bid ruter", "pass") == "bid nolla"
    # ... and then rear hand holding the hearts has no hjärter left and lets the nolla stand
    assert bot_call(D, LONG_HEARTS, "bid ruter", "pass", "bid nolla") == "pass"


# two sure stick (the black aces), poor nolla cards, two stoppers: no priffe from a responder on his own
TWO_STICK_POOR_NOLLA = ["AC", "QC", "JC", "10C", "AS", "QS", "JS", "JD", "10D", "9D", "8D", "JH", "10H"]
# no sure stick, poor nolla cards, two hearts: nothing to overbid with
NOTHING_TO_OVERBID = ["QC", "JC", "10C", "9C", "QS", "JS", "10S", "KD", "QD", "JD", "10D", "JH", "10H"]


@pytest.mark.rules("PRIFFE-CONV-20")
def test_conv_20_rear_hand_picks_the_most_favourable_bid_over_the_opponents_trump_bid_or_lets_it_stand():
    opponents_ruter = ("bid ruter", "pass", "pass")
    assert bot_call(D, LONG_HEARTS, *opponents_ruter) == "bid hjärter"
    assert bot_call(D, GOOD_NOLLA, *opponents_ruter) == "bid nolla"
    assert bot_call(D, TWO_STICK_POOR_NOLLA, *opponents_ruter) == "bid priffe"
    # let the bid stand: overbidding would cost more, or rear hand's trumps can defeat it
    assert bot_call(D, NOTHING_TO_OVERBID, *opponents_ruter) == "pass"
    assert bot_call(D, LONG_DIAMONDS, *opponents_ruter) == "pass"
    assert bot_call(D, LONG_HEARTS, "pass", "pass", "bid hjarter") == "pass"


@pytest.mark.rules("PRIFFE-CONV-16")
def test_conv_16_third_hand_over_second_hands_trump_bid_bids_what_costs_less_or_passes():
    second_hands_ruter = ("pass", "bid ruter")
    # the opponents' ruter would mostly be made: priffe with two sure stick costs less, and shuts rear hand out
    assert bot_call(C, TWO_STICK_POOR_NOLLA, *second_hands_ruter) == "bid priffe"
    assert bot_call(C, LONG_HEARTS_POOR_NOLLA, *second_hands_ruter) == "bid hjärter"
    assert bot_call(C, GOOD_NOLLA, *second_hands_ruter) == "bid nolla"
    # nothing that would not be penalised for more: pass
    assert bot_call(C, NOTHING_TO_OVERBID, *second_hands_ruter) == "pass"
    assert bot_call(C, NOTHING_TO_OVERBID, "pass", "bid hjarter") == "pass"
    # not before his partner has spoken: second hand with the same cards over forehand's ruter passes
    assert bot_call(B, TWO_STICK_POOR_NOLLA, "bid ruter") == "pass"
