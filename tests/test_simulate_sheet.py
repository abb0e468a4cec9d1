"""simulate for games scored on a sheet, 'balanced', and --log with --session (issue 10, item 9)."""
from __future__ import annotations

import contextlib
import io
import json

import pytest

from interpreter import cli
from interpreter.harness.runner import replay, simulate, simulate_sessions


def run(*argv) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue()


def test_a_sheet_scored_game_reports_its_score_accounts():
    s = simulate("croatian", 40, 1)
    assert all(r["mean"] == 0 and r["stdev"] == 0 for r in s["money_per_seat"])   # no money moves in a deal
    accounts = s["accounts_per_seat"]
    assert {"score", "juha", "refa"} <= set(accounts)
    assert any(r["stdev"] > 0 for r in accounts["juha"])
    code, text = run("simulate", "croatian", "--deals", 40, "--seed", 1)
    assert code == 0
    assert "scored on a sheet" in text and "mean declarer column per deal" in text and "mean juha per deal" in text
    assert "mean money per deal" not in text


@pytest.mark.rules("PRIFFE-SCORE-01", "PRIFFE-SCORE-02")
def test_a_partnership_game_reports_each_partnership_account_for_both_partners():
    from interpreter import load
    from interpreter.bots.rule import RuleBot
    from interpreter.engine import new_game
    from interpreter.harness.sheet import seat_deltas

    rs = load("priffe")
    for seed in range(4):
        st = new_game(rs, seed=seed, dealer=3)
        bot = RuleBot(seed)
        while not st.is_over():
            st.apply(bot.choose(st))
        score = seat_deltas(st).get("score", [0] * 4)
        for seat in range(4):       # each seat's figure is its partnership's account, as the engine keeps it
            assert score[seat] == st.account("score", seat)
            assert score[seat] == score[(seat + 2) % 4]                       # A-C and B-D
        assert sum(score) == 2 * sum(st.accounts["score"].values()) > 0      # every deal scores points
    s = simulate("priffe", 40, 1)
    assert all(r["mean"] == 0 for r in s["money_per_seat"])     # chips move only when a sit is settled
    assert any(r["mean"] > 0 for r in s["accounts_per_seat"]["score"])
    code, text = run("simulate", "priffe", "--deals", 40, "--seed", 1)
    assert code == 0 and "scored on a sheet" in text and "mean points in this sit per deal" in text


def test_a_money_game_reports_money():
    code, text = run("simulate", "wien", "--deals", 20, "--seed", 1)
    assert code == 0 and "mean money per deal" in text and "scored on a sheet" not in text


def test_sessions_say_balanced():
    code, text = run("simulate", "wien", "--session", 4, "--deals", 3, "--seed", 1)
    assert code == 0 and "balanced: in every session" in text and "within" not in text


def test_cut_sessions_say_why_they_do_not_add_up_to_zero():
    # croatian's final reckoning enters each seat's result by a formula: it adds up to zero only at the
    # game's own end, so sessions cut at the deal limit are summed, not called unbalanced
    s = simulate_sessions("croatian", 2, 2, 2)
    assert s["largest_imbalance"] != 0 and s["ended_by_rule"] == 0 and s["results_entered"] == ["money"]
    code, text = run("simulate", "croatian", "--session", 2, "--deals", 2, "--seed", 2)
    text = " ".join(text.split())
    assert code == 0 and "not balanced" not in text and "stopped at the deal limit" in text
    assert "entered seat by seat (account money)" in text and f"add up to {s['largest_sum']:g}" in text


def test_log_with_session_is_written_and_replays(tmp_path):
    log = tmp_path / "sessions.jsonl"
    simulate_sessions("wien", 4, 3, 7, log_path=log)     # 4 sessions of 3 deals; the pot carries over
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 12
    assert [x["session"] for x in lines] == [0] * 3 + [1] * 3 + [2] * 3 + [3] * 3
    assert [x["deal"] for x in lines[:3]] == [0, 1, 2]
    assert replay(log) == 12                             # each deal starts from the accounts before it
    # the carried pot matters: replaying the second deal on its own gives another result
    alone = tmp_path / "alone.jsonl"
    second = dict(lines[1])
    del second["session"]
    alone.write_text(json.dumps(second) + "\n", encoding="utf-8")
    code, _ = run("replay", alone)
    assert code == 1


def test_log_with_session_from_the_command_line(tmp_path):
    log = tmp_path / "s.jsonl"
    code, _ = run("simulate", "croatian", "--session", 2, "--deals", 2, "--seed", 3, "--log", log)
    assert code == 0 and len(log.read_text(encoding="utf-8").splitlines()) == 4
    assert run("replay", log)[0] == 0


@pytest.mark.rules("WIEN-AUC-07", "PRIFFE-AUC-09")
def test_a_contract_nobody_declares_has_no_made_rate():
    """Vienna's ausfechten after an all-pass and Priffe's passnolla have no declarer: their deals are
    neither made nor lost, so simulate shows no made rate for them (not 0 %)."""
    for name, contract in (("wien", "ausfechten"), ("priffe", "passnolla")):
        s = simulate(name, 60, 1)
        row = s["contracts"][contract]
        assert row["played"] > 0 and row["made"] is None
        assert all(c["made"] is not None for n, c in s["contracts"].items() if n != contract)
        code, text = run("simulate", name, "--deals", 60, "--seed", 1)
        line = next(x for x in text.splitlines() if f" {contract} " in x)
        assert code == 0 and line.count("–") == 2 and "0.0%" not in line


@pytest.mark.rules("KR-CON-37", "KR-AUC-08")
def test_a_game_each_plays_for_himself_has_no_made_rate_whoever_chose_it():
    """Königrufen's trischaken is chosen by forehand (the deal's declarer in the log) but each plays for
    himself: the tallies count it neither made nor lost; the deal's own result (and so every log) is
    unchanged."""
    import random

    from interpreter import load
    from interpreter.engine import new_game
    from interpreter.harness.batch import made_or_none

    st = new_game(load("koenigrufen"), seed=3, dealer=0)
    rng = random.Random(3)
    while not st.is_over():
        said = {st.action_text(a): a for a in st.legal_actions()}
        pick = next((said[w] for w in ("cut", "bid mein spiel", "pass") if w in said), None)
        pick = pick if pick is not None else next((a for w, a in said.items() if w.endswith("trischaken")), None)
        st.apply(pick if pick is not None else rng.choice(list(said.values())))
    r = st.result()
    assert r["contract"] == "trischaken" and r["declarer"] is not None and r["made"] is not None
    assert made_or_none(st, r) is None
