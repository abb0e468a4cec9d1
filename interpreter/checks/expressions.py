"""Pass: every expression parses, uses only known names, and is well typed; `let` definitions do
not refer to themselves, directly or through each other (so every expression terminates)."""
from __future__ import annotations

import functools
from fractions import Fraction

from interpreter.checks.context import Context, names_a_suit, names_one_of, plain_name
from interpreter.checks.family_names import family_names
from interpreter.checks.field_types import HELP as FIELD_HELP
from interpreter.checks.field_types import scope_of, wanted
from interpreter.checks.typecheck import Checker, ExprError, describe, fits
from interpreter.diagnostics import Diagnostic, DiagnosticError, Span
from interpreter.language.document import escape
from interpreter.language.expressions import children, locate, names_in, parse_text
from interpreter.model.vocabulary import FUNCTIONS, REGISTRY, VALUES
from interpreter.model.words import doubles
from interpreter.resources import schema


@functools.lru_cache(maxsize=1)
def _enum_words() -> frozenset[str]:
    """Every word some enum of the schema allows (the schema is fixed: worked out once)."""
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
    return frozenset(words)


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
    for name in doubles(ctx.doc):          # the calls on the bid (auction.doubles)
        add(name, "call")
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
    for name, t in family_names(ctx.doc):
        add(name, t)
    for name, types in kinds.items():   # a name of things of several kinds: any value, but a number only if one is
        env[name] = types.pop() if len(types) == 1 else "any" if types & {"num", "bool"} else "word"
    env.update({"s": "seat", "t": "seat"})
    return env


def _report(ctx: Context, err: ExprError, message: str, ptr: str, root) -> None:
    """An expression error, with the caret under the part of the expression at fault where it can be told."""
    file, span = ctx.where(ptr)
    span = _narrow(ctx.sources.get(file), span, root, err.node) or span
    ctx.diagnostics.append(Diagnostic(err.code, message, file, span, help=err.help, suggestions=list(err.suggestions)))


def _narrow(source: str | None, span: Span | None, root, node) -> Span | None:
    if source is None or span is None or node is None or node is root:
        return None
    lines = source.splitlines()
    if not (1 <= span.line <= span.end_line <= len(lines)):
        return None
    if span.line == span.end_line:
        text = lines[span.line - 1][span.col - 1: span.end_col - 1]
    else:
        text = "\n".join([lines[span.line - 1][span.col - 1:], *lines[span.line: span.end_line - 1],
                          lines[span.end_line - 1][: span.end_col - 1]])
    line, col = span.line, span.col
    if text[:1] in "\"'" and text[-1:] == text[:1] and len(text) > 1:  # a quoted YAML/JSON string
        text, col = text[1:-1], col + 1
    found = locate(text, root, node)
    if found is None:
        return None

    def shift(ln, c):
        return (line + ln - 1, col + c - 1 if ln == 1 else c)

    start, end = shift(found.line, found.col), shift(found.end_line, found.end_col)
    return Span(start[0], start[1], end[0], end[1])


def _calls(node) -> set[str]:
    """Names of the functions a node calls."""
    out, stack = set(), [node]
    while stack:
        n = stack.pop()
        if n[0] in ("call", "comp"):
            out.add(n[1])
        stack.extend(children(n))
    return out


# What a rule file may declare, where, and in words: a name the file declares may not be a built-in
# value or function, or an expression could never tell the two apart.
_DECLARED = (("let", "let", "lets"), ("contract", "contract", "contracts"), ("call", "call", "calls"),
             ("figure", "figure", "figures"), ("option", "option", "options"), ("category", "category", "categories"),
             ("seating/roles", "role", "roles"), ("deck/group", "group", "groups"), ("talon", "talon procedure", "talons"))


def _figure_clashes(ctx: Context) -> None:
    """E411: a figure named like a group, card, contract or call of the file: in an expression the name reads as
    that (`declared_by(trula, …)` would read the group `trula`), so the figure could never be named."""
    raw = ctx.doc.get("figure")
    figures: dict = raw if isinstance(raw, dict) else {}
    others = [(ctx.groups, "group"), (set(ctx.cards), "card"), (ctx.contracts, "contract"), (ctx.calls, "call")]
    for name in figures:
        for pool, word in others:
            if name in pool:
                ctx.error("E411", f"figure '{name}' has the name of the {word} '{name}'", f"/figure/{escape(str(name))}",
                          key=True, help=f"choose another name for the figure, such as 'all_{name}' or '{name}_bonus'; "
                          f"in an expression '{name}' reads as the {word}")
                break


