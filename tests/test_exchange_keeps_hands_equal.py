"""An exchange with the talon leaves the declarer as many cards as every other seat (issue 38's long fuzz
run: `talon buy { discard = 5 }` in simple validated, then a deal stopped with an internal error when the
declarer's hand ran out before the tricks did): a discard other than what is taken is E313 at validate."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.pipeline import check


def _errors(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "house.stw"
    path.write_text(text, encoding="utf-8")
    return [f"{d.code} {d.message}" for d in check(str(path)).diagnostics if d.severity == "error"]


@pytest.mark.parametrize("discard", [0, 1, 3, 5])
def test_a_discard_other_than_the_cards_taken_is_refused(tmp_path, discard):
    (found,) = _errors(tmp_path, f'extends "simple"\ntalon buy {{ discard = {discard} }}\n')
    assert found.startswith("E313") and f"discards {discard}" in found and "every other seat 10" in found


def test_the_same_number_taken_and_discarded_is_fine(tmp_path):
    assert _errors(tmp_path, 'extends "simple"\ntalon buy { discard = 2 }\n') == []
