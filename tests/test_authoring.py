"""Authoring house rules: variants that edit inherited lists entry by entry, and the shipped variants
rewritten with those edits, which must produce the same rules document as before."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.diagnostics import DiagnosticError
from interpreter.language.loader import load
from interpreter.pipeline import check

ROOT = Path(__file__).resolve().parent.parent
BEFORE = ROOT / "tests" / "authoring" / "before"

# The shipped variants, as they were written before list edits existed (tests/authoring/before/).
VARIANTS = sorted(p.stem for p in BEFORE.glob("*.stw"))


def write(tmp_path: Path, text: str, name: str = "v.stw") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def errors(target: str) -> list:
    report = check(target, positions=True)
    return [d for d in report.diagnostics if d.severity == "error"]


def test_every_rewritten_variant_is_kept_for_comparison():
    assert {"wien-hearts", "wien-trumpf", "wien-five-six", "serbian", "slovenian", "serbian-preferans"} <= set(VARIANTS)


@pytest.mark.parametrize("name", VARIANTS)
def test_rewritten_variant_gives_the_same_document(name):
    """The old text (over the same bases) and the shipped text give the same merged document."""
    old = load(str(BEFORE / f"{name}.stw")).doc
    new = load(name).doc
    old.pop("title", None), new.pop("title", None)
    assert new == old


def test_rewritten_variants_are_shorter_where_they_restated_lists():
    def lines(p: Path) -> int:
        return len(p.read_text(encoding="utf-8").splitlines())
    shipped = {p.stem: p for p in (ROOT / "games").rglob("*.stw")}
    for name in ("wien-hearts", "wien-trumpf", "wien-five-six"):
        assert lines(shipped[name]) < lines(BEFORE / f"{name}.stw"), name


BASE = """
title = "t"
players = 3
seating { direction = clockwise }
deck { suits = [C, S, D, H]  ranks = [7, 8, 9, 10, J, Q, K, A] }
deal { packets = table {
  | name  | to    | cards |
  | first | each  | 5     |
  | talon | talon | 2     |
  | last  | each  | 5     |
} }
procedure = [auction, contract, play, settle]
auction { first = next(dealer) }
call one { rank = 1  contracts = [one, two] }
call two { rank = 2  contracts = [two] }
table contract {
  | contract | rank | trump | goal                  | defence |
  | one      | 1    | C     | tricks(declarer) >= 6 | all     |
  | two      | 2    | S     | tricks(declarer) >= 6 | all     |
}
play { lead = declarer  obligations = [follow_suit, must_beat] }
settle { pay = table {
  | name  | when     | each      | from     | to       | amount |
  | won   | made     | defenders | s        | declarer | 1      |
  | lost  | not made | defenders | declarer | s        | 1      |
} }
"""


def test_insert_after_before_and_at_the_end(tmp_path):
    write(tmp_path, BASE, "base.stw")
    v = write(tmp_path, """extends "base"
insert must_trump into play.obligations after follow_suit
insert [lowest_winner] into play.obligations before follow_suit
insert table {
  | name  | when | to       | amount |
  | bonus | made | declarer | 2      |
} into settle.pay after won
insert hold_back into play.obligations
""")
    doc = load(v).doc
    assert doc["play"]["obligations"] == ["lowest_winner", "follow_suit", "must_trump", "must_beat", "hold_back"]
    assert [r["name"] for r in doc["settle"]["pay"]] == ["won", "bonus", "lost"]
    assert errors(v) == []


def test_replace_set_and_remove_entries(tmp_path):
    write(tmp_path, BASE, "base.stw")
    v = write(tmp_path, """extends "base"
