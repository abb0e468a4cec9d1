"""What every semantic check pass shares: the document, where its parts were written, the symbols
it declares, and a walk over its fields guided by the JSON Schema."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from interpreter.diagnostics import Diagnostic, best_matches
from interpreter.language.document import escape
from interpreter.model.deck import card_codes
from interpreter.resources import schema


@dataclass
class Context:
    doc: dict
    origins: Any
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)   # file → text, to place carets inside expressions
    expressions: dict[str, tuple] = field(default_factory=dict)   # pointer → parsed tree, kept by the expressions pass

    def __post_init__(self):
        d = self.doc
        deck = d.get("deck", {}) if isinstance(d.get("deck"), dict) else {}
        self.suits = [str(s) for s in deck.get("suits", [])]
        self.cards = card_codes(deck)
        self.groups = dict(deck.get("group", {}))
        self.ranks = {str(r) for r in deck.get("ranks", [])}
        for s in deck.get("suit", {}).values():
            self.ranks.update(str(r) for r in s.get("ranks", []))
        self.contracts = dict(d.get("contract", {}))
        self.calls = dict(d.get("call", {}))
        self.talons = dict(d.get("talon", {}))
        self.figures = dict(d.get("figure", {}))
        self.accounts = dict(d.get("account", {}))
        self.options = dict(d.get("option", {}))
        self.roles = dict(d.get("seating", {}).get("roles", {})) if isinstance(d.get("seating"), dict) else {}
        self.categories = set(d.get("category", {}))
        for item in list(self.contracts.values()) + list(self.calls.values()):
            if isinstance(item, dict) and isinstance(item.get("category"), str):
                self.categories.add(item["category"])
        hold = d.get("auction", {}).get("hold", {}) if isinstance(d.get("auction"), dict) else {}
        self.hold_word = hold.get("call") if isinstance(hold, dict) else None
        self.lets = dict(d.get("let", {}))

    @functools.cached_property
    def fields(self) -> list[tuple[str, Any, str, tuple[str, ...]]]:
        """walk(doc), made once: the passes read the document, never write it."""
        return list(walk(self.doc))

    def where(self, ptr: str, key: bool = False):
        return self.origins.find(ptr, prefer_key=key)

    def error(self, code: str, message: str, ptr: str, *, key: bool = False, help=None, suggestions=(), severity="error"):
        file, span = self.where(ptr, key)
        self.diagnostics.append(Diagnostic(code, message, file, span, help=help,
                                           suggestions=list(suggestions), severity=severity))

    def unknown(self, what: str, name, pool, ptr: str, key: bool = False):
        plural = " or ".join(w + "s" for w in what.split(" or "))
        known = sorted(map(str, pool))
        shown = ", ".join(known[:12]) + (f" and {len(known) - 12} more" if len(known) > 12 else "")
        self.error("E301", f"unknown {what} '{name}'", ptr, key=key, suggestions=best_matches(str(name), pool),
                   help=f"known {plural}: {shown}" if pool else f"the rule file declares no {plural}")


def already(ctx: Context, ptr: str) -> bool:
    """An error is reported on the line of `ptr` already (a later pass need not say more about it)."""
    file, span = ctx.where(ptr)
    return span is not None and any(d.severity == "error" and d.file == file and d.span is not None
                                    and d.span.line == span.line for d in ctx.diagnostics)


def _resolve(sub: dict) -> dict:
    ref = sub.get("$ref")
    if ref and ref.startswith("#/$defs/"):
        return schema()["$defs"][ref.rsplit("/", 1)[-1]] | {"_ref": ref.rsplit("/", 1)[-1]}
    return sub


def _kind(sub: dict, value) -> tuple[str | None, dict | None]:
    """The field kind for `value` under `sub`: ('expr'|'num'|'name'|'names', None) or (None, subschema to descend)."""
    ref = sub.get("$ref", "")
    if ref.endswith("/expr"):
        return "expr", None
    if ref.endswith("/num"):
        return "num", None
    if ref.endswith("/name"):
        return "name", None
    if ref.endswith("/names"):
        return "names", None
    for branch_key in ("oneOf", "anyOf"):
        if branch_key in sub:
            branches = sub[branch_key]
            for b in branches:
                bref = b.get("$ref", "")
                if isinstance(value, list) and bref.endswith("/names"):
                    return "names", None
                if isinstance(value, dict) and b.get("type") == "object":
                    return None, b
            for b in branches:
                bref = b.get("$ref", "")
                if (bref.endswith("/expr") or b.get("x-expression")) and not isinstance(value, (list, dict)):
                    return "expr", None
                if bref.endswith("/name") and isinstance(value, str):
                    return "name", None
            return None, None
    return None, sub


def walk(doc: dict):
    """Yield (pointer, value, kind, field-path) for every expression, number and name field."""
    stack: list[tuple[object, dict, str, tuple[str, ...]]] = [(doc, schema(), "", ())]
    while stack:
        value, sub, ptr, path = stack.pop()
        kind, descend = _kind(sub, value)
        if kind:
            yield ptr, value, kind, path
            continue
        if descend is None:
            continue
        if isinstance(value, dict):
            props = descend.get("properties", {})
            extra = descend.get("additionalProperties")
            for k, v in value.items():
                if k in props:
                    stack.append((v, props[k], ptr + "/" + escape(k), path + (k,)))
                elif isinstance(extra, dict):
                    stack.append((v, extra, ptr + "/" + escape(k), path + ("*",)))
        elif isinstance(value, list) and isinstance(descend.get("items"), dict):
            for i, v in enumerate(value):
                stack.append((v, descend["items"], f"{ptr}/{i}", path + ("#",)))


def plain_name(value) -> bool:
    """A field that takes a name or an expression holds a plain name (`H`), not an expression."""
    return isinstance(value, str) and re.fullmatch(r"\w+", value) is not None


def names_a_suit(ctx: Context, value) -> bool:
    """A contract's `trump` written as a suit's name (checked as a reference), not as an expression: a
    plain name that is a suit, or that the expressions do not know either (an unknown suit, E301)."""
    return names_one_of(ctx, value, ctx.suits)


def names_one_of(ctx: Context, value, pool) -> bool:
    """A field that takes a name of `pool` or an expression (a contract's `trump`, a figure's `card`)
    holds a name, checked as a reference: a plain name in `pool`, or one the expressions do not know
    either (reported as unknown, E301). Any other value is an expression, typed by checks/expressions."""
    from interpreter.model.vocabulary import VALUES

    return plain_name(value) and (value in pool or (value not in ctx.lets and value not in VALUES))
