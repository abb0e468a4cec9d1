"""A talon procedure or an all-pass contract given by an expression must give a name (issue 38's long
fuzz run: `talon = "2 + 1"` on a contract validated, then every deal of that contract stopped with
"the talon procedure is given as '3'"): a number there is E402 at validate; a name chosen by a
decision stays valid."""
from __future__ import annotations

from pathlib import Path

from interpreter.pipeline import check


def _errors(tmp_path: Path, name: str, text: str) -> list[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [f"{d.code} {d.message}" for d in check(str(path)).diagnostics if d.severity == "error"]


def test_a_talon_given_as_a_number_is_refused(tmp_path):
    doc = '{"extends": "koenigrufen", "contract": {"solodreier": {"talon": "2 + 1"}}}'
    (found,) = _errors(tmp_path, "house.json", doc)
    assert found.startswith("E402") and "contract.talon must give a name" in found


def test_an_all_pass_contract_given_as_a_number_is_refused(tmp_path):
    found = _errors(tmp_path, "house.stw", 'extends "wien"\nauction { all_pass { contract = if true then 1 else 2 } }\n')
    assert any(f.startswith("E402") and "a contract" in f for f in found), found


def test_a_talon_chosen_by_name_stays_valid(tmp_path):
    assert _errors(tmp_path, "house.stw", 'extends "skat"\n') == []


def test_a_talon_given_as_true_is_refused(tmp_path):
    doc = '{"extends": "wien", "call": {"eight_wp": {"talon": true}}}'
    (found,) = _errors(tmp_path, "house.json", doc)
    assert found.startswith("E402") and "must give a name, but this is true" in found
