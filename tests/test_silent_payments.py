"""Issue 34, the silent mistakes: a payment to `none` lost the money (`to = partner_of(declarer)` in a
game played alone: a deal came out -80 net). Where the file says so in advance, `validate` refuses the row
(E316, tests/diagnostics/cases/pay_party_always_none.stw); where only the deal can tell (the party
through a `let`, or a contract without a partner among others with one), the deal stops with the row named
and located, under both engines. A row without `from` is a score entry and stays legal (every built-in
game with a score sheet has them: tests/test_money_conserved.py)."""
from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

import pytest

from interpreter import cli, load
from interpreter.engine import RuleRuntimeError, new_game


def variant(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "house.stw"
    path.write_text('extends "wien"\nlet mate = partner_of(declarer)\n' + body, encoding="utf-8")
    return path


def play_until_made(rs, seeds=range(40)):
    """Play seeded deals with random legal actions until one with a declarer is settled."""
    for seed in seeds:
        st = new_game(rs, seed=seed)
        rng = random.Random(seed)
        while not st.is_over():
            st.apply(rng.choice(st.legal_actions()))
        if st.result()["declarer"] is not None:
            return st
    raise AssertionError("no deal had a declarer")


def test_a_payment_to_nobody_stops_the_deal_with_the_row_located(tmp_path, engine):
    path = variant(tmp_path, "insert { name = partner_share  when = declarer != none  from = declarer  to = mate  amount = 10 }"
                             " into settle.pay\n")
    with pytest.raises(RuleRuntimeError) as err:
        play_until_made(load(str(path)))
    text = str(err.value)
    assert text.startswith(f"{path}:3:")                    # the row's `to`, where it is written
    assert "settle.pay row 8 'partner_share'" in text and "`to = mate` gives none" in text
    assert "the money would be lost" in text


def test_a_payment_by_nobody_stops_the_deal(tmp_path, engine):
    path = variant(tmp_path, "insert { name = gift  when = declarer != none  from = mate  to = declarer  amount = 5 }"
                             " into settle.pay\n")
    with pytest.raises(RuleRuntimeError, match=r"'gift': `from = mate` gives none.*come from nowhere"):
        play_until_made(load(str(path)))


def test_an_account_kept_for_nobody_stops_the_deal(tmp_path, engine):
    path = variant(tmp_path, "insert { name = mate_score  when = declarer != none  from = declarer  to = account(money, mate)"
                             "  amount = 1 } into settle.pay\n")
    with pytest.raises(RuleRuntimeError, match=r"'mate_score': `to = account\(money, mate\)` gives none"):
        play_until_made(load(str(path)))


def test_simulate_says_where_and_exits_1(tmp_path):
    path = variant(tmp_path, "insert { name = partner_share  when = declarer != none  from = declarer  to = mate  amount = 10 }"
                             " into settle.pay\n")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["simulate", str(path), "--deals", "50", "--seed", "1"])
    assert code == 1
    assert f"the rules fail at play: {path}:3:" in err.getvalue() and "Traceback" not in err.getvalue()


def test_a_row_that_pays_only_when_there_is_a_partner_is_fine(tmp_path, engine):
    """Guarded by its condition, the same party never reads none: the deals are settled as before."""
    path = variant(tmp_path, "insert { name = partner_share  when = mate != none  from = declarer"
                             "  to = mate  amount = 10 } into settle.pay\n")
    rs, base = load(str(path)), load("wien")
    for seed in range(10):
        ends = []
        for rules in (rs, base):
            st = new_game(rules, seed=seed)
            rng = random.Random(seed)
            while not st.is_over():
                st.apply(rng.choice(st.legal_actions()))
            ends.append((st.result()["payments"], st.result()["pot"]))
        assert ends[0] == ends[1]
