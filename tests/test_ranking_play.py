"""Per-contract trumps and card order (`ranking`) in play: Skat's three kinds of game (tests/rankings/three-kinds.stw)
played on one deal under a suit game, a grand and null. Following suit, the trick's winner, `suit_of`, `in_suit`,
`led_before` and the matadors (`top_run` over the cards dealt and the skat) each read the contract's ranking.

The deal (seat 1 is forehand and declares; the skat is 7D 7C):
    seat 1: JC JS 7S 8S 9S AH KH QH 10D 9D
    seat 2: JH 10S KS 7H 8H 9H AD KD QD 8D
    seat 0: JD AS QS 10H AC 10C KC QC 9C 8C
"""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.context import Ctx
from tests.helpers import act, legal_texts

GAME = str(Path(__file__).parent / "rankings" / "three-kinds.stw")
HANDS = [
    ["JD", "AS", "QS", "10H", "AC", "10C", "KC", "QC", "9C", "8C"],
    ["JC", "JS", "7S", "8S", "9S", "AH", "KH", "QH", "10D", "9D"],
    ["JH", "10S", "KS", "7H", "8H", "9H", "AD", "KD", "QD", "8D"],
]
SKAT = ["7D", "7C"]


def _playing(contract: str, hands=HANDS, skat=SKAT):
    """The deal with seat 1 declaring `contract`, at the first lead."""
    st = new_game(load(GAME), deal={"hands": hands, "talon": skat}, dealer=0)
    act(st, "bid game")
    act(st, "pass")
    act(st, "pass")
    act(st, f"declare {contract}")
    assert st.phase == "play" and st.to_act == 1
    return st


def _plays(st, *cards: str) -> None:
    for card in cards:
        act(st, f"play {card}")


def _value(st, text: str, me=None):
    return st.R.compiler.text(text)(Ctx(st, me))


def _winner(st) -> int:
    return st.play.history[-1][1]


@pytest.mark.rules("SKAT-ORD-02", "SKAT-PLAY-02")
def test_in_a_suit_game_a_jack_does_not_follow_its_printed_suit():
    st = _playing("hearts")
    _plays(st, "7S", "KS", "AS")            # seat 0 wins with the ace and leads
    assert _winner(st) == 0
    act(st, "play QS")
    assert legal_texts(st) == {"play 8S", "play 9S"}        # JS is a trump, not a spade


@pytest.mark.rules("SKAT-ORD-01", "SKAT-PLAY-02")
def test_in_a_suit_game_a_trump_lead_is_followed_by_the_jacks_and_the_suit():
    st = _playing("hearts")
    _plays(st, "7S", "KS", "AS")
    act(st, "play 10H")
    assert legal_texts(st) == {"play JC", "play JS", "play AH", "play KH", "play QH"}


@pytest.mark.rules("SKAT-ORD-04", "SKAT-PLAY-02", "SKAT-PLAY-04")
def test_in_a_grand_the_jacks_are_the_only_trumps():
    st = _playing("grand")
    act(st, "play JS")
    assert legal_texts(st) == {"play JH"}                   # the jack is the only trump of seat 2
    act(st, "play JH")
    assert legal_texts(st) == {"play JD"}
    act(st, "play JD")
    assert _winner(st) == 1                                 # JS above JH above JD
    act(st, "play 9D")                                      # a diamond lead: JD is no diamond
    assert legal_texts(st) == {"play AD", "play KD", "play QD", "play 8D"}
    act(st, "play 8D")
    assert len(legal_texts(st)) == 9                        # seat 0 has no diamond: any card


@pytest.mark.rules("SKAT-ORD-05", "SKAT-PLAY-02", "SKAT-PLAY-04")
def test_in_null_the_jacks_go_back_into_their_suits():
    st = _playing("null")
    act(st, "play 10D")
    act(st, "play KD")
    assert legal_texts(st) == {"play JD"}                   # JD follows diamonds
    act(st, "play JD")
    assert _winner(st) == 2                                 # K above J above 10


