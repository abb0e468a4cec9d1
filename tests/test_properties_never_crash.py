"""Property-based tests (Hypothesis) of the front half of the pipeline: nothing crashes.

    b. random mutations of every shipped rule file never crash the pipeline or the CLI;
    c. documents generated from the JSON Schema never crash the schema check or the semantic passes.

a. (grammar-generated texts) and d. (expression trees) are in test_properties.py; the shared settings
and strategies in properties_support.py.
"""
from __future__ import annotations

import contextlib
import copy
import functools
import io
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from properties_support import BINARY_OPS, GAME_NAMES, RULE_FILES, _is_name, examples, names

from interpreter import checks, cli, pipeline
from interpreter.checks import schema
from interpreter.diagnostics import render_all
from interpreter.language import writer
from interpreter.language.expressions import to_text
from interpreter.language.loader import load as load_document
from interpreter.resources import games_dir
from interpreter.resources import schema as schema_json

# the strategies over the schema and the games' names are big; their repr is only shown on failure
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")


# ---- b. mutations of the shipped rule files ------------------------------------------------------

JUNK = ["{", "}", "[", "]", "(", ")", "|", "| - |", "|---|", "=", "==", ",", ";", ".", "-", "^", "table", "let",
        "extends", "remove", "if", "then", "else", "not in", "for", "none", "true", '"', '"x"', "'", "#", "\\",
        "\x00", "\t", "\r", "\ufeff", "é", "\u2028", "99999999999999999999", "1.5", "-0", "10H", "x.y",
        'extends "nope"', 'extends "wien"', "remove deck", "remove [deck.suits, x.y]", "let x = x",
        "let f(a) = f(a) + 1", "{ {", "table { | a | }", "a = [{}]", '"[{ a = 1 }]"', "x = 1/0", "players = 0",
        "deck { }", "procedure = []", "contract x { }", "2^2^2^2^2^2^2^2", "((((((((((", "size(seats)"]
YAML_JUNK = [":", "- ", "? ", "&a ", "*a", "!!python/object:x", "{", "[", "'", '"', "%", "@", "\t", "---", "...",
             "1e999", ".nan", "2024-01-01", "0x1F", "~", "<<: *a", "! ", "|", ">"]


@functools.cache
def _yaml_of(path: Path) -> str:
    from interpreter.language.loader import read_layer

    return writer.to_yaml(read_layer(path).doc)


def mutate(data, text: str, junk: list[str]) -> str:
    """Apply one to four random edits: delete, duplicate or swap lines, flip a character,
    truncate, or insert a junk token."""
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        lines = text.split("\n")
        op = data.draw(st.sampled_from(["delete", "duplicate", "swap", "flip", "truncate", "insert"]), label="op")
        i = data.draw(st.integers(0, max(len(lines) - 1, 0)))
        if op == "delete":
            del lines[i:i + data.draw(st.integers(1, 3))]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        text = "\n".join(lines)
        pos = data.draw(st.integers(0, len(text)))
        if op == "flip" and text:
            pos = min(pos, len(text) - 1)
            ch = data.draw(st.sampled_from("{}[]()|=\"'#.,;-+*/^<>:!?_ \t\n0123456789aZé") | st.characters())
            text = text[:pos] + ch + text[pos + 1:]
        elif op == "truncate":
            text = text[:pos]
        elif op == "insert":
            token = data.draw(st.sampled_from(junk) | st.text(max_size=4), label="junk")
            text = text[:pos] + " " + token + " " + text[pos:]
    return text


