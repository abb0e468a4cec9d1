"""What the newer collections add to the names of expressions, and which names a field gives when it is
written as an expression instead of a name.

- `ranking NAME` declares NAME (type `ranking`, for `in_suit(suit, NAME)`); `choice NAME` declares NAME
  (type `choice`, for `chose(NAME)`) and its options (type `name`, to compare with `chose(NAME)`); a
  `ladder` declares its steps (type `call`: `bid_18`) and its strains that are not suits (type `name`: `NT`).
- A field that names a talon procedure or a contract may give it by an expression
  (`talon = if chose(pickup) == hand then untouched else exchange`): `given_names` finds the names such an
  expression can give — the results of its `if … then … else …` — so that each is checked as a reference.
"""
from __future__ import annotations

from interpreter.checks.context import plain_name
from interpreter.diagnostics import DiagnosticError
from interpreter.language.expressions import parse_text
from interpreter.model.family import choice_options, ladder_steps, rankings, strain_names


def as_dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def as_list(value) -> list:
    return value if isinstance(value, list) else []


def family_names(doc: dict) -> list[tuple[str, str]]:
    suits = {str(s) for s in as_list(as_dict(doc.get("deck")).get("suits"))}
    out: list[tuple[str, str]] = [(name, "ranking") for name in rankings(doc)]
    for name, options in choice_options(doc).items():
        out.append((name, "choice"))
        out += [(o, "name") for o in options]
    out += [(name, "call") for name in ladder_steps(doc)]
    out += [(s, "name") for s in strain_names(doc) if s not in suits]
    return out


def is_expression(value) -> bool:
    """A name-or-expression field holds an expression (not a plain name, not none)."""
    return isinstance(value, str) and not plain_name(value)


def results(node) -> set[str] | None:
    """The names an expression can give: the leaves of its `if … then … else …` (none gives nothing);
    None when some result is not a plain name (a call, arithmetic: nothing to check by name)."""
    kind = node[0]
    if kind == "if":
        a, b = results(node[2]), results(node[3])
        return None if a is None or b is None else a | b
    if kind == "name":
        return {node[1]}
    if kind == "const" and node[1] is None:
        return set()
    return None


def given_names(value) -> set[str]:
    """The names a name-or-expression field can give (empty when it cannot be told)."""
    if value is None or not isinstance(value, str):
        return set()
    if plain_name(value):
        return {value}
    try:
        return results(parse_text(value)) or set()
    except DiagnosticError:
        return set()
