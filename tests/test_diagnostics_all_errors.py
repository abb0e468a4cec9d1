"""All errors in one run: when the schema rejects a file, `validate` also reports the semantic
diagnostics of what the schema errors leave standing (interpreter/checks/pruning.py), and none that
only the pruning of the rejected parts causes."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import checks, pipeline
from interpreter.checks import pruning, schema
from interpreter.diagnostics import Span
from interpreter.language.document import SourceMap
from interpreter.language.loader import Origins, load
from interpreter.lsp import analysis

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "diagnostics" / "cases"


def test_a_schema_error_and_an_unknown_name_are_reported_in_one_run():
    report = pipeline.check(str(CASES / "all_errors_schema_and_name.stw"))
    assert [d.code for d in report.diagnostics] == ["E201", "E301"]
    assert "'fuor'" in report.diagnostics[1].message and report.diagnostics[1].suggestions == ["four"]
    assert report.ruleset is None and not report.ok


def test_the_language_server_reports_the_same():
    path = CASES / "all_errors_schema_and_name.stw"
    got = analysis.check_text(path, path.read_text(encoding="utf-8")).diagnostics
    want = pipeline.check(str(path)).diagnostics
    assert [(d.code, d.message, d.span) for d in got] == [(d.code, d.message, d.span) for d in want]


def test_a_reference_to_a_pruned_definition_is_not_reported():
    report = pipeline.check(str(CASES / "all_errors_pruning_artefact.stw"))
    assert [d.code for d in report.diagnostics] == ["E204"]


def test_an_error_in_a_section_the_game_hangs_on_gives_the_schema_errors_only(tmp_path):
    path = tmp_path / "deck.stw"
    path.write_text('extends "wien"\n\ndeck { suits = [C, S, D, "hearts red"] }\n'
                    'call four { contracts = [four, fuor] }\n', encoding="utf-8")
    report = pipeline.check(str(path))
    assert [d.code for d in report.diagnostics] == ["E205"]
    assert report.ruleset is None


def test_pruning_renumbers_the_items_after_a_removed_one():
    doc = {"a": [{"x": 1}, {"x": 2}, {"x": 3}], "b": {"c": 1}}
    span = [Span(i, 1, i, 2) for i in range(6)]
    smap = SourceMap("f", values={"/a/0": span[0], "/a/1": span[1], "/a/1/x": span[2], "/a/2": span[3],
                                  "/a/2/x": span[4], "/b/c": span[5]})
    moved = pruning._renumbered(Origins([smap], ["f"]), doc, {("a", 1)})
    assert moved.layers[0].values == {"/a/0": span[0], "/a/1": span[3], "/a/1/x": span[4], "/b/c": span[5]}
    assert pruning._pruned(doc, [("a", 1), ("b", "c")]) == {"a": [{"x": 1}, {"x": 3}], "b": {}}
    assert doc["a"][1] == {"x": 2}   # the document itself is left as it was


def _nodes(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield path + (k,)
            yield from _nodes(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield path + (i,)
            yield from _nodes(v, path + (i,))


def _mutants(doc: dict, path: tuple):
    """`doc` with the node at `path` broken: a value of a kind no field takes, or, for a key, renamed
    to a name that is not one."""
    for bad in (0.5, [[["x"]]]):
        copy = pruning._copy(doc)
        pruning._at(copy, path[:-1])[path[-1]] = bad
        yield copy
    if isinstance(path[-1], str):
        copy = pruning._copy(doc)
        parent = pruning._at(copy, path[:-1])
        items = list(parent.items())
        parent.clear()
        parent.update({(k + " x" if k == path[-1] else k): v for k, v in items})
        yield copy


@pytest.mark.parametrize("game", ["wien/wien-hearts.stw", "koenigrufen/koenigrufen.stw", "priffe/priffe.stw",
                                  "croatian/croatian.stw"])
@pytest.mark.slow
def test_one_broken_node_of_a_valid_game_causes_no_semantic_error(game):
    """A valid game with one node broken has one mistake, which the schema reports: any semantic
    diagnostic not given for the game itself would be an artefact of the pruning."""
    loaded = load(str(ROOT / "games" / game))
    assert not schema.check(loaded.doc, loaded.origins)
    before = {pruning._key(d) for d in checks.run(loaded.doc, loaded.origins, loaded.sources).diagnostics}
    paths = list(_nodes(loaded.doc))
    checked = 0
    for path in paths[:: max(1, len(paths) // 60)]:
        for doc in _mutants(loaded.doc, path):
            shown = schema.check(doc, loaded.origins)
            if not shown:
                continue
            checked += 1
            extra = [d for d in pruning.semantic_diagnostics(doc, loaded.origins, loaded.sources, shown)
                     if pruning._key(d) not in before]
            assert not extra, f"{path}: {[f'{d.location()} {d.code} {d.message}' for d in extra]}"
    assert checked > 60


def test_a_section_keyword_in_an_expression_does_not_hide_its_error(tmp_path):
    """A pruned contract field leaves `contract.premum` elsewhere reported: the word 'contract' names
    the section, not anything the pruning took out."""
    f = tmp_path / "v.stw"
    f.write_text('extends "wien"\nlet x = trciks(declarer) + contract.premum\ncontract.one.defence = asc\n',
                 encoding="utf-8")
    codes = [d.code for d in pipeline.check(str(f)).diagnostics]
    assert codes == ["E204", "E401", "E330"]
