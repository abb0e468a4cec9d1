"""Simulation, logs and replay: deterministic by seed whatever the number of workers."""
from __future__ import annotations

import json

import pytest

from interpreter.cli import main
from interpreter.harness.runner import replay, simulate


def run_json(capsys, *args):
    assert main(["simulate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_same_seed_same_statistics(capsys):
    a = run_json(capsys, "wien", "--deals", "150", "--seed", "7")
    b = run_json(capsys, "wien", "--deals", "150", "--seed", "7")
    assert a == b
    c = run_json(capsys, "wien", "--deals", "150", "--seed", "8")
    assert c != a


def test_workers_do_not_change_results(capsys):
    one = run_json(capsys, "wien", "--deals", "120", "--seed", "3")
    two = run_json(capsys, "wien", "--deals", "120", "--seed", "3", "--workers", "2")
    assert one == two


def test_rule_bots_play_plausibly():
    s = simulate("wien", 300, 1)
    assert s["all_pass_rate"] < 0.5
    assert len(s["contracts"]) >= 3
    assert abs(sum(m["mean"] for m in s["money_per_seat"])) < 50


def test_log_replays_exactly(tmp_path, capsys):
    log = tmp_path / "deals.jsonl"
    assert main(["simulate", "wien", "--deals", "20", "--seed", "5", "--log", str(log), "--json"]) == 0
    lines = log.read_text().splitlines()
    assert len(lines) == 20
    assert replay(log) == 20
    # a tampered log is caught with a clear message, exit 1-2, never a traceback
    rec = json.loads(lines[0])
    rec["actions"][0][1] = "bid nonsense"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(rec) + "\n")
    capsys.readouterr()
    assert main(["replay", str(bad)]) == 1
    assert "not a legal action" in capsys.readouterr().err


@pytest.mark.parametrize("args", [["simulate", "nosuchgame"], ["simulate", "wien", "--deals", "0"],
                                  ["simulate", "wien", "--set", "nosuch=1"], ["replay", "/nonexistent.jsonl"]])
def test_bad_usage_exits_2(args, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip()
