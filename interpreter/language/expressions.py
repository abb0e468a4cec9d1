"""Expressions as small immutable trees, built from Lark trees or from text, printed canonically.

A node is a tuple whose first item names its kind:

    ("num", Fraction, text)      ("str", text)          ("name", ident)
    ("const", None|True|False)   ("list", (items…))     ("attr", obj, name)
    ("call", fname, (args…))     ("comp", fname, body, var, iterable, cond|None)
    ("bin", op, a, b)            ("not", a)             ("neg", a)
    ("if", cond, then, else)

The rules document stores every compound expression as its canonical text, so that the DSL,
YAML and JSON spellings of a rule file give one and the same document.
"""
from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from lark import Token, Tree

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span

BINARY = {"or_op": "or", "and_op": "and", "add": "+", "sub": "-", "mul": "*", "div": "/",
          "mod": "%", "pow": "^", "in_op": "in", "not_in_op": "not in"}
PRECEDENCE = {"if": 0, "or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4,
              ">=": 4, "in": 4, "not in": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6, "neg": 7,
              "^": 8, "atom": 10}
MAX_TREE_DEPTH = 160      # how deep a file's or an expression's tree may nest (document.py, _parse_cached)
EXPRESSION_RULES = set(BINARY) | {"compare", "not_op", "neg", "if_expr", "attr", "call",
                                  "comprehension", "number", "string", "name", "none", "true",
                                  "false", "list"}


class NotAnExpression(Exception):
    def __init__(self, message: str, meta=None):
        super().__init__(message)
        self.meta = meta


def from_tree(tree) -> tuple:
    """Convert a Lark expression tree (from the grammar's ?expr rules) to a node."""
    if isinstance(tree, Token):
        raise NotAnExpression(f"unexpected token {tree!s}")
    kind = tree.data
    ch = tree.children
    if kind == "number":
        text = str(ch[0])
        return ("num", Fraction(text), text)
    if kind == "string":
        return ("str", unquote(str(ch[0])))
    if kind == "name":
        return ("name", str(ch[0]))
    if kind == "none":
        return ("const", None)
    if kind == "true":
        return ("const", True)
    if kind == "false":
        return ("const", False)
    if kind == "list":
        return ("list", tuple(from_tree(c) for c in ch))
    if kind in BINARY:
        return ("bin", BINARY[kind], from_tree(ch[0]), from_tree(ch[1]))
    if kind == "compare":
        return ("bin", str(ch[1]), from_tree(ch[0]), from_tree(ch[2]))
    if kind == "not_op":
        return ("not", from_tree(ch[0]))
    if kind == "neg":
        inner = from_tree(ch[0])
        if inner[0] == "num":
            return ("num", -inner[1], "-" + inner[2])
        return ("neg", inner)
    if kind == "if_expr":
        return ("if", from_tree(ch[0]), from_tree(ch[1]), from_tree(ch[2]))
    if kind == "attr":
        return ("attr", from_tree(ch[0]), str(ch[1]))
    if kind == "call":
        return ("call", str(ch[0]), tuple(from_tree(c) for c in ch[1:]))
    if kind == "comprehension":
        cond = from_tree(ch[4]) if len(ch) > 4 else None
        return ("comp", str(ch[0]), from_tree(ch[1]), str(ch[2]), from_tree(ch[3]), cond)
    if kind in ("map", "table", "empty_cell", "cell"):
        raise NotAnExpression("a map or table cannot be part of an expression", getattr(tree, "meta", None))
    raise NotAnExpression(f"'{kind}' is not an expression", getattr(tree, "meta", None))


