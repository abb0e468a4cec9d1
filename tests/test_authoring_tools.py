"""`stichwort fmt` and `stichwort diff`: the canonical layout of rule files, and what a variant
changes, rule by rule."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.language.document import build
from interpreter.language.format import format_text
from interpreter.language.parser import parse
from interpreter.present.diff import changes, diff
from interpreter.resources import games_dir

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted(games_dir().rglob("*.stw"))


def test_every_shipped_file_is_formatted(capsys):
    assert main(["fmt", "--check", str(games_dir()), str(ROOT / "docs" / "examples")]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_format_is_idempotent_and_keeps_meaning_and_comments(path):
    text = path.read_text(encoding="utf-8")
    # undo the layout: flatten every indentation and misalign the tables
    messy = "\n".join(("\t" if i % 3 else "") + line.strip().replace(" | ", "|") for i, line in enumerate(text.splitlines()))
    once = format_text(messy, path.name)
    assert format_text(once, path.name) == once
    assert build(parse(once, "a"), "a")[0] == build(parse(text, "b"), "b")[0]
    assert [ln.strip() for ln in once.splitlines() if ln.strip().startswith("#")] == \
        [ln.strip() for ln in text.splitlines() if ln.strip().startswith("#")]


def test_format_layout_rules():
    text = ('# head\n\n\n\ntitle="x"   \ndeck {\nsuits = [C,\n    S]   # the suits\n'
            '         # second line of that comment\n}\n'
            'settle { pay = table {\n| to | amount |\n|---|---|\n| declarer | 1 |\n} }\n'
            'let f(s) = if s == 1 then 2\n             else 3\n')
    out = format_text(text)
    assert out == ('# head\n\ntitle="x"\ndeck {\n  suits = [C,\n    S]   # the suits\n'
                   '         # second line of that comment\n}\n'
                   'settle { pay = table {\n    | to       | amount |\n    | -------- | ------ |\n    | declarer | 1      |\n} }\n'
                   'let f(s) = if s == 1 then 2\n             else 3\n')
    assert format_text(out) == out


def test_fmt_rewrites_and_check_reports(tmp_path, capsys):
    path = tmp_path / "x.stw"
    path.write_text("deck {\nsuits = [C]\n}\n", encoding="utf-8")
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    assert "would reformat" in capsys.readouterr().out
    assert path.read_text(encoding="utf-8") == "deck {\nsuits = [C]\n}\n"
    assert main(["fmt", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == "deck {\n  suits = [C]\n}\n"
    assert main(["fmt", "--check", str(path)]) == 0


def test_fmt_reports_a_syntax_error_with_its_line(tmp_path, capsys):
    path = tmp_path / "bad.stw"
    path.write_text("deck {\n  suits = [C\n}\n", encoding="utf-8")
    assert main(["fmt", str(path)]) == 1
    err = capsys.readouterr().err
    assert "bad.stw:3:1" in err
    assert main(["fmt", str(tmp_path / "missing")]) == 2


def test_diff_wien_hearts_names_what_goes():
    text = diff("wien", "wien-hearts")
    assert "wien → wien-hearts" in text
    assert "Procedure\n  − after_purchase" in text
    assert "Calls\n  − five, five_wp, six" in text
    assert "After-purchase\n  − removed" in text
    assert "Payments" not in text        # the payment rows are the base's


def test_diff_croatian_serbian_is_rules_level():
    text = diff("croatian", "serbian")
    assert "direction: clockwise → counterclockwise" in text
    # croatian speaks each call by its name (no `word`); serbian gives the calls its own words
    assert "~ game: contracts: − bettel_g, sanac_g  (now [two_g, three_g, four_g, five_g]); word: + igra" in text
    assert "+ two_refa: default = true" in text
    assert "+ sans_lead = " in text


def test_diff_against_the_base_and_in_markdown(capsys):
    assert main(["diff", "wien-trumpf", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# What wien-trumpf changes relative to wien")
    assert "## Play\n\n- obligations: + must_trump" in out


def test_diff_of_payment_rows(tmp_path):
    a = {"settle": {"pay": [{"name": "x", "to": "pot", "amount": 1}, {"to": "s", "amount": 2, "note": "n"}]}}
    b = {"settle": {"pay": [{"name": "x", "to": "pot", "amount": 3}, {"name": "y", "to": "d", "amount": 4}]}}
    (sec,) = changes(a, b)
    assert sec.heading == "Payments"
    assert "pay: ~ row 'x': amount: 1 → 3" in sec.lines
    assert any(line.startswith("pay: − row \"n\"") for line in sec.lines)
    assert any(line.startswith("pay: + row 'y'") for line in sec.lines)


def test_diff_of_a_file_without_base_is_a_clear_error(capsys):
    assert main(["diff", "wien"]) == 2
    assert "extends no base" in capsys.readouterr().err


def test_identical_rules_say_so():
    assert diff("wien", "wien") == "wien makes no change to the rules of wien.\n"
