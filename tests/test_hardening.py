"""Untrusted input at every boundary (issue 14): each example of the issue gets a located diagnostic or
a refusal, and the exit code is 0, 1 or 2 — never a traceback, never "internal error"."""
from __future__ import annotations

import json

import pytest

from interpreter.cli import main

LONG = "a" * 300


def run(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "internal error" not in text and "Traceback" not in text, text
    assert code in (0, 1, 2), text
    return code, text


# ---- rule files ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, text, code", [
    ("big.stw", 'extends "wien"\noption stake { default = ' + "9" * 5000 + " }\n", "E104"),
    ("expr.stw", 'extends "wien"\nlet x = 1 + ' + "7" * 4400 + "\n", "E104"),
    ("hex.yaml", "extends: wien\nplayers: 0x" + "f" * 5000 + "\n", "E104"),
    ("default.yaml", "extends: wien\noption:\n  stake: {default: 0x" + "f" * 600 + "}\n", "E104"),
    ("keys.json", "{{[],[[]]},{{[]}}}", "E113"),
    ("keys.yaml", "{{[],[[]]},{{[]}}}", "E113"),
])
def test_bad_rule_files_get_a_diagnostic(tmp_path, capsys, name, text, code):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    exit_code, out = run(capsys, "validate", str(path))
    assert exit_code == 1
    assert code in out


def test_a_yaml_alias_bomb_is_refused_quickly(tmp_path, capsys):
    lines = ["title: bomb", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 12)]
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert len(path.read_bytes()) < 1000
    code, out = run(capsys, "validate", str(path))
    assert code == 1 and "E103" in out


def test_too_many_aliases_are_refused(tmp_path, capsys):
    path = tmp_path / "many.yaml"
    path.write_text("title: t\nx: &x 1\nlist: [" + ", ".join(["*x"] * 150) + "]\n", encoding="utf-8")
    code, out = run(capsys, "validate", str(path))
    assert code == 1 and "E103 more than 100 YAML aliases" in out


@pytest.mark.parametrize("argv", [
    ["validate", LONG + ".stw"], ["validate", LONG], ["test", LONG + ".yaml"], ["replay", LONG],
    ["simulate", LONG], ["play", LONG], ["explain", "wien", "-o", LONG],
])
def test_paths_longer_than_255_characters_exit_2(capsys, argv):
    code, out = run(capsys, *argv)
    assert code == 2 and "too long" in out


def test_extends_with_a_long_path_is_a_diagnostic(tmp_path, capsys):
    path = tmp_path / "long.stw"
    path.write_text(f'extends "{LONG}/{LONG}.stw"\n', encoding="utf-8")
    code, out = run(capsys, "validate", str(path))
    assert code == 2 and "E130" in out and "long.stw:1:9" in out


def test_extends_never_reads_a_file_that_is_not_a_rule_file(tmp_path, capsys):
    secret = tmp_path / "environ"
    secret.write_text("SECRET_TOKEN=hunter2\n", encoding="utf-8")
    path = tmp_path / "leak.stw"
    path.write_text(f'extends "{secret}"\n', encoding="utf-8")
    code, out = run(capsys, "validate", str(path))
    assert code == 2 and "not a rule file" in out
    assert "hunter2" not in out


def test_control_characters_in_a_source_line_are_escaped(tmp_path, capsys):
    path = tmp_path / "esc.stw"
    path.write_text('extends "wien"\ncontract one { rnak = "\x1b[2J" }\n', encoding="utf-8")
    code, out = run(capsys, "validate", str(path))
    assert code == 1 and "\x1b" not in out and "\\x1b[2J" in out


def test_control_characters_in_a_title_are_escaped_by_explain(tmp_path, capsys):
    path = tmp_path / "title.stw"
    path.write_text('extends "wien"\ntitle = "Evil\x1b[2J\x07 title"\n', encoding="utf-8")
    for fmt in ("terminal", "markdown", "html"):
        code, out = run(capsys, "explain", str(path), "--format", fmt)
        assert code == 0 and "\x1b" not in out and "\x07" not in out and "\\x1b[2J" in out


