"""Untrusted logs and save files, safe writing, bounded memory and quiet pipes (issue 14)."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "internal error" not in text and "Traceback" not in text, text
    assert code in (0, 1, 2), text
    return code, text


@pytest.fixture(scope="module")
def log_lines(tmp_path_factory) -> list[str]:
    path = tmp_path_factory.mktemp("log") / "deals.jsonl"
    assert main(["simulate", "wien", "--deals", "4", "--seed", "2", "--log", str(path), "--json"]) == 0
    return path.read_text(encoding="utf-8").splitlines()


def write_log(tmp_path, records) -> Path:
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


# ---- logs ---------------------------------------------------------------------------------------

def test_a_talon_repeating_a_card_of_a_hand_fails_with_its_line(tmp_path, capsys, log_lines):
    recs = [json.loads(x) for x in log_lines]
    recs[2]["talon"][0] = recs[2]["hands"][0][0]
    code, out = run(capsys, "replay", write_log(tmp_path, recs))
    assert code == 1 and "t.jsonl:3:1: E503" in out and "dealt twice" in out


@pytest.mark.parametrize("change, words", [
    (lambda r: r["hands"][1].pop(), "seat 1 holds 9 cards"),
    (lambda r: r["hands"][1].__setitem__(0, "ZZ"), "unknown card"),
    (lambda r: r.__setitem__("dealer", 7), "the dealer must be between 0 and 2"),
    (lambda r: r.__setitem__("dealer", 1.5), "the dealer must be a whole number"),
    (lambda r: r.__setitem__("options", {"stake": 15}), "multiple of 10"),
    (lambda r: r.__setitem__("options", {"evil": 1}), "unknown table option"),
    (lambda r: r["actions"].append([0, "pass"]), "already over"),
    (lambda r: r["actions"].pop(), "ends before the deal does"),
    (lambda r: r["result"].__setitem__("pot", 12345), "the log says"),
])
def test_tampered_log_lines_fail_their_checks(tmp_path, capsys, log_lines, change, words):
    rec = json.loads(log_lines[0])
    change(rec)
    code, out = run(capsys, "replay", write_log(tmp_path, [rec]))
    assert code == 1 and words in out and "t.jsonl:1:1:" in out


@pytest.mark.parametrize("line, words", [
    ('{"rules": "wien", "dealer": Infinity}', "Infinity is not a JSON number"),
    ("[" * 100_000 + "]" * 100_000, "nests deeper than"),
    ("[1, 2]", "must be a JSON object"),
    ("{not json", "not valid JSON"),
    ('{"rules": 5}', "which 'rules'"),
])
def test_unreadable_log_lines_exit_2_with_their_line(tmp_path, capsys, line, words):
    code, out = run(capsys, "replay", write_log(tmp_path, [line]))
    assert code == 2 and words in out and ":1:1:" in out


@pytest.mark.parametrize("actions, words", [(None, "'actions' must be a list"),
                                            ([{"seat": 0, "action": "pass"}], "not a [seat, action] pair")])
def test_actions_of_the_wrong_shape(tmp_path, capsys, log_lines, actions, words):
    rec = json.loads(log_lines[0])
    rec["actions"] = actions
    code, out = run(capsys, "replay", write_log(tmp_path, [rec]))
    assert code == 2 and words in out


def test_an_empty_log_fails(tmp_path, capsys):
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    code, out = run(capsys, "replay", path)
    assert code == 1 and "holds no deals" in out


def test_device_files_are_not_read_without_limit(capsys):
    code, out = run(capsys, "replay", "/dev/zero")
    assert code == 2 and "not a regular file" in out
    code, out = run(capsys, "play", "wien", "--resume", "/dev/zero")
    assert code == 2 and "not a regular file" in out


def test_replay_loads_the_rules_once_per_file(tmp_path, capsys, log_lines, monkeypatch):
    import interpreter.pipeline as pipeline

    calls = []
    original = pipeline.load
    monkeypatch.setattr(pipeline, "load", lambda *a, **k: calls.append(a) or original(*a, **k))
    code, out = run(capsys, "replay", write_log(tmp_path, log_lines))
    assert code == 0 and "replayed 4 deals" in out
    assert len(calls) == 1


def test_new_game_validates_an_explicit_deal():
    from interpreter import load
    from interpreter.engine import new_game
    from interpreter.engine.deals import DealError

    rs = load("wien")
    good = new_game(rs, seed=3)
    hands = [rs.codes(h) for h in good.hands]
    talon = [good.R.codes[c] for c in good.talon]
    new_game(rs, deal={"hands": hands, "talon": talon})
    for bad in ({"hands": hands, "talon": [hands[0][0], talon[1]]}, {"hands": [hands[0], hands[1], []], "talon": talon},
                {"hands": [[], [], []], "talon": []}, {"hands": hands[:2], "talon": talon}):
        with pytest.raises(DealError):
            new_game(rs, deal=bad)


# ---- save files ---------------------------------------------------------------------------------

def play_a_little(tmp_path, capsys) -> Path:
    import io

    from interpreter import load
    from interpreter.present.terminal import play

    save = tmp_path / "game.save"
    play(load("wien"), {}, seed=5, inp=io.StringIO("1\n1\n"), out=io.StringIO(), save=str(save))
    capsys.readouterr()
    return save


def test_saves_are_private_and_replace_only_saves(tmp_path, capsys):
    save = play_a_little(tmp_path, capsys)
    assert stat.S_IMODE(save.stat().st_mode) == 0o600
    assert json.loads(save.read_text().splitlines()[0])["format"] == "stichwort-save"
    os.chmod(save, 0o644)
    play_a_little(tmp_path, capsys)
    assert stat.S_IMODE(save.stat().st_mode) == 0o600
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    code, out = run(capsys, "play", "wien", "--save", notes)
    assert code == 2 and "not a stichwort save" in out and "--force" in out
    assert notes.read_text() == "my notes\n"


def test_a_planted_symlink_at_the_old_temporary_name_is_not_followed(tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    (tmp_path / "game.save.tmp").symlink_to(victim)
    play_a_little(tmp_path, capsys)
    assert victim.read_text() == "precious\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".game.save.")], "a temporary file was left"


@pytest.mark.parametrize("field, value, words", [
    ("seat", 1.5, "the seat must be a whole number"), ("version", 99, "version 99"),
    ("bots", "evil", "unknown bots"), ("options", {"nosuch": 1}, "unknown table option"),
    ("options", {"stake": True}, "takes a whole number"), ("deals", 0, "between 1 and"),
])
def test_tampered_save_headers_are_refused(tmp_path, capsys, field, value, words):
    save = play_a_little(tmp_path, capsys)
    lines = save.read_text().splitlines()
    header = json.loads(lines[0])
    header[field] = value
    save.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    code, out = run(capsys, "play", "wien", "--resume", save)
    assert code == 2 and words in out and ":1:1: E504" in out


def test_a_save_whose_deal_repeats_a_card_is_refused(tmp_path, capsys):
    save = play_a_little(tmp_path, capsys)
    lines = save.read_text().splitlines()
    deal = json.loads(lines[1])
    deal["talon"][0] = deal["hands"][1][0]
    save.write_text("\n".join([lines[0], json.dumps(deal)]) + "\n")
    code, out = run(capsys, "play", "wien", "--resume", save)
    assert code == 2 and "dealt twice" in out and ":2:1: E504" in out


def test_output_refuses_device_nodes(capsys):
    code, out = run(capsys, "explain", "wien", "--format", "markdown", "-o", "/dev/null")
    assert code == 2 and "device or special file" in out
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_failed_write_leaves_the_target_alone(tmp_path, capsys, monkeypatch):
    import interpreter.files as files

    target = tmp_path / "out.md"
    target.write_text("old\n")

    def full_disk(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full_disk)
    code, out = run(capsys, "explain", "wien", "--format", "markdown", "-o", target)
    assert code == 2 and "No space left on device" in out
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"], "the temporary file was left behind"


# ---- streams, pipes and memory ------------------------------------------------------------------

def test_a_broken_pipe_exits_0_quietly():
    status = subprocess.run(f"set -o pipefail; {sys.executable} -m interpreter explain wien | head -1 >/dev/null",
                            shell=True, cwd=ROOT, capture_output=True, timeout=120, executable="/bin/bash")
    assert status.returncode == 0 and not status.stderr, status.stderr


def test_closed_stdin_and_stdout():
    closed_in = subprocess.run(f"{sys.executable} -m interpreter play wien --seed 1 <&-", shell=True, cwd=ROOT,
                               capture_output=True, timeout=120, executable="/bin/bash")
    assert closed_in.returncode == 0 and b"internal error" not in closed_in.stderr
    closed_out = subprocess.run(f"{sys.executable} -m interpreter validate wien >&-", shell=True, cwd=ROOT,
                                capture_output=True, timeout=120, executable="/bin/bash")
    assert closed_out.returncode == 0 and b"internal error" not in closed_out.stderr


def test_a_superscript_digit_at_the_prompt_is_not_a_number(capsys):
    import io

    from interpreter import load
    from interpreter.present.terminal import play

    out = io.StringIO()
    assert play(load("wien"), {}, seed=1, inp=io.StringIO("²\n¹\n"), out=out) == 0
    assert "not a legal action" in out.getvalue()


def test_deal_indices_are_made_lazily():
    from interpreter.harness.batch import chunks

    pieces = chunks(10**12, 250)
    assert next(pieces) == range(0, 250) and next(pieces) == range(250, 500)


def test_an_interrupted_simulation_keeps_its_summary(monkeypatch):
    from interpreter.harness import runner

    real = runner._chunk
    calls = []

    def chunk(args):
        calls.append(1)
        if len(calls) > 2:
            raise KeyboardInterrupt
        return real(args)

    monkeypatch.setattr(runner, "_chunk", chunk)
    summary = runner.simulate("wien", 10**12, 1)
    assert summary["interrupted"] and 0 < summary["deals"] <= 500


@pytest.mark.slow
def test_huge_deal_counts_start_at_once():
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "simulate", "wien", "--deals", "1000000000000",
                             "--json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        import time

        time.sleep(6)
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        with open(f"/proc/{proc.pid}/status") as f:
            rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))
        assert rss < 300_000, f"{rss} kB after 6 s"
        proc.send_signal(2)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and b"interrupted" in err
    assert json.loads(out)["deals"] > 0


def test_the_session_report_balances_with_the_cup(capsys):
    code, out = run(capsys, "simulate", "simple", "--session", "20", "--deals", "6", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["largest_imbalance"] == 0


@pytest.mark.parametrize("rules, words", [("a" * 300 + "/" + "b" * 300, "cannot find the rule file"),
                                          ("/etc/passwd", "is not a rule file")])
def test_the_rules_a_log_names_are_checked_at_its_line(tmp_path, capsys, log_lines, rules, words):
    rec = json.loads(log_lines[0])
    rec["rules"] = rules
    code, out = run(capsys, "replay", write_log(tmp_path, [rec]))
    assert code == 2 and words in out and "t.jsonl:1:1: E502" in out
    assert "root:" not in out
