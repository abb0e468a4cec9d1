"""Constant values of the document: numbers written as integers or as constant expressions."""
from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from interpreter.diagnostics import DiagnosticError
from interpreter.language.expressions import parse_text


def constant(value) -> Fraction | None:
    """An exact number for an int or a constant expression such as '1/3'; None if it is not one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return _eval(parse_text(value))
        except (DiagnosticError, ZeroDivisionError, ValueError, TypeError, OverflowError):
            return None
    return None


def _eval(node) -> Fraction | None:
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "neg":
        v = _eval(node[1])
        return None if v is None else -v
    if kind == "bin" and node[1] in "+-*/":
        a, b = _eval(node[2]), _eval(node[3])
        if a is None or b is None:
            return None
        return {"+": a + b, "-": a - b, "*": a * b}.get(node[1]) if node[1] != "/" else (a / b if b else None)
    return None


class NotBeforePlay(ValueError):
    """An expression that reads something not known before any deal (a seat, a card, the play)."""


_FUNCTIONS: dict[str, Callable[..., Any]] = {"min": min, "max": max, "abs": abs, "floor": lambda v: Fraction(v).__floor__(),
              "ceil": lambda v: Fraction(v).__ceil__()}


def evaluate(value, names, lets=None):
    """A value the rules fix before any deal: a number, or an expression over `names` (the table
    options with their values) and the rule file's lets made of them, with arithmetic, comparisons,
    and/or/not, if … then … else, min, max, abs, floor and ceil. Raises NotBeforePlay naming what
    else it reads, ValueError when it cannot be worked out."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return Fraction(value)
    if not isinstance(value, str):
        raise ValueError(f"not a number or an expression: {value!r}")
    try:
        node = parse_text(value)
    except DiagnosticError as err:
        raise ValueError(err.diagnostics[0].message if err.diagnostics else "not an expression") from None
    try:
        return _calc(node, names, lets or {}, 0)
    except (ZeroDivisionError, OverflowError, TypeError) as err:
        raise ValueError(f"{value} cannot be worked out: {err}") from None


def _calc(node, names, lets, depth: int):
    if depth > 50:
        raise ValueError("the lets refer to each other too deeply")
    kind = node[0]
    sub = lambda n: _calc(n, names, lets, depth + 1)
    if kind == "num":
        return node[1]
    if kind == "const":
        return node[1]
    if kind == "name":
        name = node[1]
        if name in names:
            v = names[name]
            return Fraction(v) if isinstance(v, int) and not isinstance(v, bool) else v
        if isinstance(lets.get(name), (str, int)):
            return _calc(parse_text(lets[name]) if isinstance(lets[name], str) else ("num", Fraction(lets[name])),
                         names, lets, depth + 1)
        raise NotBeforePlay(name)
    if kind == "neg":
        return -sub(node[1])
    if kind == "not":
        return not sub(node[1])
    if kind == "if":
        return sub(node[2]) if sub(node[1]) else sub(node[3])
    if kind == "bin":
        op = node[1]
        if op == "and":
            return bool(sub(node[2])) and bool(sub(node[3]))
        if op == "or":
            return bool(sub(node[2])) or bool(sub(node[3]))
        a, b = sub(node[2]), sub(node[3])
        ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: Fraction(a) / b,
               "%": lambda: a % b, "^": lambda: a ** int(b) if abs(b) <= 64 else None,
               "==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
               ">": lambda: a > b, ">=": lambda: a >= b}
        if op in ops:
            out = ops[op]()
            if out is None:
                raise ValueError("a power beyond 64")
            return out
    if kind == "call" and node[1] in _FUNCTIONS:
        return _FUNCTIONS[node[1]](*(sub(a) for a in node[2]))
    raise NotBeforePlay(node[1] if kind == "call" else kind)
