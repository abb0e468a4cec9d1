"""An expression of a rule file as typed nodes: parsed once by the front end (model/expression.py), read by the
engine's compiler, its conditions and plans and by the code generator, which match on the node's class.

Every node is frozen and has named fields, and `span`: where it is written in the expression's text (line 1,
column 1 is the text's start), None for a node the engine builds itself (a constant, a let function's body
with its arguments put in). The span takes no part in equality: two nodes are equal when they are written
alike, wherever that is.

    Num(value, text)     5, 1.5, -2         Str(value)            "a string"
    Const(value)         none, true, false  Name(ident)           a name
    ListOf(items)        [a, b]             Attr(obj, name)       obj.name
    Call(fname, args)    f(a, b)            Comp(fname, body, var, iterable, cond)   sum(x for x in y if c)
    Bin(op, a, b)        a + b, a in b …    Not(a)   Neg(a)       not a, -a
    If(cond, then, other)  if c then a else b
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeAlias

from interpreter.diagnostics import Span


def _span() -> Any:
    return field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Num:
    value: Fraction
    text: str                       # as written (canonical printing keeps "1.50" and "-0")
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Str:
    value: str
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Const:
    value: Any                      # None, True, False (or a constant the rule file writes as a value)
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Name:
    ident: str
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class ListOf:
    items: tuple[Node, ...]
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Attr:
    obj: Node
    name: str
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Call:
    fname: str
    args: tuple[Node, ...]
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Comp:
    fname: str
    body: Node
    var: str
    iterable: Node
    cond: Node | None
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Bin:
    op: str                         # or and + - * / % ^ == != < <= > >= in, not in
    a: Node
    b: Node
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Not:
    a: Node
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Neg:
    a: Node
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class If:
    cond: Node
    then: Node
    other: Node
    span: Span | None = _span()


Node: TypeAlias = Num | Str | Const | Name | ListOf | Attr | Call | Comp | Bin | Not | Neg | If
LITERALS = (Num, Str, Const)
# each class's short name (the front end's tuple trees name their kind so: language/expressions.py)
TAG: dict[type, str] = {Num: "num", Str: "str", Const: "const", Name: "name", ListOf: "list", Attr: "attr",
                        Call: "call", Comp: "comp", Bin: "bin", Not: "not", Neg: "neg", If: "if"}


def sub_nodes(node: Node) -> tuple[Node, ...]:
    """The node's sub-expressions, in the order they are written."""
    match node:
        case ListOf(items=items):
            return items
        case Attr(obj=obj):
            return (obj,)
        case Call(args=args):
            return args
        case Comp(body=body, iterable=iterable, cond=cond):
            return (body, iterable) if cond is None else (body, iterable, cond)
        case Bin(a=a, b=b):
            return (a, b)
        case Not(a=a) | Neg(a=a):
            return (a,)
        case If(cond=cond, then=then, other=other):
            return (cond, then, other)
    return ()


def with_sub_nodes(node: Node, fn: Any) -> Node:
    """The node with each sub-expression `x` replaced by fn(x) (the node itself where it has none)."""
    match node:
        case ListOf(items=items):
            return ListOf(tuple(fn(x) for x in items), node.span)
        case Attr(obj=obj, name=name):
            return Attr(fn(obj), name, node.span)
        case Call(fname=fname, args=args):
            return Call(fname, tuple(fn(x) for x in args), node.span)
        case Comp(fname=fname, body=body, var=var, iterable=iterable, cond=cond):
            return Comp(fname, fn(body), var, fn(iterable), None if cond is None else fn(cond), node.span)
        case Bin(op=op, a=a, b=b):
            return Bin(op, fn(a), fn(b), node.span)
        case Not(a=a):
            return Not(fn(a), node.span)
        case Neg(a=a):
            return Neg(fn(a), node.span)
        case If(cond=cond, then=then, other=other):
            return If(fn(cond), fn(then), fn(other), node.span)
    return node


def names_in(node: Node) -> set[str]:
    """Free names used in a node (bound comprehension variables excluded), as language/expressions.names_in gives them."""
    out: set[str] = set()
    stack: list[tuple[Node, frozenset[str]]] = [(node, frozenset())]
    while stack:
        n, bound = stack.pop()
        if isinstance(n, Name):
            if n.ident not in bound:
                out.add(n.ident)
        elif isinstance(n, Comp):
            inner = bound | {n.var}
            stack.append((n.iterable, bound))
            stack.append((n.body, inner))
            if n.cond is not None:
                stack.append((n.cond, inner))
        else:
            stack.extend((x, bound) for x in sub_nodes(n))
    return out


def is_node(value: Any) -> bool:
    return type(value) in TAG


def words_of(node: Node) -> tuple:
    """The words a node holds itself (names, operators, strings, a number as written), its kind's among them
    (TAG: as the front end's tuple tree spells it)."""
    tag = TAG[type(node)]
    match node:
        case Num(text=text):
            return (tag, text)
        case Str(value=v) | Const(value=v):
            return (tag, v) if type(v) is str else (tag,)
        case Name(ident=n):
            return (tag, n)
        case Attr(name=n):
            return (tag, n)
        case Call(fname=f):
            return (tag, f)
        case Comp(fname=f, var=v):
            return (tag, f, v)
        case Bin(op=op):
            return (tag, op)
    return (tag,)
