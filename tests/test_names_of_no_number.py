"""A name the file gives to things of several kinds (Croatian's `sanac` is a call and a contract) is no
number: written where a number is asked (a payment, an account's start, arithmetic through a let) it is
E402 at validate, where it used to validate and then stop both backends alike with a TypeError (the long
fuzz run of issue 38 found five such files). Compared by name it stays valid."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.pipeline import check


def _codes(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "house.stw"
    path.write_text(text, encoding="utf-8")
    return [d.code for d in check(str(path)).diagnostics if d.severity == "error"]


@pytest.mark.parametrize("text", [
    'extends "croatian"\naccount extra { per = seat  initial = sanac }\n',
    'extends "wien"\nlet x = eight\nlet y = x + 1\n',
    'extends "wien"\nlet y = if made then eight else 2\n',
])
def test_a_name_of_several_kinds_is_no_number(tmp_path, text):
    assert "E402" in _codes(tmp_path, text)


def test_a_name_of_several_kinds_still_compares_by_name(tmp_path):
    assert _codes(tmp_path, 'extends "wien"\nlet z = if contract == eight then eight else seven\n') == []


def test_none_is_no_number(tmp_path):
    """The expression `none` as an account's start validated, then the first payment met None (issue 38's fuzz
    run, a JSON file; in a .stw file `initial = none` leaves the field unset)."""
    path = tmp_path / "house.json"
    path.write_text('{"extends": "koenigrufen", "account": {"money": {"initial": "none"}}}', encoding="utf-8")
    assert "E402" in [d.code for d in check(str(path)).diagnostics if d.severity == "error"]
