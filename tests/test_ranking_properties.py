"""Random play-outs under per-contract rankings: at every card, the legal cards are exactly what following suit
under the contract's ranking allows — worked out here from the ranking as written, not from the engine's
tables — and the trick goes to the card the ranking puts highest. Both backends (the interpreter and the
generated code) give the same legal actions at every step (tests/test_codegen.py plays these games too)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State

THREE_KINDS = str(Path(__file__).parent / "rankings" / "three-kinds.stw")
CALLED_ACE = str(Path(__file__).parent / "rankings" / "called-ace.stw")

# Skat's orders as written in three-kinds.stw (SKAT-ORD-01..05): per kind of game, the trumps lowest first
# (a suit's plain cards by `ranks`, then the jacks) and the plain ranks
JACKS = ["JD", "JH", "JS", "JC"]
SUIT_RANKS = ["7", "8", "9", "Q", "K", "10", "A"]
NULL_RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]


def _skat_order(contract: str) -> tuple[list[str], list[str]]:
    """(trumps lowest first, plain ranks lowest first) of a contract of three-kinds.stw."""
    if contract == "null":
        return [], NULL_RANKS
    if contract == "grand":
        return JACKS, SUIT_RANKS
    suit = {"diamonds": "D", "hearts": "H", "spades": "S", "clubs": "C"}[contract]
    return [r + suit for r in SUIT_RANKS] + JACKS, SUIT_RANKS


def _suit(code: str, trumps: list[str]) -> str:
    return "trump" if code in trumps else code[-1]


def _strength(code: str, trumps: list[str], ranks: list[str], led: str) -> tuple[int, int]:
    if code in trumps:
        return (2, trumps.index(code))
    return (1, ranks.index(code[:-1])) if _suit(code, trumps) == led else (0, 0)


def _codes(R, mask: int) -> set[str]:
    return {R.codes[i] for i in range(len(R.codes)) if mask >> i & 1}


@pytest.mark.rules("SKAT-ORD-01", "SKAT-ORD-02", "SKAT-ORD-03", "SKAT-ORD-04", "SKAT-ORD-05",
                   "SKAT-PLAY-02", "SKAT-PLAY-03", "SKAT-PLAY-04")
@pytest.mark.parametrize("engine", ["interpreter", "generated"])
def test_every_legal_set_follows_suit_under_the_contracts_ranking(engine):
    R = compile_rules(load(THREE_KINDS), engine=engine)
    checked = {}
    for i in range(150):
        rng = random.Random(f"ranking:{i}")
        hands, talon = deal_cards(R, rng, i % 3)
        st = State(R, i % 3, hands, talon, deal_number=i)
        while not st.is_over():
            legal = st.legal_actions()
            if st.phase == "play":
                trumps, ranks = _skat_order(st.con.name)
                hand = _codes(R, st.hands[st.to_act])
                if st.trick:
                    led = _suit(R.codes[st.trick[0][1]], trumps)
                    follow = {c for c in hand if _suit(c, trumps) == led}
                    assert {st.action_text(a).removeprefix("play ") for a in legal} == (follow or hand)
                else:
                    assert len(legal) == len(hand)
                checked[st.con.name] = checked.get(st.con.name, 0) + 1
            a = legal[rng.randrange(len(legal))] if st.phase != "auction" or rng.random() < 0.5 else legal[0]
            before = st.trick
            st.apply(a)
            if st.phase in ("play", "settle", "end") and before and len(st.trick) == 0 and st.play.history:
                trick, winner = st.play.history[-1]
                trumps, ranks = _skat_order(st.con.name)
                led = _suit(R.codes[trick[0][1]], trumps)
                best = max(trick, key=lambda p: _strength(R.codes[p[1]], trumps, ranks, led))
                assert winner == best[0]
    assert set(checked) == {"diamonds", "hearts", "spades", "clubs", "grand", "null"}


@pytest.mark.rules("SCHAF-ORD-01", "SCHAF-ORD-04", "SCHAF-PLAY-02", "SCHAF-CALL-06", "SCHAF-CALL-07")
def test_the_called_ace_is_never_discarded_and_always_comes_when_searched():
    R = compile_rules(load(CALLED_ACE), engine="interpreter")
    seen = 0
    for i in range(200):
        rng = random.Random(f"called:{i}")
        hands, talon = deal_cards(R, rng, i % 4)
        st = State(R, i % 4, hands, talon, deal_number=i)
        while not st.is_over():
            legal = st.legal_actions()
            if st.phase == "play" and st.called_card is not None and st.trick:
                ace = st.called_card
                suit = R.codes[ace][-1]
                led_code = R.codes[st.trick[0][1]]
                trump = led_code[-1] == "H" or led_code[:-1] in ("J", "Q")
                searched = any(R.codes[t[0][1]][-1] == suit and R.codes[t[0][1]][:-1] not in ("J", "Q")
                               for t, _w in st.play.history)
                if st.hands[st.to_act] >> ace & 1 and not searched and len(legal) > 1:
                    seen += 1
                    if not trump and led_code[-1] == suit:
                        assert legal == [ace]                       # searched: it must come
                    else:
                        assert ace not in legal                     # another suit or a trump: kept
            if st.phase == "auction":       # forehand bids the Sauspiel, the others pass
                st.apply(legal[0] if st.to_act == (i % 4 + 1) % 4 else legal[-1])
            else:
                st.apply(legal[rng.randrange(len(legal))])
    assert seen > 100
