"""An expression of a rule file as the typed model keeps it (model/game.py, model/phases.py)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from interpreter.model.nodes import Node

Expr = Any          # an expression as written: its text, or a constant (a number, a truth, a card's code)


@dataclass(frozen=True)
class Expression:
    """An expression the rule file writes: its source (text, or a constant) and its place, a dotted path."""
    source: Expr
    at: str = ""

    @cached_property
    def node(self) -> Node:
        """The expression as a typed node (model/nodes.py), parsed once by the front end (language/nodes.py)."""
        from interpreter.language.nodes import node_of

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
