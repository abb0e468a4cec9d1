"""Constant values of the document: numbers written as integers or as constant expressions."""
from __future__ import annotations

from fractions import Fraction

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