# ---- command-line values ------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["abc", "10.5", "1/2", "²⁰", "true", "", "1e3", "٣٠"])
def test_a_number_option_takes_whole_numbers_only(capsys, value):
    code, out = run(capsys, "simulate", "wien", "--deals", "1", "--set", f"stake={value}")
    assert code == 2 and "stake takes a whole number" in out


@pytest.mark.parametrize("value, words", [("-5", "below its minimum"), ("15", "multiple of 10"),
                                          ("99999999999999999999", "whole number")])
def test_option_bounds_are_kept(capsys, value, words):
    code, out = run(capsys, "simulate", "wien", "--deals", "1", "--set", f"stake={value}")
    assert code == 2 and words in out


@pytest.mark.parametrize("argv", [
    ["simulate", "wien", "--deals", "1" * 30], ["simulate", "wien", "--deals", "²"],
    ["simulate", "wien", "--deals", "-3"], ["simulate", "wien", "--workers", "0"],
    ["simulate", "wien", "--seed", "9" * 50], ["play", "wien", "--seat", "99"],
    ["simulate", "wien", "--session", "x"], ["simulate", "wien", "--session", "0"], ["simulate", "wien", "--set", "novalue"],
])
def test_bad_numbers_on_the_command_line_exit_2(capsys, argv):
    code, _ = run(capsys, *argv)
    assert code == 2


def test_workers_are_capped_at_the_cores_with_a_warning(capsys, monkeypatch):
    import os

    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    code, out = run(capsys, "simulate", "wien", "--deals", "2", "--workers", "1000", "--json")
    assert code == 0 and "more than the 1 cores here; using 1" in out


# ---- scenario files -----------------------------------------------------------------------------

SHAPES = {
    "accounts: [1, 2]": "'accounts' must be a mapping",
    "accounts: {pot: ten}": "account pot must be a number",
    "accounts: {pot: {}}": "account pot is the table's: give one number",     # found by the fuzz suite
    "accounts: {money: 5}": "give a number for each seat",
    "accounts: {money: {A: x}}": "account money of A must be a number",
    "accounts: {nosuch: 5}": "unknown account",
    "options: {stake: -5}": "below its minimum",
    "options: {stake: true}": "takes a whole number",
    "options: [1]": "'options' must be a mapping",
    "options: {zzz: 1}": "unknown table option",
    "dealer: [A]": "'dealer' must be a name",
}


@pytest.mark.parametrize("line", sorted(SHAPES))
def test_scenario_top_level_shapes(tmp_path, capsys, line):
    path = tmp_path / "s.yaml"
    path.write_text(f"rules: wien\nseats: [A, B, C]\n{line}\ndeals: [{{seed: 1}}]\n", encoding="utf-8")
    code, out = run(capsys, "test", str(path))
    assert code == 2 and SHAPES[line] in out and "s.yaml:" in out


DEAL_SHAPES = {
    "{hands: {A: 5}}": "the hand of A must be a list",
    "{hands: {D: [AH]}}": "unknown seat 'D'",
    "{hands: {A: [[AH]]}}": "a card must be a name",
    "{seed: [1]}": "the seed must be a whole number or a text",
    "{seed: 1, actions: {A: pass}}": "'actions' must be a list",
    "{seed: 1, actions: [{B: [1, 2]}]}": "an action must be a name",
    "{talon: 5}": "'talon' must be a list",
    "{outcome: {contract: one, declarer: A, tricks: {A: x}}}": "the tricks of A must be a whole number",
    "{outcome: {contract: one, declarer: A, tricks: [1]}}": "'tricks' must be a mapping",
    "{outcome: {contract: one, declarer: A, playing: 5}}": "'playing' must be a list",
    "{outcome: {contract: one, declarer: A, kontra: x}}": "'kontra' must be a whole number",
    "{seed: 1, expect: [1]}": "'expect' must be a mapping",
    "5": "deal 1 must be a mapping",
}


