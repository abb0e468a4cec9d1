"""Rule files are untrusted input: their size, bracket nesting and tree depth are bounded. Just under
each bound a file is accepted (or at least not refused for its size or nesting); just over it the
bound's own diagnostic comes back, with a line where one can be named, and the CLI exits with 2
(unreadable: too large) or 1 (a rule problem: too deep). Nothing ever ends in a traceback."""
from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import cli
from interpreter.diagnostics import DiagnosticError
from interpreter.language.document import MAX_TREE_DEPTH
from interpreter.language.expressions import parse_text, tree_depth
from interpreter.language.loader import MAX_DATA_DEPTH
from interpreter.language.parser import MAX_BYTES, MAX_NESTING, parse
from interpreter.pipeline import check

ROOT = Path(__file__).resolve().parent.parent
HEAD = 'extends "wien"\n\n'


def validate(path: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["validate", str(path)])
    text = out.getvalue() + err.getvalue()
    assert "Traceback" not in text and "internal error" not in text, text
    return code, text


def codes(path: Path) -> list[str]:
    return [d.code for d in check(str(path)).diagnostics]


def padded(head: str, size: int, comment: str = "#") -> str:
    """`head` followed by one comment line, `size` bytes of UTF-8 in all."""
    filler = size - len(head.encode("utf-8")) - len(comment) - 1
    assert filler >= 0
    return head + comment + "x" * filler + "\n"


# ---- size -------------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix, head", [(".stw", HEAD), (".yaml", "extends: wien\n")])
def test_a_file_of_exactly_max_bytes_is_read(tmp_path, suffix, head):
    path = tmp_path / f"big{suffix}"
    path.write_text(padded(head, MAX_BYTES), encoding="utf-8")
    assert path.stat().st_size == MAX_BYTES
    code, text = validate(path)
    assert code == 0, text
    assert text.startswith("ok ")


@pytest.mark.parametrize("suffix, head", [(".stw", HEAD), (".yaml", "extends: wien\n"), (".json", "")])
def test_one_byte_more_than_max_bytes_is_refused(tmp_path, suffix, head):
    path = tmp_path / f"big{suffix}"
    path.write_text(padded(head, MAX_BYTES + 1), encoding="utf-8")
    code, text = validate(path)
    assert code == 2, text
    assert codes(path) == ["E101"]
    assert f"E101 file is larger than {MAX_BYTES // 1024} KiB" in text


def test_size_is_counted_in_bytes_not_characters():
    text = padded(HEAD, MAX_BYTES - 1) + "é"          # MAX_BYTES characters, MAX_BYTES + 1 bytes
    with pytest.raises(DiagnosticError) as err:
        parse(text, "many.stw")
    assert [d.code for d in err.value.diagnostics] == ["E101"]


def test_a_huge_file_is_refused_without_being_read(tmp_path):
    path = tmp_path / "huge.stw"
    with path.open("wb") as f:
        f.truncate(64 * MAX_BYTES)                     # sparse: large on paper only
    code, text = validate(path)
    assert code == 2 and codes(path) == ["E101"], text


# ---- bracket nesting (.stw) -------------------------------------------------------------------

def nested_let(depth: int) -> str:
    return HEAD + "let deep = " + "(" * depth + "1" + ")" * depth + "\n"


def test_brackets_nested_max_nesting_deep_are_accepted(tmp_path):
    path = tmp_path / "deep.stw"
    path.write_text(nested_let(MAX_NESTING), encoding="utf-8")
    code, text = validate(path)
    assert code == 0, text


def test_brackets_nested_one_deeper_are_refused_at_the_bracket(tmp_path):
    path = tmp_path / "deep.stw"
    path.write_text(nested_let(MAX_NESTING + 1), encoding="utf-8")
    code, text = validate(path)
    assert code == 1, text
    [d] = check(str(path)).diagnostics
    assert d.code == "E102" and d.span is not None
    column = len("let deep = ") + MAX_NESTING + 1      # the bracket that goes one level too deep
    assert (d.span.line, d.span.col) == (3, column)


def test_brackets_in_strings_and_comments_do_not_count(tmp_path):
    path = tmp_path / "quoted.stw"
    path.write_text(HEAD + 'title = "' + "(" * 100 + '"\n# ' + "[" * 100 + "\n", encoding="utf-8")
    code, text = validate(path)
    assert code == 0, text