settle.pay[won].amount = 2
replace settle.pay[lost] { name = lost  when = not made  to = declarer  amount = -3 }
remove deal.packets[talon]
replace deal.packets[first] { name = first  to = each  cards = 6 }
remove call.one.contracts[two]
""")
    doc = load(v).doc
    assert doc["settle"]["pay"][0] == {"name": "won", "when": "made", "each": "defenders", "from": "s", "to": "declarer", "amount": 2}
    assert doc["settle"]["pay"][1] == {"name": "lost", "when": "not made", "to": "declarer", "amount": -3}
    assert [p["name"] for p in doc["deal"]["packets"]] == ["first", "last"]
    assert doc["call"]["one"]["contracts"] == ["one"]


def test_items_written_once_for_several(tmp_path):
    write(tmp_path, BASE, "base.stw")
    v = write(tmp_path, 'extends "base"\ncontract [one, two] { early_end = tricks(declarer) > 6 }\n')
    doc = load(v).doc
    assert doc["contract"]["one"]["early_end"] == doc["contract"]["two"]["early_end"] == "tricks(declarer) > 6"
    assert doc["contract"]["one"]["trump"] == "C"


@pytest.mark.parametrize("edit, code, line_text, suggestion", [
    ("insert must_trump into play.obligations after follow_sut", "E135", "follow_sut", "follow_suit"),
    ("settle.pay[wonn].amount = 2", "E135", "settle.pay[wonn]", "won"),
    ("remove call.one.contracts[three]", "E135", "call.one.contracts[three]", None),
    ("insert x into play.obligation", "E134", "play.obligation", "obligations"),
    ("insert follow_suit into play.obligations", "E136", "follow_suit", None),
    ("replace play.lead[x] declarer", "E134", "play.lead[x]", None),
])
def test_edit_mistakes_are_located_in_the_variant(tmp_path, edit, code, line_text, suggestion):
    write(tmp_path, BASE, "base.stw")
    v = write(tmp_path, f'extends "base"\n{edit}\n')
    with pytest.raises(DiagnosticError) as err:
        load(v)
    (d,) = err.value.diagnostics
    assert d.code == code
    assert d.file.endswith("v.stw") and d.span is not None and d.span.line == 2
    assert line_text in edit[d.span.col - 1:d.span.end_col - 1] or edit[d.span.col - 1:].startswith(line_text)
    if suggestion:
        assert suggestion in d.suggestions


def test_a_mistake_inside_an_inserted_row_points_at_the_variant(tmp_path):
    write(tmp_path, BASE, "base.stw")
    v = write(tmp_path, 'extends "base"\ninsert { rule = must_trum } into play.obligations\n')
    (d,) = errors(v)
    assert d.file.endswith("v.stw") and d.span.line == 2


def test_shifted_base_rows_keep_their_own_lines(tmp_path):
    """An error in a base row that an insert moved down is still reported at the base's line."""
    bad = BASE.replace("| lost  | not made | defenders | declarer | s        | 1      |",
                       "| lost  | not made | defenders | declarer | s        | nonsense_name |")
    write(tmp_path, bad, "base.stw")
    v = write(tmp_path, 'extends "base"\ninsert { name = first  to = declarer  amount = 0 } into settle.pay before won\n')
    diags = errors(v)
    assert diags and all(d.file.endswith("base.stw") for d in diags)
    base_line = next(i for i, ln in enumerate(bad.splitlines(), 1) if "nonsense_name" in ln)
    assert diags[0].span.line == base_line


def test_edits_in_yaml_spelling(tmp_path):
    write(tmp_path, BASE, "base.stw")
    v = write(tmp_path, """extends: base
edit:
  - insert: play.obligations
    value: must_trump
    after: follow_suit
remove: ["call.one.contracts[two]"]
""", "v.yaml")
    doc = load(v).doc
    assert doc["play"]["obligations"] == ["follow_suit", "must_trump", "must_beat"]
    assert doc["call"]["one"]["contracts"] == ["one"]


WARNINGS = sorted((ROOT / "tests" / "diagnostics" / "cases" / "warnings").glob("*.stw"))


