"""The packs and the deals of the family games, as the engine deals them: Skat's 32 cards and its
3–skat–4–3 deal into three hands of ten and a skat of two that no seat sees before the bidding is
over, Schafkopf's 32 cards in four hands of eight, bridge's 52 cards in four hands of thirteen."""
from __future__ import annotations

import pytest

from interpreter import load
from interpreter.engine import new_game


def _deal(name: str, seed: int):
    st = new_game(load(name), seed=seed)
    hands = [bin(h).count("1") for h in st.hands]
    return st, hands


@pytest.mark.rules("SKAT-DECK-01", "SKAT-DEAL-02", "SKAT-DEAL-04")
@pytest.mark.parametrize("seed", range(5))
def test_skat_deals_three_hands_of_ten_and_a_skat_no_one_sees(seed):
    rs = load("skat")
    assert len(rs.cards) == 32 and sorted({c.rank for c in rs.cards}) == sorted(["7", "8", "9", "10", "J", "Q", "K", "A"])
    assert all(sum(1 for c in rs.cards if c.suit == s) == 8 for s in rs.suits) and len(rs.suits) == 4
    st, hands = _deal("skat", seed)
    assert hands == [10, 10, 10] and len(st.talon) == 2
    skat = {rs.cards[c].code for c in st.talon}
    for seat in range(3):                                  # the bidding is not over: the skat is nobody's to see
        seen = str(st.observation(seat))
        assert not any(f"'{code}'" in seen for code in skat), (seat, skat)


@pytest.mark.rules("SCHAF-DECK-01")
def test_schafkopf_deals_four_hands_of_eight_from_thirty_two_cards():
    rs = load("schafkopf")
    assert len(rs.cards) == 32 and len(rs.suits) == 4
    assert all(sum(1 for c in rs.cards if c.suit == s) == 8 for s in rs.suits)
    st, hands = _deal("schafkopf", 3)
    assert hands == [8, 8, 8, 8] and not st.talon


@pytest.mark.rules("BRIDGE-DECK-01", "BRIDGE-DEAL-01")
def test_bridge_deals_four_hands_of_thirteen_from_fifty_two_cards():
    rs = load("bridge")
    assert len(rs.cards) == 52 and all(sum(1 for c in rs.cards if c.suit == s) == 13 for s in rs.suits)
    st, hands = _deal("bridge", 4)
    assert hands == [13, 13, 13, 13] and not st.talon