def _shadowing(ctx: Context) -> set[str]:
    """E411: a declared name that is also a built-in (`let given_up = …`, `contract declarer { … }`), or a
    `let` named like something else the file declares (`let misere = contract == misere`). Returns the
    clashing lets, which are then left out, so that the name keeps its declared meaning."""
    builtins = set(VALUES) | set(FUNCTIONS)
    clashing: set[str] = set()
    others = [(ctx.contracts, "contract"), (ctx.calls, "call"), (ctx.figures, "figure"), (ctx.options, "option"),
              (ctx.categories, "category"), (ctx.roles, "role"), (ctx.groups, "group"), (ctx.accounts, "account"),
              (ctx.talons, "talon procedure"), (set(ctx.suits), "suit"), (set(ctx.cards), "card")]
    for name in ctx.lets if isinstance(ctx.lets, dict) else ():
        for pool, word in others:
            if name in pool:
                clashing.add(name)
                ctx.error("E411", f"let '{name}' has the name of the {word} '{name}'", f"/let/{escape(str(name))}",
                          key=True, help=f"choose another name for the let, such as '{name}_now' or 'is_{name}'")
                break
    _figure_clashes(ctx)
    for where, word, _ in _DECLARED:
        node: object = ctx.doc
        for step in where.split("/"):
            node = node.get(step) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            continue
        for name in node:
            if name in builtins:
                kind = "function" if name in FUNCTIONS else "value"
                ctx.error("E411", f"{word} '{name}' has the name of the built-in {kind} '{name}'",
                          f"/{where}/{escape(str(name))}", key=True,
                          help=f"choose another name for the {word}; '{name}' is {FUNCTIONS[name][2] if name in FUNCTIONS else VALUES[name][1]}")
                if where == "let":
                    clashing.add(name)
    return clashing


