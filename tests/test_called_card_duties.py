"""The called card's duties in play (`play_when_led`, `lead_with`, `no_discard` with `cards = [called_card]`), as
Schafkopf's Sauspiel has them (tests/rankings/called-ace.stw; games/schafkopf/RULES.md), and the runners
(`top_run(dealt_cards(declarers))`) under the Sauspiel's trumps.

Seat 1 declares a Sauspiel and calls the ace of spades, which seat 2 holds. The deal:
    seat 1: QC QS JC 7S 8D 9D 10C KC
    seat 2: AS KS 9S 7D KD 7C 8C 9C          (three spades: the ace and two more)
    seat 3: QH QD JS JH AH 10H KH 9H         (trumps only)
    seat 0: JD 8H 7H 10S 8S AD 10D AC
"""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.context import Ctx
from tests.helpers import act, legal_texts

GAME = str(Path(__file__).parent / "rankings" / "called-ace.stw")
HANDS = [
    ["JD", "8H", "7H", "10S", "8S", "AD", "10D", "AC"],
    ["QC", "QS", "JC", "7S", "8D", "9D", "10C", "KC"],
    ["AS", "KS", "9S", "7D", "KD", "7C", "8C", "9C"],
    ["QH", "QD", "JS", "JH", "AH", "10H", "KH", "9H"],
]
# seat 2 with four spades (10S for its 7D): it may run away
RUNS = [["JD", "8H", "7H", "7D", "8S", "AD", "10D", "AC"], HANDS[1],
        ["AS", "KS", "9S", "10S", "KD", "7C", "8C", "9C"], HANDS[3]]


def _playing(hands=HANDS, dealer: int = 0):
    """Seat 1 plays a Sauspiel and calls the ace of spades; the first lead is forehand's (the dealer's next)."""
    st = new_game(load(GAME), deal={"hands": hands, "talon": []}, dealer=dealer)
    while st.phase == "auction":
        act(st, "bid sauspiel" if st.to_act == 1 else "pass")
    act(st, "call AS")
    assert st.phase == "play" and st.con.name == "sauspiel"
    return st


def _plays(st, *cards: str) -> None:
    for card in cards:
        act(st, f"play {card}")


@pytest.mark.rules("SCHAF-CALL-06")
def test_the_called_ace_must_be_played_when_its_suit_is_led():
    st = _playing()
    act(st, "play 7S")
    assert legal_texts(st) == {"play AS"}           # not KS or 9S


@pytest.mark.rules("SCHAF-CALL-08")
def test_its_holder_leads_its_suit_only_with_the_ace():
    st = _playing(dealer=1)                         # seat 2 leads
    assert st.to_act == 2
    assert legal_texts(st) == {"play AS", "play 7D", "play KD", "play 7C", "play 8C", "play 9C"}


@pytest.mark.rules("SCHAF-CALL-09", "SCHAF-CALL-10")
def test_with_four_cards_of_the_suit_its_holder_may_run_away():
    st = _playing(RUNS, dealer=1)
    assert {"play KS", "play 9S", "play 10S", "play AS"} <= legal_texts(st)
    _plays(st, "KS", "9H", "8S", "7S")              # seat 3 has no plain spade: it trumps
    assert st.play.history[-1][1] == 3
    # the suit has been led: the duties are over, and the ace need not come when spades are led again
    act(st, "play QH")                              # seat 3 leads a trump
    act(st, "play JD")
    act(st, "play QC")
    assert "play 9S" in legal_texts(st) and "play AS" in legal_texts(st)   # no trump: any card, the ace too


@pytest.mark.rules("SCHAF-CALL-07", "SCHAF-AMB-02")
def test_the_ace_is_not_discarded_before_its_suit_is_led():
    st = _playing()
    _plays(st, "QC")                                # a trump lead: seat 2 has no trump
    assert legal_texts(st) == {"play KS", "play 9S", "play 7D", "play KD", "play 7C", "play 8C", "play 9C"}


@pytest.mark.rules("SCHAF-CALL-07", "SCHAF-AMB-02")
def test_the_ace_may_go_in_the_last_trick():
    st = _playing()
    # play to the last trick keeping AS in seat 2's hand and spades never led
    while len(st.play.history) < 7:
        legal = legal_texts(st)
        spades = {t for t in legal if t.endswith("S") and t not in ("play QS", "play JS")}
        others = sorted(legal - spades) or sorted(legal)
        act(st, others[0])
    assert st.hands[2] >> st.R.rs.card_index["AS"] & 1 and not st.trick   # the ace is seat 2's last card
    while st.to_act != 2:
        act(st, sorted(legal_texts(st))[0])
    assert legal_texts(st) == {"play AS"}


@pytest.mark.rules("SCHAF-ORD-01", "SCHAF-PLAY-02")
def test_a_suit_under_the_sauspiel_leaves_its_ober_and_unter_out():
    st = _playing()
    value = lambda text, me=None: st.R.compiler.text(text)(Ctx(st, me))
    assert value("size(in_suit(S, ober_unter))") == 6           # 7 8 9 10 K A
    assert value("size(in_suit(H, ober_unter))") == 14          # the trump suit: every trump
    assert value("count_in(in_suit(suit_of(called_card), ober_unter), me)", me=2) == 3
    assert value("suit_of(QS)") == "H" and value("suit_of(AS)") == "S"
    act(st, "play 8D")
    assert legal_texts(st) == {"play 7D", "play KD"}            # seat 2 follows diamonds
    _plays(st, "KD")
    assert len(legal_texts(st)) == 8                            # seat 3: QD is a trump, no diamond in hand


@pytest.mark.rules("SCHAF-ORD-01")
def test_the_runners_are_counted_over_both_partners_hands():
    """The side holds QC QS but not QH: two runners; each defender pays the declarer 10 + 2, or is paid it."""
    st = _playing()
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    value = st.R.compiler.text("top_run(dealt_cards(declarers))")(Ctx(st))
    assert value == 2
    sign = 1 if st.made else -1
    assert st.accounts["money"] == [-12 * sign, 24 * sign, 0, -12 * sign]


@pytest.mark.rules("SCHAF-CALL-02")
def test_a_comprehension_over_a_group_binds_cards_not_bits():
    """`for c in plain_aces` binds each ace as a card: holds(me, c) asks for that ace (it read the bits of the
    card's index before, so seat 2, holding 7D, "held" every ace)."""
    st = _playing()
    value = lambda text, me=None: st.R.compiler.text(text)(Ctx(st, me))
    assert value("count(c for c in plain_aces if holds(me, c))", me=2) == 1
    assert value("any(holds(me, c) for c in plain_aces)", me=1) is False
