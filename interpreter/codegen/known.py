"""Source generated from what is known when the code is made (codegen/expr.py calls these): a let that
does not depend on the seat under a known contract; a comprehension over a constant collection, written
out member by member, each member a constant, so that what the body reads of it folds (a let function
it calls written out in it, where that reads the same); and a figure question (`achieved`, `attempted`)
of a figure known here, which calls the figure's generated goal or attempt given the side (`E…_side`,
codegen's `of_side`) where engine/figures.py would come to that judgement (the contract being settled
on lists the figure, no outcome is given, for an attempt nobody declared it), without the questions'
look-ups and calls, false for a figure that contract does not list; the question itself otherwise."""
from __future__ import annotations

import re
from typing import Any, Protocol

import interpreter.engine.builtins as B
from interpreter.codegen.reads import _STRING, TOP, reads
from interpreter.codegen.source import G, _as_num, _replaced, hoist, mirrors
from interpreter.codegen.templates import LOOP_INVARIANT, REDUCTIONS
from interpreter.engine import compile as X
from interpreter.engine import figures
from interpreter.model.nodes import (
    Attr,
    Bin,
    Call,
    Comp,
    Const,
    If,
    ListOf,
    Name,
    Neg,
    Node,
    Not,
    sub_nodes,
    with_sub_nodes,
)


class Gen(Protocol):
    """What these functions ask of the expression generator that calls them (codegen/expr.ExprGen), so that
    this module sits below it: its compiler, what is known where the code runs, the names it has given."""
    comp: X.Compiler
    known: dict[str, Any]
    local_names: dict[str, str]
    let_trees: dict[str, Any]
    let_of_call: dict[str, str]
    contracts: dict[str, Any]
    side_functions: dict[int, str]
    reads: dict[str, frozenset[str] | None]
    point_den: int | None
    unit_calls: set[str]

    def expr(self, node: Any, scope: frozenset = ...) -> G: ...

    def lit(self, v: Any) -> G: ...

    def builtin(self, builtin: str, fn: Any, note: str) -> str: ...

    def _helper(self, prefix: str, text: str, helper_reads: frozenset[str] | None) -> str: ...

# the most members a comprehension over a constant collection is written out for (a loop beyond)
UNROLL_MAX = 16


def known_let(gen: Gen, n: str) -> G | None:
    """A let that does not depend on the seat, where built-in values are known (the contract): its value
    when that makes it a constant, else a memo of its own under the same key when it folds to other
    source (both give the same value here), else None (the let's own function)."""
    from interpreter.engine.prepare import SEAT_NAMES
    tree = gen.let_trees[n]
    outer, gen.local_names = gen.local_names, {}      # a let is compiled outside any scope
    try:
        g = gen.expr(tree)
        if g.const:
            return g
        known, gen.known = gen.known, {}
        try:
            plain = gen.expr(tree).src
        finally:
            gen.known = known
    finally:
        gen.local_names = outer
    if g.src == plain:
        return None
    k = repr("let:" + n)
    text = (f"def {{name}}(c):\n    # let {n!r} with the contract known, computed once per settlement\n"
            f"    st = c.st\n    cache = c.cache\n    if cache is None:\n        return {g.src}\n"
            f"    if {k} not in cache:\n        cache[{k}] = {g.src}\n    return cache[{k}]\n")
    return G(gen._helper("M", text, TOP - SEAT_NAMES) + "(c)", g.kind)


def _members(gen: Gen, iterable: Node, scope: frozenset) -> tuple | None:
    """The members of a comprehension's collection when it is a constant tuple: as it reads here, or a
    let that does not depend on the seat whose tree folds to one (compiled outside any scope, as the let
    is); None otherwise."""
    g = gen.expr(iterable, scope)
    if not g.const and isinstance(iterable, Name):
        n = iterable.ident
        comp = gen.comp
        if (n in gen.local_names or n in scope or n in ("s", "t") or n not in comp.lets
                or n in comp.seat_dependent or n not in gen.let_trees):
            return None
        outer, gen.local_names = gen.local_names, {}
        try:
            g = gen.expr(gen.let_trees[n])
        finally:
            gen.local_names = outer
    return g.value if g.const and type(g.value) is tuple else None


