"""A `simulate` that fails half-way says where and in which deal, and prints no partial table: the rule
row that raises is named and located, the deal is numbered as `--log` numbers it, and the report is
printed only once it is whole."""
from __future__ import annotations

import contextlib
import io

import pytest

from interpreter import cli, load
from interpreter.engine.errors import RuleRuntimeError
from interpreter.harness.runner import play_one

# spades with a row whose amount has no meaning when a partnership's first seat takes no trick
# (an exponent below 0: the language refuses it at play, docs/language.md)
HOUSE = '''extends "spades"
title = "Spades (a broken house rule)"
insert table {
  | name  | when | each     | to                | amount              | note      |
  | crash | -    | one_each | account(score, s) | 2 ^ (tricks(s) - 1) | "a crash" |
} into settle.pay
'''


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_a_rule_failing_at_play_is_named_located_and_its_deal_given(tmp_path):
    path = tmp_path / "house.stw"
    path.write_text(HOUSE, encoding="utf-8")
    code, out, err = _run("simulate", str(path), "--deals", "40", "--seed", "0")
    assert code == 1 and out == "", (out, err)
    assert f"the rules fail at play: {path}:5:3: settle.pay row 3 'crash': 2 ^ -1: the exponent" in err
    deal = int(err.split("(in deal ")[1].split()[0])
    rs = load(str(path))
    for i in range(deal):               # the deals before it play through; it is the one that fails
        play_one(rs, {}, 0, i)
    with pytest.raises(RuleRuntimeError):
        play_one(rs, {}, 0, deal)
    code, out, err = _run("simulate", str(path), "--deals", "20", "--session", "5", "--workers", "2")
    assert code == 1 and out == "" and "settle.pay row 3 'crash'" in err and "(in session " in err, err


def test_a_report_failing_half_way_prints_no_table(monkeypatch):
    """The terminal report is printed whole or not at all: here its seat table fails after the contract
    table was made (as the session protocol, played again for the report, could)."""
    from interpreter.present import report

    def broken(*args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(report, "_moments_table", broken)
    code, out, err = _run("simulate", "spades", "--deals", "3")
    assert code == 2 and out == "", out
    assert "internal error (ValueError: boom)" in err