def check(ctx: Context) -> None:
    clashing = _shadowing(ctx)
    env = environment(ctx)
    functions: dict[str, tuple] = {}
    parsed: dict[str, tuple] = {}
    # let definitions: parse, then check in dependency order
    lets = ctx.lets if isinstance(ctx.lets, dict) else {}
    bodies: dict[str, tuple[tuple, tuple, str]] = {}
    for name, value in lets.items():
        if name in clashing:
            continue
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
    for name in [n for n in bodies if n in cyclic]:
        through = [n for n in sorted(cyclic) if n != name]
        via = f" through {', '.join(repr(n) for n in through)}" if through else ""
        ctx.error("E404", f"'let {name}' refers to itself{via}", bodies[name][2],
                  key=True, help="expressions may not recurse; write the value out")
    for name in order:
        params, node, ptr = bodies[name]
        free = sorted((names_in(node) & {"s", "t"}) - set(params))
        if free:        # read where the let is used, it would mean whatever `s` is there: the backends differ
            ctx.error("E401", f"'let {name}' reads '{free[0]}', which is no parameter of it", ptr, key=True,
                      help=f"a let is worked out apart from the rows that use it: make '{free[0]}' a parameter, "
                      f"`let {name}({', '.join([*params, free[0]])}) = …`, and pass it where the let is used")
        scope = dict.fromkeys(params, "any")
        let_checker = Checker(env, functions)
        try:
            t = let_checker.check(node, scope)
        except ExprError as err:
            for one in (err, *err.more):
                _report(ctx, one, f"in 'let {name}': {one}", ptr, node)
            t = "any"
        _report_pending(ctx, let_checker, ptr, node)
        if params:
            functions[name] = (tuple("any" for _ in params), t, "defined in the rule file")
        else:
            env[name] = t
    for name in cyclic:  # reported above; known from here on, so that their uses raise nothing more
        params = bodies[name][0]
        if params:
            functions[name] = (tuple("any" for _ in params), "any", "defined in the rule file")
        else:
            env.setdefault(name, "any")
    checker = Checker(env, functions)
    for ptr, value, kind, path in ctx.fields:
        want = wanted(tuple(map(str, path))) if path and kind == "expr" else None
        if path and path[-1] in ("from", "to") and isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            ctx.error("E402", f"{_field(path)} names who pays or is paid (a seat or an account), not a number", ptr,
                      help="e.g. `declarer`, `s`, `pot` or `account(money, s)`")
            continue
        if want in ("name", "contract") and isinstance(value, bool):     # `talon = true`: no name at all
            ctx.error("E402", f"{_field(path)} must give {describe(want)}, but this is {str(value).lower()}", ptr,
                      help=_FIELD_HELP[want])
            continue
        if want and want != "num" and isinstance(value, (int, Fraction)) and not isinstance(value, bool):   # a bare number
            ctx.error("E402", f"{_field(path)} must give {describe(want)}, but this is a number", ptr,
                      help=_FIELD_HELP[want])
            continue
        if path[:1] == ("let",) or kind not in ("expr", "num") or not isinstance(value, str):
            continue
        if path and path[-1] in ("from", "to") and value == "others":   # the payee form "each other player"
            continue
        if path[:1] == ("contract",) and path[-1:] == ("trump",) and names_a_suit(ctx, value):   # a suit: checks/references
            continue
        if path[:1] == ("figure",) and path[-1:] == ("card",) and names_one_of(ctx, value, ctx.cards):   # checks/references
            continue
        name_or_expr = tuple(path[-1:]) == ("talon",) or tuple(path[-2:]) == ("all_pass", "contract")
        if name_or_expr and plain_name(value):   # a name: checks/references; an expression: checks/family_forms
            continue
        file, span = ctx.where(ptr)
        try:
            node = parse_text(value, file, span)
        except DiagnosticError as err:
            ctx.diagnostics.extend(err.diagnostics)
            continue
        parsed[ptr] = node
        try:
            t = checker.check(node, scope_of(tuple(map(str, path))))
        except ExprError as err:
            for one in (err, *err.more):
                _report(ctx, one, f"{one} (in {_field(path)})", ptr, node)
            continue
        finally:
            _report_pending(ctx, checker, ptr, node)
        if path and path[-1] in ("from", "to") and node[0] in ("num", "bin", "neg", "true", "false") and t != "any":
            ctx.error("E402", f"{_field(path)} names who pays or is paid (a seat or an account), but this expression "
                      f"gives {describe(t)}", ptr, help="e.g. `declarer`, `s`, `pot` or `account(money, s)`")
        if kind == "num" and t not in ("num", "any"):
            ctx.error("E402", f"{_field(path)} must be a number, but this expression gives {describe(t)}", ptr)
        if want and not fits(t, want) and (t != "none" or want in ("num", "bool")):   # none: no seat, never a number
            ctx.error("E402", f"{_field(path)} must give {describe(want)}, but this expression gives {describe(t)}",
                      ptr, help=_FIELD_HELP[want])
    ctx.expressions = parsed


def _report_pending(ctx: Context, checker: Checker, ptr: str, root) -> None:
    """E410 for every use of a registry name the engine does not implement yet (drains the checker's list)."""
    for kind, name, node in checker.pending:
        if kind == "operator":
            entry = REGISTRY[("operator", name)]
            what = f"'{name}' on {' and '.join(entry.params)} ({entry.doc})"
        else:
            what = f"'{name}(…)'" if kind == "function" else f"'{name}'"
        err = ExprError("E410", f"{what} is declared in the vocabulary but the engine does not implement it yet",
                        node=node, help="a rule file that uses it cannot be played; see the pending entries "
                                        "in docs/vocabulary.md")
        _report(ctx, err, str(err), ptr, root)
    checker.pending.clear()


_FIELD_HELP = FIELD_HELP


def _field(path) -> str:
    return ".".join(p for p in path if p not in ("*", "#")) or "expression"


def _order(bodies):
    deps = {n: {m for m in names_in(node) | _calls(node) if m in bodies and m not in params}
            for n, (params, node, _) in bodies.items()}
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