def _spelt(gen: Gen, value: Any, scope: frozenset) -> Node | None:
    """A tree that reads as `value` here: the symbol of that name where it is the value (a figure, a call),
    a constant for a number, a truth value or none; None for anything else (a string's tree would read
    as the same text as a symbol's)."""
    comp = gen.comp
    if isinstance(value, str):
        n = str(value)
        if (comp.symbols.get(n) is value and n not in gen.local_names and n not in scope
                and n not in ("s", "t") and n not in comp.lets):
            return Name(n)
        return None
    return Const(value) if value is None or type(value) in (int, bool) else None


def _put(node: Any, var: str, tree: Node) -> Any:
    """The tree with each reading of the variable `var` written `tree` (not inside a comprehension that
    binds a variable of that name again, but in its collection)."""
    if isinstance(node, Name):
        return tree if node.ident == var else node
    if isinstance(node, Comp) and node.var == var:
        return Comp(node.fname, node.body, node.var, _put(node.iterable, var, tree), node.cond, node.span)
    if node is None:
        return None
    return with_sub_nodes(node, lambda x: _put(x, var, tree))


def _names(node: Node) -> set[str]:
    """Every name the tree reads (those a comprehension in it binds too)."""
    if isinstance(node, Name):
        return {node.ident}
    return set().union(*(_names(x) for x in sub_nodes(node)))


def _inlined(gen: Gen, node: Any, var: str, scope: frozenset) -> Any:
    """The comprehension's body with a call of a let function whose arguments are names written as the
    function's body with its parameters read as those names: where the body binds none of its parameters in
    the activation (codegen/expr._call would pass them as arguments), names nothing the comprehension has
    in scope but through a parameter, and each argument is a name (read as often as the body reads it: a
    rule expression has no effects); the body as it is otherwise."""
    comp = gen.comp
    if not isinstance(node, Call) or node.fname not in comp.let_functions:
        return node
    params, body = comp.let_functions[node.fname]
    argn = node.args
    if len(argn) != len(params) or not all(isinstance(a, Name) for a in argn):
        return node
    if (_names(body) - set(params)) & (set(gen.local_names) | set(scope) | {var}):
        return node
    outer, gen.local_names = gen.local_names, {p: f"p{i}" for i, p in enumerate(params)}
    try:
        got = reads(gen.expr(body, frozenset(scope) | set(params)).src, gen.reads)
    finally:
        gen.local_names = outer
    if got is None or got & set(params):
        return node
    for p, a in zip(params, argn):
        body = _put(body, p, a)
    return body


def given(body: Any, cond: Any) -> Any:
    """A comprehension's body with what its condition says of the member written in: where the body asks
    as a truth (the test of an `if`, a side of `and`/`or`, under `not`) what the condition holds (a part of
    an `and` it is) or denies (under `not`), that truth, so that the generator folds it: the body is judged
    only for a member that passed the condition, and a rule expression has no effects. Not inside a
    comprehension of the body (which may bind the names again)."""
    facts: list[tuple[str, bool]] = []
    stack = [(cond, True)] if cond is not None else []
    while stack:
        node, truth = stack.pop()
        if node is None:
            continue
        facts.append((repr(node), truth))
        if isinstance(node, Not):
            stack.append((node.a, not truth))
        elif isinstance(node, Bin) and node.op == ("and" if truth else "or"):
            stack += [(node.a, truth), (node.b, truth)]
    return _truths(body, dict(facts), False) if facts else body


def _truths(node: Any, facts: dict[str, bool], test: bool) -> Any:
    """The tree with each part asked as a truth (`test`) that `facts` holds (by its repr) written as it."""
    if test and isinstance(node, (Call, Bin, Not, Name, Attr, If)):
        truth = facts.get(repr(node))
        if truth is not None:
            return Const(truth)
    match node:
        case If():
            return If(_truths(node.cond, facts, True), _truths(node.then, facts, False),
                      _truths(node.other, facts, False), node.span)
        case Not():
            return Not(_truths(node.a, facts, True), node.span)
        case Bin(op=op):
            sub = op in ("and", "or")
            return Bin(op, _truths(node.a, facts, sub), _truths(node.b, facts, sub), node.span)
        case Neg():
            return Neg(_truths(node.a, facts, False), node.span)
        case Attr():
            return Attr(_truths(node.obj, facts, False), node.name, node.span)
        case Call() | ListOf():
            return with_sub_nodes(node, lambda x: _truths(x, facts, False))
    return node


