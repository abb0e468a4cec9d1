"""`explain` says which cards are trumps in each contract and how every suit ranks, and what each
`choice` decides. The order it states is worked out from the rule document (present/explain_order.py);
here it is held against the order the engine compiles and plays, for every contract of every built-in
game with a trump suit known before the deal (each suit of a `trump_choices` list too), and the words
of a few games against their catalogs."""
from __future__ import annotations

import pytest

from interpreter import load
from interpreter.engine.rules import compile_rules
from interpreter.model.ruleset import thaw
from interpreter.present import explain
from interpreter.present.explain_order import card_order
from interpreter.resources import builtin_games


def _engine_order(R, con) -> dict:
    """The trumps and each other suit as the compiled contract plays them, highest first."""
    codes = [c.code for c in R.rs.cards]

    def high_first(mask: int) -> list[str]:
        cards = [i for i in range(len(codes)) if mask >> i & 1]
        return [codes[i] for i in sorted(cards, key=lambda i: con.strength[i], reverse=True)]

    suits = {}
    for k, name in enumerate(R.rs.suits):
        if k != con.trump_class and k < len(con.suit_masks) and con.suit_masks[k]:
            suits[name] = high_first(con.suit_masks[k])
    return {"trumps": high_first(con.trump_mask), "suits": suits}


def _cases(rs, doc):
    """(contract, trump) for each contract whose trump suit is known before the deal (each of a list)."""
    for name in rs.contracts:
        c = doc["contract"][name]
        choices = c.get("trump_choices")
        for trump in (list(choices) if isinstance(choices, list) else [c.get("trump")]):
            if trump is None or trump in rs.suits:
                yield name, trump


GAMES = sorted(builtin_games())


def test_the_games_checked_include_the_family():
    assert set(GAMES) >= {"skat", "schafkopf", "euchre", "koenigrufen", "wien", "hearts", "spades", "bridge"}


@pytest.mark.parametrize("game", GAMES)
def test_the_order_explained_is_the_order_played(game):
    rs = load(game)
    doc = thaw(rs.doc)
    R = compile_rules(rs, {})
    checked = 0
    for contract, trump in _cases(rs, doc):
        con = R.contracts[contract]
        if trump is not None and con.trump != rs.suits.index(trump):
            con = R.with_trump(con, rs.suits.index(trump))
        said = card_order(doc, rs, doc["contract"][contract], trump)
        played = _engine_order(R, con)
        assert said["trumps"] == played["trumps"], (contract, trump)
        assert {s: cs for s, cs in said["suits"].items() if cs} == played["suits"], (contract, trump)
        checked += 1
    assert checked or game.startswith("bridge"), "no contract with a trump known before the deal"


def _booklet(game: str) -> str:
    return explain.to_markdown(explain.build(load(game)))


@pytest.mark.rules("SKAT-ORD-01", "SKAT-ORD-02", "SKAT-ORD-03", "SKAT-ORD-04", "SKAT-ORD-05", "SKAT-CON-03")
def test_skat_in_words():
    text = _booklet("skat")
    # SKAT-ORD-01/03: the four jacks on top, clubs to diamonds, then A 10 K Q 9 8 7 of the trump suit
    assert "- Trumps, highest first: JC JS JH JD, then A 10 K Q 9 8 7 of the contract's trump suit." in text
    assert "- Every other suit, highest first: A 10 K Q 9 8 7." in text
    # SKAT-ORD-05: null has no trumps and the natural order, the jack between the 10 and the queen
    assert "null, null ouvert (ranking no_trumps):\n\n- No trumps.\n- Every suit, highest first: A K Q J 10 9 8 7." in text
    assert "- skat: the declarer chooses 'pick up' or 'hand', when declarer != none." in text


@pytest.mark.rules("EUC-DECK-03", "EUC-ALONE-01")
def test_euchre_in_words():
    text = _booklet("euchre")
    # EUC-DECK-03: the right bower (jack of trumps), the left bower (the other jack of its colour), A K Q 10 9
    assert "- Trumps, highest first: JH JD, then A K Q 10 9 of hearts (H)." in text
    # the jack of diamonds, the left bower in hearts, has left its suit
    assert "- Every other suit, highest first: clubs (C) A K Q J 10 9; diamonds (D) A K Q 10 9; spades (S) A K Q J 10 9." in text
    assert "- alone: the declarer chooses 'with partner' or 'alone'" in text


@pytest.mark.rules("SCHAF-ORD-01", "SCHAF-ORD-04")
def test_schafkopf_in_words():
    text = _booklet("schafkopf")
    # SCHAF-ORD-01: the four Ober, the four Unter (acorns, leaves, hearts, bells), then A 10 K 9 8 7 of hearts
    assert "- Trumps, highest first: QC QS QH QD JC JS JH JD, then A 10 K 9 8 7 of the contract's trump suit." in text
    # SCHAF-ORD-04: in the Wenz only the Unter are trumps; the Ober sits between the König and the 9
    assert "wenz, wenz tout (ranking unter_only):\n\n- Trumps, highest first: JC JS JH JD.\n- Every suit, highest first: A 10 K Q 9 8 7." in text
