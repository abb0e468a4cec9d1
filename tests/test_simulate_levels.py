"""`simulate` tallies contracts named by level and strain by their final call's level, with the declarer's
side's mean score per level; a ladder of values alone (Skat's 18, 20, …) gets no such table."""
from __future__ import annotations

from interpreter.cli import main
from interpreter.harness.batch import DealTally


def _rec(contract, level, made, declarer, score):
    gains = [0, 0, 0, 0]
    if declarer is not None:
        gains = [score if s % 2 == declarer % 2 else -score for s in range(4)]
    return {"contract": contract, "level": level, "made": made, "declarer": declarer, "all_passed": contract is None,
            "actions": 60, "money": [0, 0, 0, 0], "accounts": {"score": gains}}


def test_levels_fold_played_made_and_the_declarers_mean_score():
    tally = DealTally()
    tally.add(_rec("played", 6, True, 0, 980))      # 6S made, not vulnerable: 180 + 300 + 500
    tally.add(_rec("played", 6, False, 3, -50))     # 6H down one: E-W lose 50
    tally.add(_rec("played", 2, True, 1, 110))      # 2S made
    tally.add(_rec(None, None, None, None, 0))      # passed out: neither counted nor a level
    levels = tally.summary("x", 1, "rule", 0.0)["levels"]
    assert levels == {"2": {"played": 1, "made": 1, "declarer_mean": 110.0},
                      "6": {"played": 2, "made": 1, "declarer_mean": 465.0}}


def test_no_level_table_without_level_calls():
    tally = DealTally()
    tally.add(_rec("grand", None, True, 0, 96))
    assert "levels" not in tally.summary("x", 1, "rule", 0.0)


def test_simulate_prints_the_bridge_level_table_and_not_skats(capsys):
    assert main(["simulate", "bridge", "--deals", "40", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "level" in out and "declarer's side, mean per deal" in out
    assert main(["simulate", "skat", "--deals", "10", "--seed", "2", "--json"]) == 0
    assert '"levels"' not in capsys.readouterr().out