def comprehension(gen: Gen, node: Comp, scope: frozenset) -> G | None:
    """A comprehension over a constant collection as a helper that judges each member in turn, written out
    with the member a constant (a member whose condition folds to false left out), the reduction's steps as
    the loop has them (`m` the member where they read it); None where the collection is not constant (or
    long), a member is not spelt as a constant, or something the body calls may read the variable in the
    activation."""
    fname, body, var, iterable, cond = node.fname, node.body, node.var, node.iterable, node.cond
    values = _members(gen, iterable, scope)
    if values is None or len(values) > UNROLL_MAX:
        return None
    outer = gen.local_names
    args = {n: f"a{i}" for i, n in enumerate(outer) if n != var}
    _, start, step, finish = REDUCTIONS[fname]
    kind = "int" if fname == "count" else "bool" if fname in ("any", "all") else "any"
    member = any(re.search(r"\bm\b", x) for x in step)
    lines: list[str] = []
    gen.local_names = args
    try:
        body = given(_inlined(gen, body, var, scope), cond)
        for value in values:
            tree = _spelt(gen, value, scope)
            if tree is None:
                return None
            g_cond = gen.expr(_put(cond, var, tree), scope) if cond is not None else None
            if g_cond is not None and g_cond.const and not g_cond.value:
                continue                    # the member is left out
            g_body = gen.expr(_put(body, var, tree), scope)
            pad = "    "
            if member:
                lines.append(f"{pad}m = {gen.lit(value).src}")
            if g_cond is not None and not g_cond.const:
                lines.append(f"{pad}if {g_cond.src}:")
                pad += "    "
            lines.append(f"{pad}v = {g_body.src}")
            lines += [pad + x.replace("num(v)", _as_num(G("v", g_body.kind))).replace("break", f"return {finish}")
                      for x in step]
    finally:
        gen.local_names = outer
    text = "\n".join(lines)
    got = reads(text, gen.reads)
    if got is None or var in got:
        return None                         # the loop binds it in the activation (codegen/expr._comp)
    used = [n for n in args if re.search(rf"\b{args[n]}\b", _STRING.sub("''", text))]
    text, _cond, hoisted = hoist(text, None, LOOP_INVARIANT)   # read once, before the members
    for n in used:          # a side as figures.py judges it (figure_question), worked out at its first use
        part, memo = f"figures._side(st, {args[n]})", f"_s{args[n]}"
        if part in text:
            text = _replaced(text, part, f"({memo} if {memo} is not MISSING else ({memo} := {part}))")
            hoisted.append(f"    {memo} = MISSING")
    head = [f"def {{name}}(c{''.join(f', {args[n]}' for n in used)}):",
            f"    # {fname}(… for {var} in …), its {len(values)} members written out", "    st = c.st"]
    src = "\n".join(head + hoisted + [f"    acc = {start}", text, f"    return {finish}"]) + "\n"
    name = gen._helper("C", src, got)
    return G(f"{name}(c{''.join(f', {outer[n]}' for n in used)})", kind)


_SIDE_WORD = re.compile(r"(?<![\w.])side(?!\w)")


def _side_body(gen: Gen, side_fn: str) -> str | None:
    """The body of the generated function given the side `side_fn` (codegen's `of_side`: a figure's goal or
    attempt with `side` a local, where that reads nothing of the activation), with the side read from the
    local `_sd`; None where it is not so written, or already reads a `_sd` of its own."""
    found = next((gen.comp.trees[fid] for fid, name in gen.side_functions.items()
                  if name == side_fn and fid in gen.comp.trees), None)
    if found is None or found[1] != "expr" or "side" in gen.comp.lets or "side" in gen.comp.symbols:
        return None
    outer, gen.local_names = gen.local_names, {"side": "side"}
    known, gen.known = gen.known, {}
    try:
        src = gen.expr(found[2]).src
    finally:
        gen.local_names, gen.known = outer, known
    if reads(src, gen.reads) != frozenset() or "_sd" in src:
        return None
    out, done = [], 0
    for m in _STRING.finditer(src):             # the local outside string literals
        out += [_SIDE_WORD.sub("_sd", src[done:m.start()]), m[0]]
        done = m.end()
    out.append(_SIDE_WORD.sub("_sd", src[done:]))
    return "".join(out)


