"""Issue 34, the silent mistakes: a contract's `trump_choices` written as an expression was accepted by the
schema and ignored by the engine (the declarer was never asked). Now it is judged in the deal, the
declarer as `me`, when the trump is chosen; it must give a list of suits (E402 at validate otherwise, a
located error at play if a suit is not the deck's). Run with both engines."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import cli, load
from interpreter.engine import RuleRuntimeError, new_game
from tests.helpers import act, legal_texts

pytestmark = pytest.mark.usefixtures("engine")     # every test under both backends (tests/conftest.py)


def variant(tmp_path: Path, choices: str):
    path = tmp_path / "choices.stw"
    path.write_text(f'extends "simple"\ncontract one {{ trump_choices = {choices} }}\n', encoding="utf-8")
    return path


def to_trump_choice(rs, dealer: int, bidder: int):
    """`bidder` bids one and the others pass; the phases up to the trump choice take their first action."""
    st = new_game(rs, seed=7, dealer=dealer)
    while st.phase == "auction":
        act(st, "bid one" if st.current_player() == bidder and "bid one" in legal_texts(st) else "pass")
    while not st.is_over() and not (st.phase == "contract" and st._con is not None):
        st.apply(st.legal_actions()[0])
    return st


def test_the_expression_decides_the_suits_offered(tmp_path):
    rs = load(str(variant(tmp_path, "if me == forehand then [H, S] else [C]")))
    for dealer in range(3):
        forehand = (dealer + 1) % 3
        for bidder in range(3):
            st = to_trump_choice(rs, dealer, bidder)
            assert st.declarer == bidder and st.phase == "contract"
            expected = {"trump H", "trump S"} if bidder == forehand else {"trump C"}
            assert legal_texts(st) == expected
            act(st, sorted(expected)[0])
            assert st.phase != "contract" and st.con.trump == st.R.suit_names.index(sorted(expected)[0][-1])


def test_the_list_as_written_still_works(tmp_path):
    st = to_trump_choice(load("simple"), 0, 1)
    assert legal_texts(st) == {"trump C", "trump S", "trump D", "trump H"}


def test_an_expression_of_the_wrong_type_is_refused(tmp_path, capsys):
    assert cli.main(["validate", str(variant(tmp_path, "declarer"))]) == 1
    out = capsys.readouterr().out
    assert "E402 contract.trump_choices must give a list, but this expression gives a seat" in out


def test_a_list_of_other_things_stops_the_deal(tmp_path):
    rs = load(str(variant(tmp_path, "if stake > 0 then [stake] else [H]")))
    with pytest.raises(RuleRuntimeError, match="contract one: trump_choices gives"):
        to_trump_choice(rs, 0, 1)