@pytest.mark.rules("SKAT-ORD-01", "SKAT-ORD-04", "SKAT-ORD-05", "SKAT-PLAY-03", "SKAT-PLAY-04")
@pytest.mark.parametrize("contract, winner", [("hearts", 0), ("diamonds", 0), ("grand", 0), ("null", 2)])
def test_the_jack_of_diamonds_takes_the_trick_unless_in_null(contract, winner):
    st = _playing(contract)
    # 10D led, KD follows; JD is seat 0's last diamond in null and in a diamonds game (a trump lead there),
    # and a trump it may play, being void in diamonds, in hearts and in a grand
    _plays(st, "10D", "KD", "JD")
    assert _winner(st) == winner


@pytest.mark.rules("SKAT-ORD-03")
def test_in_a_suit_game_the_ten_is_above_the_king():
    st = _playing("hearts")
    _plays(st, "9D", "8D")
    act(st, "play 8C")                                      # seat 0 is void in diamonds (JD is a trump)
    assert _winner(st) == 1                                 # 9D above 8D
    _plays(st, "10D", "KD", "9C")
    assert _winner(st) == 1                                 # 10D above KD in a suit game


@pytest.mark.rules("SKAT-ORD-02", "SKAT-ORD-04", "SKAT-ORD-05")
@pytest.mark.parametrize("contract, suit_js, spades, trumps", [
    ("hearts", "H", 7, 11),         # JS is a trump (a heart here); the spades are the seven others
    ("grand", None, 7, 4),          # JS is a trump of no suit: suit_of gives none, as `trump` does
    ("null", "S", 8, 0),            # JS is a spade
])
def test_suit_of_and_in_suit_read_the_contracts_ranking(contract, suit_js, spades, trumps):
    st = _playing(contract)
    assert _value(st, "suit_of(JS)") == suit_js
    assert _value(st, "suit_of(AS)") == "S"
    ranking = {"hearts": "jacks_and_suit", "grand": "jacks_only", "null": "no_trumps"}[contract]
    assert _value(st, f"size(in_suit(S, {ranking}))") == spades
    assert _value(st, f"size(in_suit(trump, {ranking}))") == trumps
    assert _value(st, f"JS in in_suit(suit_of(JS), {ranking})") is True
    assert _value(st, "count_in(in_suit(S, jacks_only), me)", me=1) == 3        # 7S 8S 9S, not JS


@pytest.mark.rules("SKAT-ORD-02")
def test_led_before_counts_completed_tricks_by_the_contracts_suits():
    st = _playing("grand")
    assert _value(st, "led_before(none)") is False
    act(st, "play JS")                                      # a trump lead (the jacks have no suit in a grand)
    assert _value(st, "led_before(none)") is False          # the trick in play does not count
    _plays(st, "JH", "JD")
    assert _value(st, "led_before(none)") is True
    assert _value(st, "led_before(trump)") is True          # `trump` is none in a grand
    assert _value(st, "led_before(S)") is False             # JS led no spade


@pytest.mark.rules("SKAT-VAL-03", "SKAT-VAL-04")
@pytest.mark.parametrize("contract, skat, matadors", [
    ("hearts", SKAT, 2),            # JC JS, not JH: with 2
    ("grand", SKAT, 2),
    ("hearts", ["JH", "7C"], 3),    # the skat's JH makes it with 3
    ("null", SKAT, 0),              # no trumps
])
def test_matadors_count_the_cards_dealt_and_the_skat(contract, skat, matadors):
    hands = [list(h) for h in HANDS]
    if skat != SKAT:        # JH into the skat, 7D to seat 2 instead
        hands[2] = ["7D" if c == "JH" else c for c in hands[2]]
    st = _playing(contract, hands, skat)
    assert _value(st, "top_run(dealt_cards(declarer) + talon_cards)") == matadors
    assert _value(st, "matadors") == matadors