@pytest.mark.parametrize("case", WARNINGS, ids=lambda p: p.name)
def test_warning_goldens(case, monkeypatch, capsys):
    """Files that are valid but carry a warning: exit 0, the warning shown with its line (golden)."""
    from interpreter.cli import main

    monkeypatch.chdir(ROOT)
    code = main(["validate", case.relative_to(ROOT).as_posix()])
    out = capsys.readouterr().out
    assert code == 0
    assert f"# exit {code}\n{out}" == case.with_suffix(".out").read_text(encoding="utf-8")
    assert " W3" in out


def test_new_golden_cases_cover_the_new_codes():
    cases = ROOT / "tests" / "diagnostics" / "cases"
    text = "".join(p.read_text(encoding="utf-8") for p in list(cases.glob("*.out")) + list(cases.glob("warnings/*.out")))
    for code in ("E134", "E135", "E136", "E330", "W331", "W332", "W333", "W334"):
        assert f": {code} " in text, code
    assert "= note: tests/diagnostics/cases/helpers/house_base.stw:" in text


def test_statements_for_every_item_with_a_field_value(tmp_path):
    write(tmp_path, BASE, "base.stw")
    v = write(tmp_path, 'extends "base"\ncontract [trump = S] { early_end = tricks(declarer) > 6 }\n')
    doc = load(v).doc
    assert doc["contract"]["two"]["early_end"] == "tricks(declarer) > 6"
    assert "early_end" not in doc["contract"]["one"]


def test_each_form_errors_point_at_the_variant(tmp_path):
    write(tmp_path, BASE, "base.stw")
    v = write(tmp_path, 'extends "base"\ncontract [trump = X] { early_end = true }\n')
    with pytest.raises(DiagnosticError) as err:
        load(v)
    (d,) = err.value.diagnostics
    assert (d.code, d.span.line) == ("E135", 2) and "trump is one of: C, S" in d.help
    v = write(tmp_path, 'extends "base"\ncontract [trump = S] { early_end = tricks(declarer) > nonsense }\n', "w.stw")
    (d,) = errors(v)
    assert d.code == "E401" and d.file.endswith("w.stw") and d.span.line == 2


def test_one_mistake_in_a_shared_block_is_reported_once(tmp_path):
    write(tmp_path, BASE, "base.stw")
    v = write(tmp_path, 'extends "base"\ncontract [one, two] { early_end = nonsense }\n')
    assert [d.code for d in errors(v)] == ["E401"]


def test_W333_scoring_fields_nobody_reads_change_nothing(tmp_path):
    """W333's claim, checked on the engine: wien's payments never say contract.level, .value or .game, so a
    variant that sets all three on every contract is warned once per field and plays every deal exactly
    as wien does."""
    import random

    from interpreter.engine import new_game
    from interpreter.pipeline import load as load_rules

    v = write(tmp_path, 'extends "wien"\ncontract [defence = ask] { level = 7  value = 12  game = true }\n'
                     'contract [defence = all] { level = 8  value = 2  game = false }\n')
    report = check(v, positions=True)
    warned = sorted(d.message.split("'")[1] for d in report.diagnostics if d.code == "W333")
    assert report.ok and warned == ["game", "level", "value"]
    base, house = load_rules("wien"), load_rules(v)
    for seed in range(150):
        pick = random.Random(seed)
        a, b = new_game(base, seed=seed), new_game(house, seed=seed)
        while not a.is_over():
            legal = a.legal_actions()
            assert b.legal_actions() == legal
            act = legal[pick.randrange(len(legal))]
            a.apply(act)
            b.apply(act)
        assert b.is_over() and a.result() == b.result()


def test_W333_not_given_where_an_expression_reads_the_field(tmp_path):
    v = write(tmp_path, 'extends "croatian"\ncontract.two.value = 9\n')
    assert not [d for d in check(v, positions=True).diagnostics if d.code == "W333"]