def test_nested_lists_beyond_the_bound_are_refused(tmp_path):
    path = tmp_path / "lists.stw"
    path.write_text(HEAD + "customs = " + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1) + "\n", encoding="utf-8")
    assert codes(path) == ["E102"]


# ---- tree depth (.stw) ------------------------------------------------------------------------

def sum_file(terms: int) -> str:
    return HEAD + "let total = " + "+".join(["1"] * terms) + "\n"


def terms_at_max_depth() -> int:
    """How many terms of 1+1+… make the file's tree exactly MAX_TREE_DEPTH deep."""
    extra = tree_depth(parse(sum_file(1))) - 1
    terms = MAX_TREE_DEPTH - extra
    assert tree_depth(parse(sum_file(terms))) == MAX_TREE_DEPTH
    return terms


def test_a_tree_exactly_max_tree_depth_deep_is_accepted(tmp_path):
    path = tmp_path / "long.stw"
    path.write_text(sum_file(terms_at_max_depth()), encoding="utf-8")
    code, text = validate(path)
    assert code == 0, text


def test_a_tree_one_level_deeper_is_refused_on_its_line(tmp_path):
    path = tmp_path / "long.stw"
    path.write_text(sum_file(terms_at_max_depth() + 1), encoding="utf-8")
    code, text = validate(path)
    assert code == 1, text
    [d] = check(str(path)).diagnostics
    assert d.code == "E102" and d.span is not None and d.span.line == 3
    assert f"deeper than {MAX_TREE_DEPTH} levels" in d.message


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["sum", "product", "negation", "not", "attribute", "comparison"])
def test_a_10k_term_expression_gives_a_clean_diagnostic(tmp_path, shape):
    """Under the token budget (E105) but far deeper than the tree may nest: E102 at its line."""
    n = 10_000
    body = {
        "sum": "+".join(["1"] * n),
        "product": "*".join(["2"] * n),
        "negation": "-" * n + "1",
        "not": "not " * (n // 3) + "true",              # 4 bytes a term: a third keeps it under MAX_BYTES
        "attribute": "contract" + ".x" * n,
        "comparison": "1 + " * (n // 2) + "1 > 0",
    }[shape]
    path = tmp_path / "huge_expr.stw"
    path.write_text(HEAD + "let huge = " + body + "\n", encoding="utf-8")
    assert path.stat().st_size <= MAX_BYTES
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["validate", "--json", str(path)])
    assert code == 1, out.getvalue()[:2000]
    [result] = json.loads(out.getvalue())
    [d] = result["diagnostics"]
    assert d["code"] == "E102" and d["line"] == 3


@pytest.mark.slow
def test_a_10k_term_expression_in_a_fresh_process(tmp_path):
    """The same in a separate `python -m interpreter validate`, as a user would run it; the very long
    source line is shown as a window around the caret, not whole."""
    path = tmp_path / "huge_expr.stw"
    path.write_text(HEAD + "let huge = " + "+".join(["1"] * 10_000) + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    assert f"{path}:3:12: E102 the file nests deeper than {MAX_TREE_DEPTH} levels here" in run.stdout
    assert len(run.stdout) < 1000 and "…" in run.stdout


@pytest.mark.slow
def test_a_100k_term_expression_is_over_the_token_budget(tmp_path):
    """Ten times longer, the file is refused before it is parsed (E105: the token budget), cleanly."""
    path = tmp_path / "huge_expr.stw"
    path.write_text(HEAD + "let huge = " + "+".join(["1"] * 100_000) + "\n", encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["validate", "--json", str(path)])
    assert code == 1, out.getvalue()[:2000]
    [result] = json.loads(out.getvalue())
    [d] = result["diagnostics"]
    assert d["code"] == "E105" and "30,000" in d["message"]


@pytest.mark.slow
def test_a_deep_expression_in_a_yaml_string_gives_a_clean_diagnostic(tmp_path):
    """YAML and JSON expressions are parsed from strings, after the file: they are bounded too."""
    path = tmp_path / "deep.yaml"
    terms = 1999                                       # just under the schema's 4000 characters
    path.write_text('extends: wien\nlet:\n  total: "' + "+".join(["1"] * terms) + '"\n', encoding="utf-8")
    code, text = validate(path)
    assert code == 1, text
    [d] = check(str(path)).diagnostics
    assert d.code == "E102" and d.span is not None and d.span.line == 3
    assert len(d.message) < 200


def test_parse_text_bounds_the_depth_of_one_expression():
    with pytest.raises(DiagnosticError) as err:
        parse_text("+".join(["1"] * (MAX_TREE_DEPTH + 10)))
    assert [d.code for d in err.value.diagnostics] == ["E102"]
    assert parse_text("+".join(["1"] * (MAX_TREE_DEPTH // 2)))[0] == "bin"


# ---- nesting of YAML and JSON data ------------------------------------------------------------

def flow_yaml(depth: int) -> str:
    """An unknown key holding lists nested `depth` levels below the top-level mapping."""
    return "extends: wien\nextra: " + "[" * depth + "]" * depth + "\n"


def block_yaml(depth: int) -> str:
    """An unknown key holding block mappings nested `depth` levels below the top-level mapping."""
    lines = ["extends: wien"]
    for level in range(depth - 1):
        lines.append("  " * level + f"k{level}:")
    lines.append("  " * (depth - 1) + f"k{depth - 1}: 1")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("make", [flow_yaml, block_yaml], ids=["flow", "block"])
def test_yaml_nested_max_data_depth_deep_is_not_refused_for_nesting(tmp_path, make):
    path = tmp_path / "deep.yaml"
    path.write_text(make(MAX_DATA_DEPTH), encoding="utf-8")
    found = codes(path)
    assert "E102" not in found
    assert found == ["E201"]                           # refused only for the unknown key


@pytest.mark.parametrize("make", [flow_yaml, block_yaml], ids=["flow", "block"])
def test_yaml_nested_one_deeper_is_refused(tmp_path, make):
    path = tmp_path / "deep.yaml"
    path.write_text(make(MAX_DATA_DEPTH + 1), encoding="utf-8")
    code, text = validate(path)
    assert code == 1, text
    [d] = check(str(path)).diagnostics
    assert d.code == "E102" and d.span is not None
    assert f"deeper than {MAX_DATA_DEPTH} levels" in d.message


@pytest.mark.parametrize("suffix, text", [
    (".yaml", "extends: wien\nextra: " + "[" * 20_000 + "]" * 20_000 + "\n"),
    (".yaml", "extends: wien\nextra: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n"),
    (".json", '{"extends": "wien", "extra": ' + '{"a": ' * 20_000 + "1" + "}" * 20_000 + "}\n"),
    (".json", '{"extends": "wien", "extra": ' + "[" * 20_000 + "]" * 20_000 + "}\n"),
], ids=["yaml-lists", "yaml-maps", "json-maps", "json-lists"])
def test_very_deep_data_is_refused_before_the_yaml_parser_recurses(tmp_path, suffix, text):
    path = tmp_path / f"deep{suffix}"
    path.write_text(text, encoding="utf-8")
    code, out = validate(path)
    assert code == 1, out[:2000]
    [d] = check(str(path)).diagnostics
    assert d.code == "E102" and d.span is not None and d.span.line in (1, 2)


def test_brackets_inside_yaml_strings_do_not_count(tmp_path):
    path = tmp_path / "quoted.yaml"
    path.write_text("extends: wien\ntitle: '" + "[" * 200 + "'\ncustoms: [\"" + "{" * 200 + "\"]  # " + "[" * 200 + "\n",
                    encoding="utf-8")
    assert codes(path) == []


def test_json_deep_but_within_bounds_is_read(tmp_path):
    path = tmp_path / "ok.json"
    doc = {"extends": "wien", "customs": ["a"]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert codes(path) == []


def test_an_apostrophe_in_plain_yaml_text_does_not_hide_deep_nesting(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("extends: wien\ntitle: the dealer's game\nextra: " + "[" * 20_000 + "]" * 20_000 + "\n",
                    encoding="utf-8")
    [d] = check(str(path)).diagnostics
    assert d.code == "E102" and d.span is not None and d.span.line == 3
