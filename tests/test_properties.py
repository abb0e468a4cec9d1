"""Property-based tests (Hypothesis) of the front half of the pipeline: what is written comes back.

    a. texts generated from the grammar parse, and parse → document → .stw writer → parse gives
       the same document;
    d. random expression trees survive to_text → parse_text unchanged.

b. (mutated rule files) and c. (documents from the JSON Schema) are in test_properties_never_crash.py;
the shared settings and strategies in properties_support.py.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from properties_support import BINARY_OPS, examples, grammar_strategy, names, numbers

from interpreter.diagnostics import DiagnosticError
from interpreter.language import writer
from interpreter.language.document import build
from interpreter.language.expressions import parse_text, to_text
from interpreter.language.parser import parse

# the strategies over the schema and the games' names are big; their repr is only shown on failure
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")


@pytest.fixture(scope="module")
def grammar_texts():
    return grammar_strategy("start")


# ---- a. grammar-generated texts ------------------------------------------------------------------

def _keys(node):
    """Every mapping key in a document."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            yield from n
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)


def _build(text: str):
    return build(parse(text, "gen.stw"), "gen.stw")[0]


@pytest.mark.slow
@examples(100)
@given(data=st.data())
def test_grammar_generated_texts_parse_and_round_trip(grammar_texts, data):
    text = data.draw(grammar_texts, label="text")
    try:
        tree = parse(text, "gen.stw")
    except DiagnosticError as err:
        # the only refusals allowed for grammatical text are the size and nesting bounds
        assert {d.code for d in err.diagnostics} <= {"E101", "E102"}, err
        return
    try:
        doc, _ = build(tree, "gen.stw")
    except DiagnosticError as err:
        assert all(d.code.startswith("E1") for d in err.diagnostics)
        return
    try:
        written = writer.to_stw(doc)
    except writer.NotWritable:
        # only a key that is no name (e.g. a quoted table header) cannot be written as .stw
        assert not all(writer._is_name(k) for k in _keys(doc))
        return
    again = _build(written)
    assert again == doc, written
    assert writer.to_stw(again) == written


@pytest.mark.slow
@examples(60)
@given(data=st.data())
def test_grammar_generated_expressions_parse(data):
    text = data.draw(grammar_strategy("expr_start"), label="expr")
    try:
        node = parse_text(text)
    except DiagnosticError as err:
        # the grammar lets a list hold a map or table, which no expression may contain (E123)
        assert {d.code for d in err.diagnostics} <= {"E101", "E102", "E123"}, err
        return
    assert parse_text(to_text(node)) == node


# ---- d. expression trees -------------------------------------------------------------------------

def _number_nodes():
    def make(text, minus):
        value = Fraction(text) * (-1) ** minus
        return ("num", value, "-" * minus + text)
    return st.builds(make, numbers, st.integers(0, 2))


expression_leaves = st.one_of(
    _number_nodes(),
    st.text(max_size=6).map(lambda s: ("str", s)),
    names.map(lambda n: ("name", n)),
    st.sampled_from([("const", None), ("const", True), ("const", False)]),
)


def _grow(inner):
    return st.one_of(
        st.lists(inner, max_size=3).map(lambda xs: ("list", tuple(xs))),
        st.tuples(inner, names).map(lambda t: ("attr", *t)),
        st.tuples(names, st.lists(inner, max_size=3)).map(lambda t: ("call", t[0], tuple(t[1]))),
        st.tuples(names, inner, names, inner, st.none() | inner).map(lambda t: ("comp", *t)),
        st.tuples(st.sampled_from(BINARY_OPS), inner, inner).map(lambda t: ("bin", *t)),
        inner.map(lambda x: ("not", x)),
        inner.filter(lambda x: x[0] != "num").map(lambda x: ("neg", x)),   # '-' before a number is part of it
        st.tuples(inner, inner, inner).map(lambda t: ("if", *t)),
    )


expression_trees = st.recursive(expression_leaves, _grow, max_leaves=25)


@pytest.mark.slow
@examples(200)
@given(tree=expression_trees)
def test_expression_trees_round_trip_through_text(tree):
    text = to_text(tree)
    assert parse_text(text) == tree, text
    assert to_text(parse_text(text)) == text


@examples(100)
@given(tree=expression_trees)
def test_expressions_in_a_rule_file_round_trip_through_the_writer(tree):
    """An expression stored in a document (as canonical text) is written by the .stw writer so that
    reading it back gives the same text, both as a field value and as a `let` body."""
    doc = {"section": {"field": to_text(tree)}, "let": {"e": to_text(tree)}}
    written = writer.to_stw(doc)
    assert _build(written) == doc, written
