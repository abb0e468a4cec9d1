"""Expressions parsed once into typed nodes (model/nodes.py, model/expression.py), read by the engine.

The node of an expression is the front end's tree field by field (so the checks, which read the tree, and the
engine, which reads the node, judge the same expression); each node knows where it is written; the engine and
the code generator take nodes from the model and never parse rule text themselves."""
from __future__ import annotations

import ast
import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path

import pytest
from games_support import playable_games

from interpreter import load
from interpreter.diagnostics import DiagnosticError
from interpreter.engine.rules import compile_rules
from interpreter.language.expressions import names_in as front_names
from interpreter.language.expressions import parse_text, to_text
from interpreter.model.expression import Expression, as_tuple, node_of, reprints, text_of
from interpreter.model.nodes import Attr, Bin, Call, Comp, Const, Name, Neg, Num, Str, names_in, sub_nodes

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"


def expressions_of(value, seen=None):
    """Every Expression the model holds under `value` (dataclasses, mappings, tuples and lists)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Expression):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from expressions_of(getattr(value, f.name), seen)
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from expressions_of(v, seen)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from expressions_of(v, seen)


@pytest.mark.parametrize("name", sorted(playable_games()))
def test_every_expression_of_a_game_has_the_checked_tree_as_its_node(name):
    rs = compile_rules(load(name)).rs
    found = list(expressions_of(rs.game))
    assert len(found) > 5
    for e in found:
        if isinstance(e.source, str):
            assert as_tuple(e.node) == parse_text(e.source), e.at
            assert text_of(e.node) == to_text(parse_text(e.source))
        else:
            assert e.node == Const(e.source)
        assert e.node is e.node          # parsed once, kept


def test_a_node_has_named_fields_and_knows_where_it_is_written():
    text = 'if a.b > -3 then sum(x * 2 for x in c if x != none) else f("s", 1.5)'
    node = node_of(text)
    cond, then, other = node.cond, node.then, node.other
    assert cond == Bin(">", Attr(Name("a"), "b"), Num(Fraction(-3), "-3"))
    assert isinstance(then, Comp) and then.var == "x" and then.iterable == Name("c")
    assert then.cond == Bin("!=", Name("x"), Const(None))
    assert other == Call("f", (Str("s"), Num(Fraction(3, 2), "1.5")))

    def written(n):
        assert n.span.line == n.span.end_line == 1
        return text[n.span.col - 1:n.span.end_col - 1]

    assert written(node) == text
    assert written(cond) == "a.b > -3" and written(cond.a) == "a.b" and written(cond.b) == "-3"
    assert written(then) == "sum(x * 2 for x in c if x != none)" and written(then.body) == "x * 2"
    assert written(then.iterable) == "c" and written(other.args[1]) == "1.5"
    assert names_in(node) == {"a", "c"} == front_names(parse_text(text))   # x is the comprehension's own; f is called


def test_equal_nodes_are_written_alike_wherever_that_is():
    assert node_of("a+b") == node_of("  a  +  b") and node_of("a+b").b.span != node_of("  a  +  b").b.span
    assert node_of("-x") == Neg(Name("x")) and node_of("-2") == Num(Fraction(-2), "-2")
    assert node_of("1") != node_of("1.0")          # written differently: different rules (printed back as written)
    assert node_of(True) == Const(True) and node_of(Expression("a", "x")) is node_of("a")


def test_sub_nodes_in_the_order_they_are_written():
    node = node_of("max(t + 1 for t in seats if t > 0)")
    assert [text_of(n) for n in sub_nodes(node)] == ["t + 1", "seats", "t > 0"]


def test_a_node_built_of_pieces_prints_back():
    assert reprints(Bin("and", node_of("a or b"), Name("c")))      # printed "(a or b) and c"
    assert text_of(Bin("and", node_of("a or b"), Name("c"))) == "(a or b) and c"


def test_bad_text_gives_the_front_ends_diagnostic():
    with pytest.raises(DiagnosticError) as err:
        node_of("[{ a = 1 }]")
    assert err.value.diagnostics[0].code == "E123"


def _imported_names(path: Path) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(ast.parse(path.read_text())):
        if isinstance(n, (ast.ImportFrom, ast.Import)):
            out |= {a.name for a in n.names} | ({n.module} if isinstance(n, ast.ImportFrom) and n.module else set())
    return out


def test_the_engine_and_the_generator_parse_no_rule_text():
    """They read nodes from the model: none of their modules imports the front end's parser or its trees."""
    for folder in ("engine", "codegen"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            names = _imported_names(path)
            assert not names & {"parse_text", "from_tree", "parse", "interpreter.language.expressions",
                                "interpreter.language.parser"}, path
