"""The documentation stays true: docs/vocabulary.md is what tools/render_docs.py renders from the
schema and interpreter/vocabulary.py; docs/language.md names every top-level section and every
error code; every example file validates; every ```stw block of language.md parses, and the
blocks marked `# complete file` validate as whole rule files."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.diagnostics import DiagnosticError
from interpreter.language.parser import parse

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LANGUAGE = DOCS / "language.md"
EXAMPLES = sorted((DOCS / "examples").glob("*.stw")) + sorted((DOCS / "examples").glob("*.yaml")) \
    + sorted((DOCS / "examples").glob("*.json"))
COMPLETE = "# complete file"
COMPLETE_PENDING = "# complete file, not playable yet"


def _renderer():
    spec = importlib.util.spec_from_file_location("render_docs", ROOT / "tools" / "render_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stw_blocks() -> list[tuple[int, str]]:
    """(line number, text) of every ```stw block in language.md."""
    text = LANGUAGE.read_text(encoding="utf-8")
    out = []
    for m in re.finditer(r"^```stw\n(.*?)^```$", text, flags=re.S | re.M):
        out.append((text[: m.start()].count("\n") + 1, m.group(1)))
    return out


def test_vocabulary_md_is_up_to_date():
    render_docs = _renderer()
    expected = render_docs.render()
    current = (DOCS / "vocabulary.md").read_text(encoding="utf-8")
    assert current == expected, "docs/vocabulary.md is out of date: run python tools/render_docs.py"


def test_vocabulary_md_describes_every_section_field_and_builtin():
    from interpreter.model.vocabulary import COMPREHENSIONS, ENTRIES, FUNCTIONS, VALUES

    text = (DOCS / "vocabulary.md").read_text(encoding="utf-8")
    schema = json.loads((ROOT / "grammar" / "stichwort.schema.json").read_text(encoding="utf-8"))
    for key in schema["properties"]:
        assert f"## `{key}`" in text, key
    for name in VALUES:
        assert f"| `{name}` |" in text or f"| `{name}` **pending** |" in text, name
    for e in ENTRIES:       # every registry entry with its example, pending ones marked
        assert f"`{e.example}`" in text, e.name
        if e.pending:
            assert f"`{e.name}" in text and "**pending**" in text, e.name
    for name in FUNCTIONS:
        assert f"`{name}(" in text, name
    for name in COMPREHENSIONS:
        assert f"`{name}(… for x in …)`" in text, name


def test_render_docs_check_mode_detects_a_stale_file(tmp_path, monkeypatch):
    render_docs = _renderer()
    stale = tmp_path / "vocabulary.md"
    stale.write_text("# stale\n", encoding="utf-8")
    monkeypatch.setattr(render_docs, "OUT", stale)
    monkeypatch.setattr(render_docs, "ROOT", tmp_path)
    assert render_docs.main(["--check"]) == 1
    assert render_docs.main([]) == 0
    assert render_docs.main(["--check"]) == 0


def test_language_md_names_every_top_level_section():
    text = LANGUAGE.read_text(encoding="utf-8")
    schema = json.loads((ROOT / "grammar" / "stichwort.schema.json").read_text(encoding="utf-8"))
    missing = [key for key in schema["properties"] if f"`{key}`" not in text]
    assert not missing, f"language.md does not mention: {missing}"


def test_language_md_lists_every_error_code():
    used = set()
    for path in (ROOT / "interpreter").rglob("*.py"):
        used.update(re.findall(r"\"(E\d{3})\"", path.read_text(encoding="utf-8")))
    text = LANGUAGE.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| (E\d{3}) \|", text, flags=re.M))
    assert used, "no error codes found in interpreter/"
    assert used <= documented, f"error codes missing from the table in language.md: {sorted(used - documented)}"


def test_there_are_example_files():
    assert any(p.name == "house-variant.stw" for p in EXAMPLES)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_file_validates(path, capsys):
    assert main(["validate", str(path)]) == 0, capsys.readouterr().out


def test_house_variant_changes_what_it_says():
    from interpreter import load

    base, house = load("wien"), load(str(DOCS / "examples" / "house-variant.stw"))
    assert (base.options["stake"], base.options["maximum"]) == (10, 30)
    assert (house.options["stake"], house.options["maximum"]) == (20, 50)
    assert house.doc["option"]["stake"]["min"] == base.doc["option"]["stake"]["min"]  # maps merge
    rules = [o if isinstance(o, str) else o["rule"] for o in house.doc["play"]["obligations"]]
    assert rules == ["follow_suit", "must_trump", "must_beat", "lowest_winner"]
    assert "must_trump" not in [o if isinstance(o, str) else o["rule"] for o in base.doc["play"]["obligations"]]


def test_house_variant_in_language_md_is_the_example_file():
    body = (DOCS / "examples" / "house-variant.stw").read_text(encoding="utf-8")
    assert any(block == body for _, block in _stw_blocks()), "the tutorial's block differs from docs/examples/house-variant.stw"


def test_language_md_has_complete_files():
    assert sum(1 for _, b in _stw_blocks() if b.startswith(COMPLETE)) >= 5


@pytest.mark.parametrize("line, block", _stw_blocks(), ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_language_md_stw_block(line, block, tmp_path, capsys):
    try:
        parse(block, f"language.md:{line}")
    except DiagnosticError as err:
        pytest.fail(f"the stw block at language.md line {line} does not parse: {err}")
    if block.startswith(COMPLETE_PENDING):   # documents a mechanism the engine does not implement yet
        path = tmp_path / f"block-{line}.stw"
        path.write_text(block, encoding="utf-8")
        assert main(["validate", str(path), "--json"]) == 1
        [report] = json.loads(capsys.readouterr().out)
        assert {d["code"] for d in report["diagnostics"] if d["severity"] == "error"} == {"E410"}
    elif block.startswith(COMPLETE):
        path = tmp_path / f"block-{line}.stw"
        path.write_text(block, encoding="utf-8")
        assert main(["validate", str(path)]) == 0, capsys.readouterr().out


def _anchors(text: str) -> set[str]:
    """GitHub's anchors for the headings of a markdown text."""
    out = set()
    for m in re.finditer(r"^#{1,6} (.+)$", text, flags=re.M):
        out.add(re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-"))
    return out


@pytest.mark.parametrize("name", ["language.md", "vocabulary.md"])
def test_links_between_the_docs_resolve(name):
    text = (DOCS / name).read_text(encoding="utf-8")
    text_wo_code = re.sub(r"^```.*?^```$", "", text, flags=re.S | re.M)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text_wo_code):
        if target.startswith(("http://", "https://")):
            continue
        file, _, frag = target.partition("#")
        doc = (DOCS / file) if file else DOCS / name
        if not doc.exists() or frag and frag not in _anchors(doc.read_text(encoding="utf-8")):
            broken.append(target)
    assert not broken, f"broken links in {name}: {broken}"


def test_three_spellings_of_the_house_variant_are_one_document():
    from interpreter import load
    from interpreter.model.ruleset import thaw

    docs = [thaw(load(str(DOCS / "examples" / f"house-variant.{ext}")).doc) for ext in ("stw", "yaml", "json")]
    assert docs[0] == docs[1] == docs[2]
    assert docs[0]["option"]["stake"]["default"] == 20
