"""Pass: every expression parses, uses only known names, and is well typed; `let` definitions do
not refer to themselves, directly or through each other (so every expression terminates)."""
from __future__ import annotations

from ..diagnostics import DiagnosticError
from ..document import escape
from ..expressions import names_in, parse_text
from ..resources import schema
from ..typecheck import Checker, ExprError
from ..vocabulary import VALUES
from .context import Context, walk


def _enum_words() -> set[str]:
    words: set[str] = set()
    stack = [schema()]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "enum" in node:
                words.update(str(v) for v in node["enum"] if isinstance(v, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return words


def environment(ctx: Context) -> dict[str, str]:
    env: dict[str, str] = {w: "name" for w in _enum_words() if w not in VALUES}
    kinds: dict[str, set[str]] = {}

    def add(name, t):
        kinds.setdefault(str(name), set()).add(t)

    for s in ctx.suits:
        add(s, "suit")
    for c in ctx.cards:
        add(c, "card")
    for g in ctx.groups:
        add(g, "cards")
    for c in ctx.contracts:
        add(c, "contract")
    for c in ctx.calls:
        add(c, "call")
    if ctx.hold_word:
        add(ctx.hold_word, "call")
    for c in ctx.categories:
        add(c, "name")
    for t in ctx.talons:
        add(t, "name")
    for f in ctx.figures:
        add(f, "figure")
    for a, acc in ctx.accounts.items():
        add(a, "num" if isinstance(acc, dict) and acc.get("per") == "game" else "account")
    for r in ctx.roles:
        add(r, "seat")
    for name, opt in ctx.options.items():
        v = opt.get("default") if isinstance(opt, dict) else None
        add(name, "bool" if isinstance(v, bool) else "num" if isinstance(v, int) else "name")
    for name, types in kinds.items():
        env[name] = types.pop() if len(types) == 1 else "any"
    env.update({"s": "seat", "t": "seat"})
    return env


def _record(ctx: Context, err, ptr):
    if isinstance(err, DiagnosticError):
        ctx.diagnostics.extend(err.diagnostics)
    else:
        ctx.error(err.code, err.message if hasattr(err, "message") else str(err), ptr, suggestions=err.suggestions)


def check(ctx: Context) -> None:
    env = environment(ctx)
    functions: dict[str, tuple] = {}
    parsed: dict[str, tuple] = {}
    # let definitions: parse, then check in dependency order
    lets = ctx.lets if isinstance(ctx.lets, dict) else {}
    bodies: dict[str, tuple[tuple, tuple, str]] = {}
    for name, value in lets.items():
        ptr = "/let/" + escape(name)
        params, text = ((), value) if not isinstance(value, dict) else (tuple(value.get("params", [])), value.get("body"))
        if not isinstance(text, str):
            bodies[name] = (params, ("const", text), ptr)
            continue
        file, span = ctx.where(ptr)
        try:
            bodies[name] = (params, parse_text(text, file, span), ptr)
        except DiagnosticError as err:
            ctx.diagnostics.extend(err.diagnostics)
    order, cyclic = _order(bodies)
    for name in cyclic:
        ctx.error("E404", f"'let {name}' refers to itself (through {', '.join(sorted(cyclic))})", bodies[name][2],
                  key=True, help="expressions may not recurse; write the value out")
    for name in order:
        params, node, ptr = bodies[name]
        scope = {p: "any" for p in params}
        try:
            t = Checker(env, functions).check(node, scope)
        except ExprError as err:
            ctx.error(err.code, f"in 'let {name}': {err}", ptr, suggestions=err.suggestions)
            t = "any"
        if params:
            functions[name] = (tuple("any" for _ in params), t, "defined in the rule file")
        else:
            env[name] = t
    for name in cyclic:
        env.setdefault(name, "any")
    checker = Checker(env, functions)
    for ptr, value, kind, path in walk(ctx.doc):
        if path[:1] == ("let",) or kind not in ("expr", "num") or not isinstance(value, str):
            continue
        file, span = ctx.where(ptr)
        try:
            node = parse_text(value, file, span)
        except DiagnosticError as err:
            ctx.diagnostics.extend(err.diagnostics)
            continue
        parsed[ptr] = node
        try:
            t = checker.check(node)
        except ExprError as err:
            ctx.error(err.code, f"{err} (in {_field(path)})", ptr, suggestions=err.suggestions)
            continue
        if kind == "num" and t not in ("num", "any"):
            ctx.error("E402", f"{_field(path)} must be a number, but this expression gives {t}", ptr)
    ctx.expressions = parsed


def _field(path) -> str:
    return ".".join(p for p in path if p not in ("*", "#")) or "expression"


def _order(bodies):
    deps = {n: {m for m in names_in(node) if m in bodies and m not in params} for n, (params, node, _) in bodies.items()}
    order, state = [], {}
    cyclic = set()
    for start in bodies:
        if start in state:
            continue
        stack = [(start, iter(sorted(deps[start])))]
        state[start] = "open"
        path = [start]
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                path.pop()
                state[node] = "done"
                order.append(node)
                continue
            if state.get(nxt) == "open":
                cyclic.update(path[path.index(nxt):])
                continue
            if nxt not in state:
                state[nxt] = "open"
                path.append(nxt)
                stack.append((nxt, iter(sorted(deps[nxt]))))
    return [n for n in order if n not in cyclic], cyclic