@pytest.mark.rules("SKAT-VAL-03")
def test_without_the_top_trump_the_run_counts_the_missing_ones():
    st = _playing("hearts")
    assert _value(st, "top_run(dealt_cards(next(declarer)))") == 2     # seat 2: JH without JC and JS
    assert _value(st, "top_run(dealt_cards(dealer))") == 3             # seat 0: JD, without JC JS JH
    assert _value(st, "top_run(dealt_cards(seats) + talon_cards)") == 11    # every trump: with 11


def test_cards_dealt_the_talon_their_points_and_their_union():
    st = _playing("clubs")
    assert _value(st, "size(dealt_cards(declarer))") == 10
    assert _value(st, "size(talon_cards)") == 2
    assert _value(st, "points_of(talon_cards)") == 0
    assert _value(st, "points_of(dealt_cards(declarer))") == 2 + 2 + 11 + 4 + 3 + 10      # JC JS AH KH QH 10D
    assert _value(st, "size(jacks + [JC, AH])") == 5        # a union, not a sum of masks
    assert _value(st, "size(JC + JC)") == 1
    assert _value(st, "size(dealt_cards(seats) + talon_cards)") == 32
    act(st, "play 10D")
    assert _value(st, "size(dealt_cards(declarer))") == 10   # as dealt, whatever was played since


@pytest.mark.rules("SKAT-VAL-01", "SKAT-VAL-03", "SKAT-VAL-05")
def test_the_game_value_counts_the_matadors():
    """Hearts with 2, game 3: 3 x 10 = 30, won or lost twice over."""
    st = _playing("hearts")
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    made = st.made
    assert st.accounts["list"][1] == (30 if made else -60)


@pytest.mark.rules("SKAT-ORD-01", "SKAT-ORD-04")
def test_the_rule_bot_judges_a_hand_by_the_contracts_ranking():
    """Seat 1's hand: in a grand JC (top) and JS (next) count 1 and 0.6 and two trumps 0.6, AH 1; in hearts
    the same jacks, and five trumps 2.7 (AH is a trump there, below four jacks); each with RANKED_EXTRA."""
    from interpreter.bots.rule import RuleBot
    from interpreter.bots.rule_play import RANKED_EXTRA

    st = _playing("grand")
    hand = st.hands[1]
    bot = RuleBot(0)
    assert bot.tricks_estimate(st, hand, st.R.contracts["grand"]) == pytest.approx(3.2 + RANKED_EXTRA)
    assert bot.tricks_estimate(st, hand, st.R.contracts["hearts"]) == pytest.approx(4.3 + RANKED_EXTRA)


@pytest.mark.rules("SKAT-ORD-01", "SKAT-ORD-02")
def test_the_terminal_shows_a_hand_in_the_contracts_suits():
    from interpreter.present.terminal import _sorted_hand

    st = new_game(load(GAME), deal={"hands": HANDS, "talon": SKAT}, dealer=0)
    before = _sorted_hand(st, 1)            # no contract yet: the deck's suits, JS among the spades
    assert before.index("9♠") < before.index("J♠") < before.index("J♣")
    for text in ("bid game", "pass", "pass", "declare hearts"):
        act(st, text)
    after = _sorted_hand(st, 1)             # hearts: the jacks with the hearts, above the ace
    assert after.index("A♥") < after.index("J♠") < after.index("J♣") < after.index("7♠")


@pytest.mark.rules("SKAT-ORD-02", "SKAT-ORD-04")
def test_must_trump_means_the_rankings_trumps(tmp_path):
    """With a duty to trump (not Skat's rule: a variant), a seat void in the suit led must play a trump, and in a
    grand the trumps are the jacks: seat 0, without diamonds, must play JD."""
    variant = tmp_path / "must-trump.stw"
    variant.write_text(f'extends "{GAME}"\nplay {{ obligations = [follow_suit, must_trump] }}\n', encoding="utf-8")
    st = new_game(load(str(variant)), deal={"hands": HANDS, "talon": SKAT}, dealer=0)
    for text in ("bid game", "pass", "pass", "declare grand"):
        act(st, text)
    _plays(st, "9D", "8D")
    assert legal_texts(st) == {"play JD"}
