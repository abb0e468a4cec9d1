"""An expression of a rule file as the typed model keeps it (model/game.py, model/phases.py), with its typed
node (model/nodes.py), built once per expression text from the parser's tree, each node with the span where
it is written.

`node_of(source)` is the one way in: a rule file's expression (its text, or a constant) → its node;
`Expression.node` reads it, and so does the engine's compiler where it is handed text the model does not
hold as an Expression (a card's code, a record's entry). It checks the text as `parse_text` does (same
diagnostics) and keeps the node for the next time the same text is asked for.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from lark import Token

from interpreter.diagnostics import Span
from interpreter.language.expressions import BINARY, NotAnExpression, parse_text, to_text, unquote
from interpreter.model.nodes import (
    Attr,
    Bin,
    Call,
    Comp,
    Const,
    If,
    ListOf,
    Name,
    Neg,
    Node,
    Not,
    Num,
    Str,
    is_node,
)

Expr = Any          # an expression as written: its text, or a constant (a number, a truth, a card's code)


@dataclass(frozen=True)
class Expression:
    """An expression the rule file writes: its source (text, or a constant) and its place, a dotted path."""
    source: Expr
    at: str = ""

    @cached_property
    def node(self) -> Node:
        """The expression as a typed node (model/nodes.py), parsed once by the front end (model/expression.py)."""
        return node_of(self.source)


def given(record: Mapping[str, Any], key: str, at: str) -> Expression | None:
    """The entry `key` of the record as an Expression, None where the record has no such entry (an entry
    written `none` is an Expression of None)."""
    return Expression(record[key], f"{at}.{key}") if key in record else None


def plain(value: Any) -> Any:
    """A deep copy in plain dicts and lists (what expressions read of a record: engine/compile.attr)."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def node_of(source: Any) -> Node:
    """An expression of the model (its node), a node (itself), or an expression as written in a rule file (its
    text, or a constant: a number, a truth, none) → its node."""
    if isinstance(source, Expression):
        return source.node
    if is_node(source):
        return source
    if isinstance(source, str):
        return _parse(source)
    return Const(source)


@functools.lru_cache(maxsize=8192)
def _parse(text: str) -> Node:
    from interpreter.language.parser import parse

    parse_text(text)        # the checks and their diagnostics (a nesting too deep, a map in a list …)
    return build(parse(text, "<expression>", start="expr_start", positions=True).children[0])


def build(tree: Any) -> Node:
    """A Lark expression tree (the grammar's ?expr rules, with positions) → its typed node; the same
    expression as expressions.from_tree gives, field by field."""
    if isinstance(tree, Token):
        raise NotAnExpression(f"unexpected token {tree!s}")
    kind, ch, at = tree.data, tree.children, Span.of(getattr(tree, "meta", None))
    if kind == "number":
        return Num(Fraction(str(ch[0])), str(ch[0]), at)
    if kind == "string":
        return Str(unquote(str(ch[0])), at)
    if kind == "name":
        return Name(str(ch[0]), at)
    if kind in ("none", "true", "false"):
        return Const({"none": None, "true": True, "false": False}[kind], at)
    if kind == "list":
        return ListOf(tuple(build(c) for c in ch), at)
    if kind in BINARY:
        return Bin(BINARY[kind], build(ch[0]), build(ch[1]), at)
    if kind == "compare":
        return Bin(str(ch[1]), build(ch[0]), build(ch[2]), at)
    if kind == "not_op":
        return Not(build(ch[0]), at)
    if kind == "neg":
        inner = build(ch[0])
        if isinstance(inner, Num):
            return Num(-inner.value, "-" + inner.text, at)
        return Neg(inner, at)
    if kind == "if_expr":
        return If(build(ch[0]), build(ch[1]), build(ch[2]), at)
    if kind == "attr":
        return Attr(build(ch[0]), str(ch[1]), at)
    if kind == "call":
        return Call(str(ch[0]), tuple(build(c) for c in ch[1:]), at)
    if kind == "comprehension":
        cond = build(ch[4]) if len(ch) > 4 else None
        return Comp(str(ch[0]), build(ch[1]), str(ch[2]), build(ch[3]), cond, at)
    raise NotAnExpression(f"'{kind}' is not an expression", getattr(tree, "meta", None))


def as_tuple(node: Node) -> tuple:
    """The node as the front end's tuple tree (language/expressions.py), for its printer and checks."""
    match node:
        case Num(value=v, text=text):
            return ("num", v, text)
        case Str(value=v):
            return ("str", v)
        case Const(value=v):
            return ("const", v)
        case Name(ident=n):
            return ("name", n)
        case ListOf(items=items):
            return ("list", tuple(as_tuple(x) for x in items))
        case Attr(obj=obj, name=name):
            return ("attr", as_tuple(obj), name)
        case Call(fname=f, args=args):
            return ("call", f, tuple(as_tuple(a) for a in args))
        case Comp(fname=f, body=body, var=var, iterable=it, cond=cond):
            return ("comp", f, as_tuple(body), var, as_tuple(it), None if cond is None else as_tuple(cond))
        case Bin(op=op, a=a, b=b):
            return ("bin", op, as_tuple(a), as_tuple(b))
        case Not(a=a):
            return ("not", as_tuple(a))
        case Neg(a=a):
            return ("neg", as_tuple(a))
        case If(cond=c, then=t, other=o):
            return ("if", as_tuple(c), as_tuple(t), as_tuple(o))
    raise ValueError(f"not a node: {node!r}")


def text_of(node: Node) -> str:
    """The node's canonical text (expressions.to_text)."""
    return to_text(as_tuple(node))


def reprints(node: Node) -> bool:
    """Printing the node and parsing the text gives the node back (a node the engine built of pieces, such
    as a let function's body with its arguments put in, may hold what no text writes)."""
    return parse_text(text_of(node)) == as_tuple(node)