def unquote(text: str) -> str:
    body = text[1:-1]
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(nxt, nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def _prec(node) -> int:
    kind = node[0]
    if kind == "bin":
        return PRECEDENCE[node[1]]
    if kind in ("if", "not", "neg"):
        return PRECEDENCE[kind]
    if kind == "num" and node[2].startswith("-"):  # "-0" and "--3" bind like '-' too
        return PRECEDENCE["neg"]
    return PRECEDENCE["atom"]


def to_text(node) -> str:
    """Canonical text of a node; parsing it again gives the same node."""
    kind = node[0]
    if kind == "num":
        return node[2]
    if kind == "str":
        return quote(node[1])
    if kind == "name":
        return node[1]
    if kind == "const":
        return {None: "none", True: "true", False: "false"}[node[1]]
    if kind == "list":
        return "[" + ", ".join(to_text(x) for x in node[1]) + "]"
    if kind == "attr":
        if node[1][0] == "num":  # "(3).x": written "3.x", a name such as 5H would be read as the number 3.5
            return "(" + to_text(node[1]) + ")." + node[2]
        return _wrap(node[1], PRECEDENCE["atom"]) + "." + node[2]
    if kind == "call":
        return node[1] + "(" + ", ".join(to_text(a) for a in node[2]) + ")"
    if kind == "comp":
        _, fname, body, var, iterable, cond = node
        text = f"{fname}({to_text(body)} for {var} in {to_text(iterable)}"
        if cond is not None:
            text += f" if {to_text(cond)}"
        return text + ")"
    if kind == "not":
        return "not " + _wrap(node[1], PRECEDENCE["not"])
    if kind == "neg":
        return "-" + _wrap(node[1], PRECEDENCE["neg"])
    if kind == "if":
        return f"if {to_text(node[1])} then {to_text(node[2])} else {to_text(node[3])}"
    if kind == "bin":
        op, a, b = node[1], node[2], node[3]
        p = PRECEDENCE[op]
        if op == "^":  # right-associative
            return f"{_wrap(a, p + 1)} ^ {_wrap(b, p)}"
        if p == 4:  # comparisons do not chain
            return f"{_wrap(a, p + 1)} {op} {_wrap(b, p + 1)}"
        return f"{_wrap(a, p)} {op} {_wrap(b, p + 1)}"
    raise ValueError(f"unknown node {kind}")


def _wrap(node, min_prec: int) -> str:
    text = to_text(node)
    return f"({text})" if _prec(node) < min_prec else text


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> tuple:
    from interpreter.language.parser import parse

    tree = parse(text, "<expression>", start="expr_start")
    depth, node = deepest(tree)
    if depth > MAX_TREE_DEPTH:  # converting it would recurse too deeply
        depth, node = deepest(parse(text, "<expression>", start="expr_start", positions=True))
        raise DiagnosticError([Diagnostic("E102", f"the expression nests deeper than {MAX_TREE_DEPTH} levels",
                                          "<expression>", Span.of(getattr(node, "meta", node)),
                                          help="split a long expression with 'let'")])
    try:
        return from_tree(tree.children[0])
    except NotAnExpression:  # e.g. a map inside a list: "[{ a = 1 }]"; parse again to locate it
        try:
            from_tree(parse(text, "<expression>", start="expr_start", positions=True).children[0])
        except NotAnExpression as err:
            raise DiagnosticError([Diagnostic("E123", str(err), "<expression>", Span.of(err.meta))]) from None
        raise


def parse_text(text: str, file: str = "<input>", span: Span | None = None) -> tuple:
    """Parse expression text (as stored in a rules document) into a node; cached by text."""
    try:
        return _parse_cached(text)
    except DiagnosticError as err:
        # Re-anchor the position at the document value that holds the expression.
        diags = []
        for d in err.diagnostics:
            shown = text if len(text) <= 60 else text[:57] + "…"
            diags.append(Diagnostic(d.code, f"in expression {shown!r}: {d.message}", file, span or d.span,
                                    help=d.help, suggestions=d.suggestions))
        raise DiagnosticError(diags) from None


def canonical(text: str) -> str:
    return to_text(parse_text(text))


def names_in(node) -> set[str]:
    """Free names used in a node (bound comprehension variables excluded)."""
    out: set[str] = set()
    stack: list[tuple[Any, frozenset[str]]] = [(node, frozenset())]
    while stack:
        n, bound = stack.pop()
        kind = n[0]
        if kind == "name":
            if n[1] not in bound:
                out.add(n[1])
        elif kind == "list":
            stack.extend((x, bound) for x in n[1])
        elif kind == "attr":
            stack.append((n[1], bound))
        elif kind == "call":
            stack.extend((x, bound) for x in n[2])
        elif kind == "comp":
            inner = bound | {n[3]}
            stack.append((n[4], bound))
            stack.append((n[2], inner))
            if n[5] is not None:
                stack.append((n[5], inner))
        elif kind == "bin":
            stack.append((n[2], bound))
            stack.append((n[3], bound))
        elif kind in ("not", "neg"):
            stack.append((n[1], bound))
        elif kind == "if":
            stack.extend((x, bound) for x in n[1:])
    return out


def children(node) -> list:
    """The sub-expressions of a node, in the order they are written."""
    kind = node[0]
    if kind == "list":
        return list(node[1])
    if kind == "attr":
        return [node[1]]
    if kind == "call":
        return list(node[2])
    if kind == "comp":
        return [node[2], node[4]] + ([node[5]] if node[5] is not None else [])
    if kind == "bin":
        return [node[2], node[3]]
    if kind in ("not", "neg"):
        return [node[1]]
    if kind == "if":
        return list(node[1:])
    return []


def _tree_children(tree) -> list:
    """The sub-expressions of a Lark expression tree, in the order of children(from_tree(tree))."""
    if not isinstance(tree, Tree):
        return []
    kind, ch = tree.data, tree.children
    if kind == "list" or kind == "if_expr":
        return list(ch)
    if kind in ("attr", "not_op", "neg"):
        return [ch[0]]
    if kind == "call":
        return list(ch[1:])
    if kind == "comprehension":
        return [ch[1], ch[3]] + ([ch[4]] if len(ch) > 4 else [])
    if kind in BINARY:
        return [ch[0], ch[1]]
    if kind == "compare":
        return [ch[0], ch[2]]
    return []


def locate(text: str, root, target) -> Span | None:
    """Where the sub-node `target` of `root` (found by identity) is written in `text`, the expression
    as it stands in the source; line 1, column 1 is the start of `text`. None if it cannot be told."""
    path: list[int] = []
    stack: list[tuple[Any, tuple[int, ...]]] = [(root, ())]
    while stack:
        node, here = stack.pop()
        if node is target:
            path = list(here)
            break
        kids = children(node) if isinstance(node, tuple) else []
        stack.extend((k, here + (i,)) for i, k in reversed(list(enumerate(kids))))
    else:
        return None
    from interpreter.language.parser import parse

    try:
        tree = parse(text, "<expression>", start="expr_start", positions=True).children[0]
        if from_tree(tree) != root:
            return None
    except (DiagnosticError, NotAnExpression):
        return None
    for i in path:
        kids = _tree_children(tree)
        if i >= len(kids):
            return None
        tree = kids[i]
    return Span.of(tree.meta if isinstance(tree, Tree) else tree)


def tree_depth(tree) -> int:
    """Depth of a Lark tree, computed without recursion."""
    return deepest(tree)[0]


def deepest(tree) -> tuple[int, object]:
    """Depth of a Lark tree and its first deepest node (tree or token), computed without recursion."""
    best, where = 0, tree
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > best:
            best, where = depth, node
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in reversed(node.children))
    return best, where
