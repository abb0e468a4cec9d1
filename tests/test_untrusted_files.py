"""Issue 38, lesser items: scenario expectations of the wrong kind are a malformed file at their line, a
huge number is reported where it is written, and `replay` refuses a log whose hands its seed does not
deal, a log of another version, and a save file (named as such)."""
from __future__ import annotations

import json
import re

import pytest

from interpreter.cli import main
from interpreter.resources import games_dir

SCENARIO = games_dir() / "simple" / "scenarios" / "both-stay-home.yaml"


def run(argv, capsys) -> tuple[int, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out + out.err


def _payment_line(text: str) -> int:
    lines = text.splitlines()
    return next(i for i, line in enumerate(lines) if line.strip() == "payments:") + 2     # the first seat's line


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace("made: true", "made: 1"), "E501 'made' is true or false, not 1"),
    (lambda t: re.sub(r"(payments:\n\s+A: )\S+", r'\1"twenty"', t),
     "E501 payments.A is a number (whole, or exact such as 107/3 or 35 2/3), not 'twenty'"),
    (lambda t: re.sub(r"(tricks:\n\s+A: )\S+", r"\1[1]", t), "E501 tricks.A is a number"),
    (lambda t: t.replace("made: true", "made: 1", 1).replace("declarer: ", "declarer: 7 #", 1),
     "E501 'declarer' is a name (or null), not 7"),
])
def test_an_expectation_of_the_wrong_kind_is_a_malformed_file(tmp_path, capsys, change, message):
    text = SCENARIO.read_text(encoding="utf-8")
    changed = change(text)
    assert changed != text
    path = tmp_path / "wrong.yaml"
    path.write_text(changed, encoding="utf-8")
    code, out = run(["test", str(path)], capsys)
    assert code == 2, out
    assert message in out, out


def test_a_huge_number_is_reported_at_its_own_line(tmp_path, capsys):
    text = SCENARIO.read_text(encoding="utf-8")
    line = _payment_line(text)
    path = tmp_path / "huge.yaml"
    path.write_text(re.sub(r"(payments:\n\s+A: )\S+", r"\g<1>" + "9" * 40, text), encoding="utf-8")
    code, out = run(["test", str(path)], capsys)
    assert code == 2
    assert f"huge.yaml:{line}:" in out and "a number is too large" in out, out


@pytest.fixture
def log(tmp_path, capsys) -> list[dict]:
    path = tmp_path / "run.jsonl"
    assert main(["simulate", "wien", "--deals", "2", "--seed", "4", "--log", str(path), "--json"]) == 0
    capsys.readouterr()
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(tmp_path, records) -> str:
    path = tmp_path / "changed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def test_a_log_whose_seed_does_not_deal_its_hands_is_refused(tmp_path, capsys, log):
    assert run(["replay", _write(tmp_path, log)], capsys)[0] == 0
    log[1]["seed"] = 5           # the hands, the actions and the result as they were: only the seed changed
    code, out = run(["replay", _write(tmp_path, log)], capsys)
    assert code == 1
    assert "changed.jsonl:2:1: E503 deal 1: the hands are not those seed '5' deals" in out


def test_a_log_of_another_version_is_refused(tmp_path, capsys, log):
    log[0]["version"] = 99
    code, out = run(["replay", _write(tmp_path, log)], capsys)
    assert code == 2
    assert "E502 log version 99 is not 1" in out
    log[0]["version"] = 1
    assert run(["replay", _write(tmp_path, log)], capsys)[0] == 0


def test_a_save_file_given_to_replay_is_named_as_such(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    assert main(["play", "wien", "--save", "game.json", "--seed", "3"]) == 0
    capsys.readouterr()
    code, out = run(["replay", "game.json"], capsys)
    assert code == 2
    assert "E502 this is a `play --save` file, not a log" in out and "--resume" in out
    assert "dealer must be a whole number" not in out
