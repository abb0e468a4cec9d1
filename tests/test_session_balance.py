"""`simulate --session` checks that results add up to zero only where the rules make them payments
between the seats; results entered seat by seat (a score each player makes for himself) are summed and
said to be so (harness/balance.py)."""
from __future__ import annotations

import contextlib
import io
from fractions import Fraction
from types import SimpleNamespace

import pytest

from interpreter import cli
from interpreter.harness.balance import entered_accounts, sentence
from interpreter.harness.runner import play_session, simulate_sessions
from interpreter.pipeline import load


def run(*argv) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main([str(a) for a in argv])
    return code, " ".join(out.getvalue().split())


@pytest.mark.parametrize("name, entered", [("oh-hell", ["score"]), ("croatian", ["money"]), ("priffe", ["row"]),
                                           ("priffe-5", ["row"]), ("wien", []), ("simple", []), ("koenigrufen", [])])
def test_which_results_are_entered_seat_by_seat(name, entered):
    assert entered_accounts(load(name)) == entered


def _rules(result, rows, lets=None):
    doc = {"account": {"score": {"per": "seat"}, "pot": {"per": "game"}}, "let": lets or {},
           "settle": {"pay": rows}, "session": {"result": result} if result else {}}
    return SimpleNamespace(doc=doc)


def test_the_kind_is_read_from_the_rows_and_the_result():
    score_row = {"each": "seats", "to": "account(score, s)", "amount": "tricks(s)"}
    assert entered_accounts(_rules("account(score, s)", [score_row])) == ["score"]
    # through a let the result uses, and a row anywhere in the document
    lets = {"total": {"params": ("p",), "body": "2 * account(score, p)"}, "twice": "total(s)"}
    nested = _rules("twice + 1", [], lets)
    nested.doc["contract"] = {"big": {"pay": [score_row]}}
    assert entered_accounts(nested) == ["score"]
    assert entered_accounts(_rules("twice + 1", [score_row])) == []         # reads no account
    # a row with a `from` moves the amount: a payment
    assert entered_accounts(_rules("account(score, s)", [dict(score_row, **{"from": "declarer"})])) == []
    # a row paying a seat is money, whose other half the rules write; a result not reading `score`
    assert entered_accounts(_rules(None, [{"to": "s", "amount": "1"}, score_row])) == []
    # money entered by name, read when there is no `result`
    assert entered_accounts(_rules(None, [{"each": "seats", "to": "account(money, s)", "amount": "1"}])) == ["money"]
    assert entered_accounts(_rules("account(score, s)", [{"to": "pot", "amount": "1"}])) == []


def test_oh_hell_sessions_are_summed_not_called_unbalanced():
    s = simulate_sessions("oh-hell", 3, 40, 1)
    assert s["ended_by_rule"] == 3 and s["results_entered"] == ["score"]
    sums = []
    for i in range(3):        # the sessions again: each player's own score, which nobody pays
        _, final = play_session(load("oh-hell"), {}, 1, i, 40)
        sums.append(sum(Fraction(v) for v in final.values()))
    assert all(x > 0 for x in sums) and s["largest_sum"] == max(sums)
    code, text = run("simulate", "oh-hell", "--session", 40, "--deals", 3, "--seed", 1)
    assert code == 0 and "balanced" not in text
    assert (f"the results are entered seat by seat (account score), not paid between seats, so they need not add up "
            f"to zero; in some session they add up to {float(max(sums)):g}") in text


def test_payment_games_are_still_checked():
    code, text = run("simulate", "wien", "--session", 3, "--deals", 5, "--seed", 1)
    assert code == 0 and "balanced: in every session the seat results and what the table accounts keep" in text
    wrong = {"largest_imbalance": 7.0, "largest_sum": -7.0, "largest_imbalance_ended": 7.0, "sessions": 2,
             "ended_by_rule": 2, "results_entered": []}
    assert sentence(wrong).startswith("not balanced:") and "add up to 7, not zero" in sentence(wrong)
    assert "stopped" not in sentence(wrong)
    cut = dict(wrong, ended_by_rule=1)
    assert "(1 session stopped at the deal limit before the game's own end, and was reckoned as it stood)" in sentence(cut)


def test_entered_results_that_add_up_to_zero_say_so():
    code, text = run("simulate", "priffe", "--session", 60, "--deals", 2, "--seed", 1)
    assert code == 0 and "entered seat by seat (account row)" in text and "here they do, in every session" in text
    summary = {"largest_imbalance": 320.0, "largest_sum": -320.0, "largest_imbalance_ended": 0.0, "sessions": 3,
               "ended_by_rule": 2, "results_entered": ["money"]}
    assert sentence(summary).endswith("here they do in every session that reached the game's own end; the one "
                                      "stopped at the deal limit, reckoned as it stood, adds up to -320")
