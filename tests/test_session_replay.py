"""Logged sessions replay to the end of the game: simulate and replay end a deal of a session the same
way (Session.finish), the final reckoning is not counted in the last deal's result, and the last line's
`session_end` and `final` are checked (harness/sessionlog.py)."""
from __future__ import annotations

import contextlib
import io
import json

import pytest

from interpreter import cli
from interpreter.diagnostics import DiagnosticError
from interpreter.harness.runner import replay, simulate_sessions
from interpreter.pipeline import load
from tests.games_support import playable_games

SESSION_GAMES = [name for name in playable_games() if load(name).doc.get("session")]


def run(*argv) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue()


def lines_of(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def write(path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")


def test_the_built_in_games_with_sessions_are_many():
    assert {"croatian", "wien", "oh-hell", "priffe", "priffe-5", "koenigrufen", "simple"} <= set(SESSION_GAMES)


@pytest.mark.parametrize("name", SESSION_GAMES)
def test_every_session_game_replays_its_logged_sessions(name, tmp_path):
    log = tmp_path / f"{name}.jsonl"
    s = simulate_sessions(name, 2, 80, 1, log_path=log)
    lines = lines_of(log)
    assert len(lines) == round(s["mean_deals"] * 2) and replay(log) == len(lines)
    closing = [x for x in lines if "session_end" in x]
    last = [x for i, x in enumerate(lines) if i + 1 == len(lines) or lines[i + 1]["session"] != x["session"]]
    assert closing == last and [x["session"] for x in closing] == [0, 1]   # each session's last line only
    assert all(set(x["final"]) == {str(p) for p in range(len(x["final"]))} for x in closing)
    assert sum(x["session_end"] == "rule" for x in closing) == s["ended_by_rule"]
    if load(name).doc["session"].get("ends"):
        assert s["ended_by_rule"] >= 1, "no session reached the game's own end: the test proves less"


def test_the_croatian_session_of_the_report_replays(tmp_path):
    log = tmp_path / "c.jsonl"
    code, _ = run("simulate", "croatian", "--session", 30, "--deals", 3, "--seed", 1, "--log", log)
    assert code == 0
    code, text = run("replay", log)
    assert code == 0 and "E503" not in text and "every step and result matches" in text
    lines = lines_of(log)
    ended = [x for x in lines if x.get("session_end") == "rule"]
    assert ended
    for last in ended:
        # the deal that ends the game pays nothing itself; the reckoning after it is the session's final
        assert set(last["result"]["payments"].values()) == {0}
        assert any(v != 0 for v in last["final"].values()) and sum(last["final"].values()) == 0


def _ended(tmp_path):
    log = tmp_path / "c.jsonl"
    simulate_sessions("croatian", 1, 80, 1, log_path=log)
    lines = lines_of(log)
    assert lines[-1]["session_end"] == "rule"
    return log, lines


def _fails(log, *words) -> str:
    with pytest.raises(DiagnosticError) as err:
        replay(log)
    message = err.value.diagnostics[0].message
    assert err.value.diagnostics[0].code == "E503" and all(w in message for w in words), message
    return message


def test_a_changed_final_result_is_caught(tmp_path):
    log, lines = _ended(tmp_path)
    lines[-1]["final"]["0"] += 1
    write(log, lines)
    _fails(log, "final results")


def test_a_game_end_the_rules_do_not_make_is_caught(tmp_path):
    log, lines = _ended(tmp_path)
    early = [dict(x) for x in lines[:-1]]
    early[-1].update(session_end="rule", final=lines[-1]["final"])   # the game said to end a deal too soon
    write(log, early)
    _fails(log, "ended by its own rule", "the rules say it goes on")


def test_a_game_end_logged_as_the_deal_limit_is_caught(tmp_path):
    log, lines = _ended(tmp_path)
    lines[-1]["session_end"] = "limit"
    write(log, lines)
    _fails(log, "stopped at the deal limit", "ended by its own rule")


def test_a_deal_after_the_game_is_over_is_caught(tmp_path):
    log, lines = _ended(tmp_path)
    again = dict(lines[-1])
    del again["session_end"], again["final"]
    write(log, lines + [again])
    _fails(log, "ended by the game's own rule", "goes on")