@pytest.mark.parametrize("deal", sorted(DEAL_SHAPES))
def test_scenario_deal_shapes(tmp_path, capsys, deal):
    path = tmp_path / "s.yaml"
    path.write_text(f"rules: wien\nseats: [A, B, C]\ndeals:\n- {deal}\n", encoding="utf-8")
    code, out = run(capsys, "test", str(path))
    assert code == 2 and DEAL_SHAPES[deal] in out and "s.yaml:" in out


@pytest.mark.parametrize("text, words", [
    ("rules: wien\nseats: 3\ndeals: [{seed: 1}]\n", "'seats' must name 3 seats"),
    ("rules: wien\nseats: [A, A, C]\ndeals: [{seed: 1}]\n", "names a seat twice"),
    (f"rules: {LONG}\nseats: [A, B, C]\ndeals: [{{seed: 1}}]\n", "too long"),
    ("rules: wien\nseats: [A, B, C]\ndraw: {A: 7H, B: AD, C: 8C}\nexpect_draw: {order: 5}\n", "'order' must be a list"),
    ("rules: wien\nseats: [A, B, C]\ndeals: [{seed: 1}]\nexpect_final: [1]\n", "'expect_final' must be a mapping"),
])
def test_scenario_other_shapes(tmp_path, capsys, text, words):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    code, out = run(capsys, "test", str(path))
    assert code == 2 and words in out


def test_an_alias_bomb_in_a_scenario_is_refused(tmp_path, capsys):
    lines = ["rules: wien", "seats: [A, B, C]", "x0: &x0 [AH, AH, AH, AH, AH, AH, AH, AH, AH]"]
    lines += [f"x{i}: &x{i} [" + ", ".join([f"*x{i - 1}"] * 9) + "]" for i in range(1, 9)]
    lines.append("deals: [{hands: {A: *x8}}]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = run(capsys, "test", str(path))
    assert code == 2 and "expands to more than" in out


# ---- static cost bounds: files that validate run in bounded time --------------------------------

@pytest.mark.parametrize("body, code", [
    ("let f0(x) = x + 1\n" + "".join(f"let f{i}(x) = f{i - 1}(x) + f{i - 1}(x + 1)\n" for i in range(1, 21)), "E320"),
    ("let deep = sum(sum(sum(sum(1 for a in seats) for b in seats) for c in seats) for d in seats)\n", "E321"),
    ("let huge = 2 ^ 2 ^ 2 ^ 2 ^ 2\n", "E322"),
    ("procedure = [auction, talon, after_purchase, defence, play, settle]\n", "E311"),
    ("seating { seats = 7  sit_out = dealer }\n", "E312"),
    ("talon buy { discard = 13 }\n", "E313"),
])
def test_costly_or_impossible_rule_files_do_not_validate(tmp_path, capsys, body, code):
    path = tmp_path / "costly.stw"
    path.write_text('extends "wien"\n' + body, encoding="utf-8")
    exit_code, out = run(capsys, "validate", str(path))
    assert exit_code == 1 and code in out


def test_a_short_let_chain_still_validates(tmp_path, capsys):
    body = "let f0(x) = x + 1\n" + "".join(f"let f{i}(x) = f{i - 1}(x) + f{i - 1}(x + 1)\n" for i in range(1, 6))
    path = tmp_path / "fine.stw"
    path.write_text('extends "wien"\n' + body, encoding="utf-8")
    code, out = run(capsys, "validate", str(path))
    assert code == 0, out


def test_every_built_in_game_is_within_the_bounds(capsys):
    code, out = run(capsys, "validate", "--json")
    assert not any(d["code"] in {"E311", "E312", "E313", "E320", "E321", "E322"}
                   for r in json.loads(out) for d in r["diagnostics"])


def test_help_of_every_command(capsys):
    """Found by the fuzz suite: a '%' in a help text broke `stichwort --help`."""
    from interpreter.cli import build_parser

    code, out = run(capsys, "--help")
    assert code == 0 and "validate" in out
    commands = build_parser()._subparsers._group_actions[0].choices      # type: ignore[union-attr]
    for name in commands:
        code, out = run(capsys, name, "--help")
        assert code == 0 and name in out
