"""Pass: attribute names in expressions exist, and contract `props` are read somewhere.

`contract.defense` (for `defence`) or `this.rnak` would quietly be `none` at play, so an attribute
of a contract or a call must be one of its fields, `name`, or (contracts) a key of some contract's
`props`; seats, numbers, options and truth values have no attributes at all (E330). A `props` key
that no expression reads (`props { premum = 2 }`) changes nothing, so it is a warning (W331).
"""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.checks.expressions import _narrow
from interpreter.diagnostics import Diagnostic, DiagnosticError, best_matches
from interpreter.language.document import escape
from interpreter.language.expressions import children, parse_text, to_text
from interpreter.model.family import ladders
from interpreter.model.vocabulary import FUNCTIONS, VALUES
from interpreter.resources import schema

_SCALAR = {"seat": "a seat", "seats": "a set of seats", "num": "a number", "bool": "a truth value",
           "card": "a card", "cards": "a set of cards", "suit": "a suit"}


def _fields(kind: str) -> set[str]:
    props = schema()["properties"][kind]["additionalProperties"].get("properties", {})
    return set(props) | {"name"}


def _lets(ctx: Context) -> list[tuple[str, tuple, tuple[str, ...]]]:
    """(pointer, expression, parameters) of every `let` that parses."""
    out = []
    for name, value in (ctx.lets if isinstance(ctx.lets, dict) else {}).items():
        params, text = ((), value) if not isinstance(value, dict) else (tuple(value.get("params", [])), value.get("body"))
        if not isinstance(text, str):
            continue
        try:
            out.append(("/let/" + escape(name), parse_text(text), params))
        except DiagnosticError:
            pass   # reported by the expressions pass
    return out


class _Kinds:
    """The kind of value a sub-expression gives, where it can be told without running it."""

    def __init__(self, ctx: Context, lets: list):
        self.ctx = ctx
        self.let_nodes = {ptr.rsplit("/", 1)[1]: node for ptr, node, params in lets if not params}
        self.seen: set[str] = set()

    def of(self, node, bound: frozenset = frozenset()) -> str | None:
        kind = node[0]
        if kind == "name":
            n = node[1]
            if n in bound:
                return None
            if n in self.ctx.options:
                return "option"
            if n in self.ctx.roles or n in ("s", "t"):
                return "seat"
            if n in VALUES:
                return VALUES[n][0]
            if n in self.let_nodes and n not in self.seen:
                self.seen.add(n)
                try:
                    return self.of(self.let_nodes[n])
                finally:
                    self.seen.discard(n)
            return None
        if kind == "call" and node[1] in FUNCTIONS and node[1] not in self.let_nodes:
            return FUNCTIONS[node[1]][1]
        return None


def _walk(root):
    """Every node with the comprehension variables bound where it stands."""
    stack = [(root, frozenset())]
    while stack:
        node, bound = stack.pop()
        yield node, bound
        if node[0] == "comp":
            inner = bound | {node[3]}
            stack.append((node[4], bound))
            stack.extend((c, inner) for c in (node[2], node[5]) if c is not None)
        else:
            stack.extend((c, bound) for c in children(node))


def check(ctx: Context) -> None:
    lets = _lets(ctx)
    expressions = [(ptr, node) for ptr, node in getattr(ctx, "expressions", {}).items()]
    expressions += [(ptr, node) for ptr, node, _ in lets]
    props: dict[str, list[str]] = {}
    for name, c in ctx.contracts.items():
        if isinstance(c, dict) and isinstance(c.get("props"), dict):
            for key in c["props"]:
                props.setdefault(str(key), []).append(name)
    steps = {"level", "strain"} if ladders(ctx.doc) else set()     # the attributes of a ladder's steps
    allowed = {"contract": _fields("contract") | set(props), "call": _fields("call") | steps}
    kinds = _Kinds(ctx, lets)
    read: set[str] = set()
    for ptr, root in expressions:
        for node, bound in _walk(root):
            if node[0] != "attr":
                continue
            name = node[2]
            read.add(name)
            kind = kinds.of(node[1], bound)
            if kind in allowed and name not in allowed[kind]:
                pool = allowed[kind]
                what = "contract" if kind == "contract" else "call"
                extra = " and the keys of its `props`: " + ", ".join(sorted(props)) if kind == "contract" and props else ""
                _report(ctx, ptr, root, node, f"a {what} has no attribute '{name}'",
                        f"a {what}'s attributes are its fields (rank, category, …), `name`{extra}",
                        best_matches(name, pool))
            elif kind in _SCALAR or kind == "option":
                what = "a table option, a plain value" if kind == "option" else _SCALAR[kind]
                _report(ctx, ptr, root, node, f"'{to_text(node[1])}' is {what}: it has no attribute '{name}'",
                        "attributes belong to contracts and calls, e.g. contract.level or high.rank", [])
    _mixed_props(ctx, props)
    for key, owners in props.items():
        if key in read:
            continue
        ptr = f"/contract/{escape(owners[0])}/props/{escape(key)}"
        file, span = ctx.where(ptr, key=True)
        shown = ", ".join(owners[:6]) + (f" and {len(owners) - 6} more" if len(owners) > 6 else "")
        ctx.diagnostics.append(Diagnostic(
            "W331", f"props key '{key}' ({'contract ' if len(owners) == 1 else 'contracts '}{shown}) is read by no rule: "
                    f"no `contract.{key}` anywhere", file, span, severity="warning",
            suggestions=best_matches(key, read | set(props) - {key}),
            help="a props value matters only where an expression reads it; fix the spelling or remove it"))


def _mixed_props(ctx: Context, props: dict[str, list[str]]) -> None:
    """E402 for a props key that is a number in some contracts and a text in others (`bonus = ３` beside
    `bonus = 1`): an expression reading it computes with the numbers and fails on the text."""
    from interpreter.model.record_numbers import is_number_text

    for key, owners in props.items():
        values = [(o, ctx.contracts[o]["props"][key]) for o in owners]
        numbers = [o for o, v in values if isinstance(v, (int, bool)) or v is None or is_number_text(v)]
        texts = [(o, v) for o, v in values if isinstance(v, str) and not is_number_text(v)]
        if numbers and texts:
            owner, value = texts[0]
            ctx.error("E402", f"props '{key}' is a number in contract {numbers[0]} but the text '{str(value)[:40]}' in "
                      f"contract {owner}", f"/contract/{escape(owner)}/props/{escape(key)}",
                      help="a props key holds one kind of value in every contract: a number (digits 0-9) "
                      "everywhere, or a text everywhere")


def _report(ctx: Context, ptr: str, root, node, message: str, help: str, suggestions: list[str]) -> None:
    file, span = ctx.where(ptr)
    span = _narrow(ctx.sources.get(file), span, root, node) or span
    ctx.diagnostics.append(Diagnostic("E330", message, file, span, help=help, suggestions=suggestions))