# what figures.py's questions read, as when figure_question was written (as they declare it,
# interpreter/registry.Reads: a changed implementation is asked as it is until figure_question is brought in step)
_QUESTIONS = {
    "achieved": ("st", "_con", "figures", "get", "isinstance", "str", "_figure", "type", "tuple", "len", "_side",
                 "announce", "given", "name", "allowed", "bool", "set", "_made", "goal"),
    "attempted": ("st", "_con", "figures", "get", "isinstance", "str", "_figure", "attempt", "announce", "given",
                  "declared", "name", "type", "tuple", "_seats_of", "len", "_side", "allowed", "bool", "set",
                  "_made"),
    "_made": ("allowed", "getattr", "bool", "vars", "_judge", "clear"),
    "listed": ("_con", "figures", "_NOTHING_LISTED"),
}


def figure_question(gen: Gen, name: str, args: list[G]) -> G | None:
    """`achieved(f, x)` or `attempted(f, x)` of a figure known here with no `allowed` of its own: false where
    the contract being settled on does not list it (figures.listed); where it does, its goal (attempt) given
    the side as figures._made judges it where figures.py would come to that (no outcome given; for an
    attempt nobody declared it), false for an attempt it does not have; the question otherwise. None where the figure (one for every contract that
    lists it) or its generated judgement given the side (codegen's `of_side`, by its name in the module) is
    not known here."""
    impl = B.FUNCTIONS.get(name)
    if (name not in ("achieved", "attempted") or impl is not getattr(figures, name) or len(args) != 2
            or not args[0].const or not isinstance(args[0].value, str)
            or not all(mirrors(getattr(figures, n), "figure_question", names) for n, names in _QUESTIONS.items())):
        return None
    f = args[0].value
    found = {id(fig): fig for con in gen.contracts.values() if (fig := con.figures.get(f)) is not None}
    if len(found) != 1:
        return None
    fig = next(iter(found.values()))
    if fig.allowed is not None:
        return None
    judged = fig.goal if name == "achieved" else fig.attempt
    side_fn = None
    if judged is not None:
        side_fn = gen.side_functions.get(id(judged))
        of_side = getattr(judged, "of_side", None)     # (installed: the generated function itself)
        if side_fn is None and of_side is not None and of_side.__name__ == f"{judged.__name__}_side":
            side_fn = of_side.__name__
        if side_fn is None:
            return None
    f_src = args[0].src
    question = f"{gen.builtin(name, impl, f'built-in function {name!r}')}(c, {f_src}, {args[1].src})"
    # (the state's parts read as templates.LOOP_INVARIANT writes them: once before a loop's members)
    listed, when = f"{f_src} in (_fl := figures.listed(st))", "(_fj := st.announce.given is None)"
    # the contract known (the code runs under it alone): whether it lists the figure is known too
    cons = [con for con in gen.contracts.values() if "contract" in gen.known and con.ref is gen.known["contract"]]
    if len(cons) == 1:
        if f not in cons[0].figures:
            return gen.lit(False)
        listed = ""
    if side_fn is None:                     # no attempt: false
        return G(f"((False if {when} else {question}) if {listed} else False)" if listed else
                 f"(False if {when} else {question})", "bool")
    if name == "attempted":                 # nobody declared it
        when += f" and (_dd := st.announce.declared).get({f_src}) is None"
    judged_here = f"(not not {side_fn}(c, figures._side(st, {args[1].src})))"
    body = _side_body(gen, side_fn)
    if body is not None:        # its body written out, the side worked out once into `_sd` (never none)
        judged_here = f"(not not ({body}) if (_sd := figures._side(st, {args[1].src})) is not None else False)"
    if not listed:
        return G(f"({judged_here} if {when} else {question})", "bool")
    return G(f"(({judged_here} if {when} else {question}) if {listed} else False)", "bool")