@pytest.fixture(scope="module")
def games_copy(tmp_path_factory):
    """A copy of games/, so that a mutated file sits where relative `extends` paths still lead."""
    root = tmp_path_factory.mktemp("mutations") / "games"
    shutil.copytree(games_dir(), root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _quiet_main(argv) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return cli.main(argv)


@pytest.mark.slow
@examples(100)
@given(data=st.data())
def test_mutated_rule_files_never_crash(games_copy, data):
    assert RULE_FILES, "no rule files under games/"
    original = data.draw(st.sampled_from(RULE_FILES), label="file")
    fmt = data.draw(st.sampled_from(["stw", "stw", "yaml"]), label="format")
    rel = original.relative_to(games_dir())
    if fmt == "stw":
        target, text = games_copy / rel, original.read_text(encoding="utf-8")
    else:
        target, text = (games_copy / rel).with_suffix(".mutated.yaml"), _yaml_of(original)
    mutated = mutate(data, text, JUNK if fmt == "stw" else YAML_JUNK + JUNK)
    before = target.read_bytes() if target.exists() else None
    try:
        target.write_text(mutated, encoding="utf-8", errors="surrogatepass")
        report = pipeline.check(str(target))
        event("valid" if report.ok else "first diagnostic " + report.diagnostics[0].code)
        assert (report.ok or report.only_pending) == (report.ruleset is not None)
        for d in report.diagnostics:
            assert re.fullmatch(r"[EW]\d{3}", d.code), d
            assert d.span is None or d.span.line >= 1, d
        assert isinstance(render_all(report.diagnostics, report.sources), str)
        code = _quiet_main(["validate", str(target)])
        assert code in (0, 1, 2)
        assert (code == 0) == report.ok
    finally:
        if before is None:
            target.unlink(missing_ok=True)
        else:
            target.write_bytes(before)


@pytest.mark.slow
@examples(40)
@given(data=st.data())
def test_mutated_rule_files_never_crash_the_other_commands(games_copy, data):
    original = data.draw(st.sampled_from(RULE_FILES), label="file")
    target = games_copy / original.relative_to(games_dir())
    before = target.read_bytes()
    command = data.draw(st.sampled_from([["validate", "--json"], ["convert", "--to", "stw"], ["convert", "--to", "yaml"],
                                         ["convert", "--to", "json"], ["explain", "--format", "markdown"]]))
    try:
        target.write_text(mutate(data, original.read_text(encoding="utf-8"), JUNK), encoding="utf-8",
                          errors="surrogatepass")
        assert _quiet_main(command[:1] + [str(target)] + command[1:]) in (0, 1, 2)
    finally:
        target.write_bytes(before)


# ---- c. documents generated from the JSON Schema -------------------------------------------------

class Nowhere:
    """Origins for a document that was never written down."""

    def find(self, ptr: str, prefer_key: bool = False):
        return "generated.json", None


SCHEMA = schema_json()


def _deref(sub: dict) -> dict:
    while isinstance(sub, dict) and "$ref" in sub:
        sub = SCHEMA["$defs"][sub["$ref"].rsplit("/", 1)[-1]]
    return sub


def _has_object(sub) -> bool:
    sub = _deref(sub)
    if isinstance(sub, dict):
        types = sub.get("type")
        if types == "object" or (isinstance(types, list) and "object" in types) or "properties" in sub:
            return True
        return any(_has_object(v) for k, v in sub.items() if k in ("items", "anyOf", "oneOf", "additionalProperties"))
    if isinstance(sub, list):
        return any(_has_object(v) for v in sub)
    return False


def leaf_fields() -> list[tuple[tuple, dict]]:
    """(path, sub-schema) of every field whose values hold no mapping; '*' = any key, '#' = any index."""
    out, stack = [], [((), SCHEMA)]
    while stack:
        path, sub = stack.pop()
        if not _has_object(sub):
            out.append((path, sub))
            continue
        sub = _deref(sub)
        stack.extend((path + (k,), v) for k, v in sub.get("properties", {}).items())
        if isinstance(sub.get("additionalProperties"), dict):
            stack.append((path + ("*",), sub["additionalProperties"]))
        if isinstance(sub.get("items"), dict):
            stack.append((path + ("#",), sub["items"]))
        stack.extend((path, b) for b in sub.get("anyOf", []) + sub.get("oneOf", []))
    return sorted(out, key=lambda pair: pair[0])


LEAVES = leaf_fields()


@functools.cache
def _merged(game: str) -> dict:
    return load_document(game).doc


def _place(doc: dict, path: tuple, value, data) -> None:
    """Put `value` at `path`, choosing existing keys and indices where the path says '*' or '#'."""
    node = doc
    for i, part in enumerate(path):
        last = i == len(path) - 1
        nxt = None if last else path[i + 1]
        empty = [] if nxt == "#" else {}
        if part == "#":
            if not isinstance(node, list) or not node:
                raise _Unplaceable
            part = data.draw(st.integers(0, len(node) - 1), label="index")
        elif part == "*":
            if not isinstance(node, dict):
                raise _Unplaceable
            part = data.draw(st.sampled_from(sorted(node) or ["generated"]) | st.just("generated"), label="key")
        elif not isinstance(node, dict):
            raise _Unplaceable
        if last:
            node[part] = value
        else:
            if not isinstance(node[part] if (isinstance(node, list) or part in node) else None, (dict, list)):
                node[part] = empty
            node = node[part]


class _Unplaceable(Exception):
    pass


def _pipeline_never_crashes(doc: dict, name: str = "generated") -> None:
    """Schema check, then (when the schema is satisfied) the semantic passes, then (when they pass)
    the Ruleset: what pipeline.check does, without the text."""
    from interpreter.language.loader import Loaded, Origins
    from interpreter.model.ruleset import compile_ruleset

    diags = schema.check(doc, Nowhere())
    assert all(re.fullmatch(r"E2\d\d", d.code) for d in diags), diags
    if diags:
        event("schema invalid")
        return
    ctx = checks.run(doc, Nowhere())
    assert all(re.fullmatch(r"[EW]\d{3}", d.code) for d in ctx.diagnostics)
    if any(d.severity == "error" for d in ctx.diagnostics):
        event("semantic error " + ctx.diagnostics[0].code)
        return
    event("compiled")
    loaded = Loaded(name=name, path="generated.json", doc=doc, origins=Origins(), sources={}, chain=["generated.json"])
    compile_ruleset(loaded)


@functools.cache
def _leaf_strategy(index: int):
    from hypothesis_jsonschema import from_schema

    _, sub = LEAVES[index]
    return from_schema({**sub, "$defs": SCHEMA["$defs"]})


@pytest.mark.slow
@examples(100)
@given(data=st.data())
def test_schema_generated_field_values_never_crash_the_checks(data):
    """hypothesis_jsonschema.from_schema over every field that holds no mapping (its object support
    does not work with current Hypothesis), put into a built-in game's merged document."""
    game = data.draw(st.sampled_from(GAME_NAMES), label="game")
    doc = copy.deepcopy(_merged(game))
    for _ in range(data.draw(st.integers(1, 3), label="fields")):
        index = data.draw(st.integers(0, len(LEAVES) - 1), label="field")
        value = data.draw(_leaf_strategy(index), label=".".join(LEAVES[index][0]))
        try:
            _place(doc, LEAVES[index][0], value, data)
        except _Unplaceable:
            pass
    _pipeline_never_crashes(doc, game)


def _symbols(doc: dict) -> list[str]:
    """Names a rule file declares, so that generated references sometimes hit something."""
    from interpreter.model.vocabulary import FUNCTIONS, VALUES

    out = set(VALUES) | {"s", "t"}
    for key in ("contract", "call", "talon", "figure", "account", "option", "category"):
        if isinstance(doc.get(key), dict):
            out.update(doc[key])
    deck = doc.get("deck") or {}
    out.update(map(str, deck.get("suits", [])))
    out.update(map(str, (deck.get("group") or {})))
    out.update((doc.get("seating") or {}).get("roles") or {})
    return sorted(n for n in out if _is_name(n) and n not in FUNCTIONS)


def _expression_texts(pool: list[str]):
    from interpreter.model.vocabulary import FUNCTIONS

    leaf = st.one_of(st.sampled_from(pool).map(lambda n: ("name", n)),
                     st.integers(0, 12).map(lambda n: ("num", Fraction(n), str(n))),
                     st.sampled_from([("const", None), ("const", True), ("const", False)]))

    def grow(inner):
        return st.one_of(
            st.tuples(st.sampled_from(BINARY_OPS), inner, inner).map(lambda t: ("bin", *t)),
            st.tuples(st.sampled_from(sorted(FUNCTIONS)), st.lists(inner, max_size=2)).map(
                lambda t: ("call", t[0], tuple(t[1]))),
            st.tuples(st.sampled_from(["sum", "count", "any", "all", "max", "set"]), inner,
                      st.sampled_from(["s", "t"]), st.sampled_from(["seats", "active", "defenders"]).map(lambda n: ("name", n)),
                      st.none() | inner).map(lambda t: ("comp", *t)),
            st.tuples(inner, st.sampled_from(["category", "rank", "premium", "defence"])).map(lambda t: ("attr", *t)),
            st.tuples(inner, inner, inner).map(lambda t: ("if", *t)),
            inner.map(lambda x: ("not", x)),
        )

    return st.recursive(leaf, grow, max_leaves=6).map(to_text)


def from_schema_part(sub: dict, pool: list[str], depth: int = 0):
    """A strategy for values of a sub-schema, for the keywords the project's schema uses; mappings
    included. Names come from `pool`, expressions are well formed, numbers mostly in range."""
    ref = sub.get("$ref", "").rsplit("/", 1)[-1]
    names_ = st.sampled_from(pool) | names
    if ref == "expr":
        return _expression_texts(pool) | st.sampled_from(pool) | st.integers(-2, 20) | st.booleans() | st.none()
    if ref == "num":
        return st.integers(-3, 60) | st.sampled_from(["1/3", "1/2", "2 * 5", "-1", "x"])
    if ref == "name":
        return names_
    if ref == "names":
        return st.lists(names_, max_size=4)
    sub = _deref(sub)
    if "enum" in sub:
        return st.sampled_from(sub["enum"])
    branches = sub.get("anyOf", []) + sub.get("oneOf", [])
    if branches:
        return st.one_of([from_schema_part(b, pool, depth) for b in branches])
    types = sub.get("type", ["string", "integer", "boolean", "null"])
    out = []
    for t in ([types] if isinstance(types, str) else types):
        if t == "object":
            props = sub.get("properties", {})
            required = [k for k in sub.get("required", []) if k in props]
            optional = {} if depth > 3 else {k: from_schema_part(v, pool, depth + 1) for k, v in props.items()
                                             if k not in required}
            fixed = st.fixed_dictionaries({k: from_schema_part(props[k], pool, depth + 1) for k in required},
                                          optional=optional)
            extra = sub.get("additionalProperties")
            if isinstance(extra, dict) and depth <= 3:
                more = st.dictionaries(names_, from_schema_part(extra, pool, depth + 1), max_size=3)
                fixed = st.tuples(fixed, more).map(lambda pair: {**pair[1], **pair[0]})
            out.append(fixed)
        elif t == "array":
            items = sub.get("items")
            if isinstance(items, dict):
                out.append(st.lists(from_schema_part(items, pool, depth + 1), max_size=min(sub.get("maxItems", 4), 4)))
            else:
                out.append(st.just([]))
        elif t == "string":
            if "pattern" in sub:
                out.append(names_)
            else:
                out.append(names_ | st.text(max_size=min(sub.get("maxLength", 20), 20)))
        elif t == "integer":
            lo, hi = sub.get("minimum", -3), sub.get("maximum", 60)
            out.append(st.integers(lo, max(lo, min(hi, lo + 60))))
        elif t == "boolean":
            out.append(st.booleans())
        elif t == "null":
            out.append(st.none())
    return st.one_of(out) if out else st.nothing()


@functools.cache
def _section_strategy(game: str, key: str | None):
    """Values for one top-level section (or, for None, a whole document), with the game's names."""
    pool = _symbols(_merged(game))
    if key is None:
        return from_schema_part(SCHEMA, pool)
    return from_schema_part(SCHEMA["properties"][key], pool, 1)


@pytest.mark.slow
@examples(80)
@given(data=st.data())
def test_schema_generated_sections_never_crash_the_checks(data):
    """Whole sections (mappings included) generated from their sub-schemas replace those of a built-in
    game; and now and then a whole document is generated from the top-level schema."""
    game = data.draw(st.sampled_from(GAME_NAMES), label="game")
    doc = copy.deepcopy(_merged(game))
    if data.draw(st.integers(0, 9), label="whole") == 0:
        doc = data.draw(_section_strategy(game, None), label="document")
    else:
        keys = data.draw(st.lists(st.sampled_from(sorted(SCHEMA["properties"])), min_size=1, max_size=3, unique=True),
                         label="sections")
        for key in keys:
            doc[key] = data.draw(_section_strategy(game, key), label=key)
    _pipeline_never_crashes(doc, game)
