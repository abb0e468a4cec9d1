"""The language server reads a name as what it is written as (issue 34's faults): hover on a
function shows the function, not a key of the same name; a key shows the key; declared items are
shown in the rule file's spelling (true, false, none), never Python's; completion offers only what
fits where the cursor stands and begins with what is typed. Protocol-free: interpreter/lsp/analysis."""
from __future__ import annotations

from pathlib import Path

from interpreter.lsp import analysis

ROOT = Path(__file__).resolve().parent.parent
WIEN = ROOT / "games" / "wien" / "wien.stw"


def _at(text: str, needle: str, offset: int = 1) -> tuple[int, int]:
    """(line, column) of the first occurrence of `needle`, `offset` characters into it."""
    for i, line in enumerate(text.splitlines()):
        if needle in line:
            return i, line.index(needle) + offset
    raise AssertionError(needle)


def _loaded(text: str, path: Path = WIEN):
    return analysis.check_text(path, text).loaded


def test_hover_on_a_called_function_shows_only_the_function():
    text = WIEN.read_text()
    line, col = _at(text, "early_end = tricks(", len("early_end = t"))
    shown = analysis.hover(text, line, col, _loaded(text))
    assert shown is not None and "tricks taken by a seat" in shown
    assert "into_tricks" not in shown and "talon" not in shown          # the talon key 'tricks' is another thing


def test_hover_on_a_key_shows_the_key():
    text = 'extends "wien"\ntalon dead { kind = into_tricks  tricks = 6 }\n'
    line, col = _at(text, "tricks = 6")
    shown = analysis.hover(text, line, col, None)
    assert shown is not None and "into_tricks" in shown and "taken by a seat" not in shown


def test_hover_on_a_declared_item_speaks_the_rule_file():
    text = WIEN.read_text()
    line, col = _at(text, "talon buy", len("talon b"))
    shown = analysis.hover(text, line, col, _loaded(text))
    assert shown is not None and "exposed = false" in shown
    assert "False" not in shown and "None" not in shown and "True" not in shown


def test_completion_in_an_expression_offers_names_beginning_with_what_is_typed():
    text = WIEN.read_text() + "\ncontract one { goal = tri"
    line = len(text.splitlines()) - 1
    labels = [label for label, _, _ in analysis.completions(_loaded(WIEN.read_text()), text, line, len(text.splitlines()[-1]))]
    assert "tricks" in labels and "tricks_played" in labels
    assert all(label.startswith("tri") for label in labels)


def test_completion_where_a_key_stands_offers_keys_only():
    text = WIEN.read_text() + "\nplay { obl"
    line = len(text.splitlines()) - 1
    found = analysis.completions(_loaded(WIEN.read_text()), text, line, len(text.splitlines()[-1]))
    assert [label for label, _, _ in found] == ["obligations"] and found[0][1] == "key"


def test_completion_is_a_small_part_of_every_name():
    everything = analysis.completions(None)
    text = "play { lead = fo"
    some = analysis.completions(None, text, 0, len(text))
    assert 0 < len(some) < len(everything) / 20 and all(label.startswith("fo") for label, _, _ in some)