def let_units(gen: Gen, n: str) -> str | None:
    """The call of a let's value in point units where the let does not depend on the seat and its tree
    has that (codegen/source.G.units): a memo of its own, as the let's, under its own key; else None."""
    if gen.point_den is None or n in gen.comp.seat_dependent or n not in gen.let_trees:
        return None
    outer, gen.local_names = gen.local_names, {}      # a let is compiled outside any scope
    try:
        g = gen.expr(gen.let_trees[n])
    finally:
        gen.local_names = outer
    if g.const or g.units is None:
        return None
    from interpreter.engine.prepare import SEAT_NAMES
    k = repr("units:" + n)
    text = (f"def {{name}}(c):\n    # let {n!r} in point units, computed once per settlement\n"
            f"    st = c.st\n    cache = c.cache\n    if cache is None:\n        return {g.units}\n"
            f"    if {k} not in cache:\n        cache[{k}] = {g.units}\n    return cache[{k}]\n")
    call = gen._helper("U", text, TOP - SEAT_NAMES) + "(c)"
    gen.unit_calls.add(call)
    return call


# a generated function's call with the activation alone (a let's memo: `L3(c)`, `M20(c)`, `U17(c)`)
_MEMO_CALL = re.compile(r"(?<![\w.])([A-Z]\d+\(c\))")


def loop_helper(gen: Gen, fname: str, var: str, args: dict[str, str], outer: dict[str, str], fcond: str | None,
                fbody: str, body_kind: str) -> tuple[str, str]:
    """The helper of a comprehension's loop (_comp) with this condition and body: its name, and the
    caller's locals to pass it after the collection."""
    loop_reads = reads(fbody if fcond is None else f"({fcond}, {fbody})", gen.reads)
    used = [n for n in args if re.search(rf"\b{args[n]}\b", _STRING.sub("''", f"{fcond} {fbody}"))]
    _, start, step, finish = REDUCTIONS[fname]
    head = [f"def {{name}}(c, it{''.join(f', {args[n]}' for n in used)}):",
            f"    # {fname}(… for {var} in …)", "    st = c.st"]
    fbody, fcond, hoisted = hoist(fbody, fcond, LOOP_INVARIANT)   # read once, before the loop
    head += hoisted
    # a let that does not depend on the seat (its memo's call) read through a local, set at its first
    # reading: the same value for every member, worked out where the loop first reads it
    text = _STRING.sub("''", f"{fcond} {fbody}")
    for i, call in enumerate(sorted({m[1] for m in _MEMO_CALL.finditer(text)
                                     if m[1] in gen.let_of_call or m[1] in gen.unit_calls})):
        memo = f"(_lv{i} if _lv{i} is not MISSING else (_lv{i} := {call}))"
        fbody, fcond = _replaced(fbody, call, memo), fcond and _replaced(fcond, call, memo)
        head.append(f"    _lv{i} = MISSING")
    loop = ["for m in (it if type(it) is tuple else members(it)):"]    # a tuple is its own members
    bind = loop_reads is None or var in loop_reads
    if bind:
        loop.append(f"    env[{var!r}] = m")
    if fcond is not None:
        loop += [f"    if not ({fcond}):", "        continue"]
    step = tuple(x.replace("num(v)", _as_num(G("v", body_kind))) for x in step)
    loop += [f"    v = {fbody}"] + [f"    {x}" for x in step]
    if bind:
        lines = head + ["    env = c.vars", f"    saved = env.get({var!r}, MISSING)", f"    acc = {start}",
                        "    try:"] + [f"        {x}" for x in loop]
        lines += ["    finally:", "        if saved is MISSING:", f"            env.pop({var!r}, None)",
                  "        else:", f"            env[{var!r}] = saved"]
    else:
        lines = head + [f"    acc = {start}"] + [f"    {x}" for x in loop]
    lines.append(f"    return {finish}")
    name = gen._helper("C", "\n".join(lines) + "\n", None if loop_reads is None else loop_reads - {var})
    return name, "".join(f", {outer[n]}" for n in used)
