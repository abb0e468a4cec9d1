"""A rule condition judged many times in one phase, taken apart so that what cannot change is decided once.

A boolean expression is read as conjuncts of disjuncts (its top-level `and` and `or` chains, with `not`
pushed through them: `not (a and b)` is `not a or not b`); each disjunct is compiled on its own (through
the compiler, so generated code covers it as it covers the whole). A disjunct that reads nothing but
constants and the *fixed* names (say `contract` and `item`) is decided once per value of those names:

    cond = Condition(comp, text, lets, fixed=("contract", "item"), varying="item")
    plan = cond.plan({"contract": st.contract, "item": fig.ref})  # None: false whatever else holds
    ok = cond.holds(c, plan, memo)      # memo: one dict per activation in which only `varying` changes

A conjunct holds when one of its disjuncts does, so a conjunct with a fixed disjunct that holds is left
out of the plan, a fixed disjunct that does not hold is left out of its conjunct, and a conjunct left
without disjuncts makes the plan None. The disjuncts that do not read `varying` (through lets and let
functions too) are judged once per memo: while one seat's choices are listed, only the judged item
changes. Rule expressions are pure, so the value is the whole expression's truth in every state; only
the order in which the parts are evaluated differs.

A phase may also name what it cannot change (`steady`: the built-ins that read nothing it writes) and keep
a memo while it runs (`keep`): then lets and let functions are read as their bodies where those are chains
of the parts, and a part that reads a let but nothing beyond `steady` is judged once per seat in that memo
(STEADY), not once per activation (condition()).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import interpreter.engine.builtins as B
from interpreter.engine.compile import attr, contains
from interpreter.model.expression import Expression, node_of, reprints
from interpreter.model.nodes import (
    Attr,
    Bin,
    Call,
    Comp,
    Const,
    ListOf,
    Name,
    Node,
    Not,
    Num,
    Str,
    is_node,
    sub_nodes,
    with_sub_nodes,
)

_NOT = object()     # not decided by the fixed names
# a part judged once per seat and `kept` (Condition.holds): it reads nothing the phase changes; STEADY + 1:
# nor `me`, judged once per `kept`
STEADY = 2


def _parts(node: Node, op: str, dual: str, opened: Any = None) -> list[Node]:
    """The operands of a chain of `op` (and, or), with `not` pushed through its dual (De Morgan); with
    `opened` (_opener), a let or let function whose body is such a chain is read as that body."""
    if opened is not None:
        node = _open(node, op, opened)
    if isinstance(node, Bin) and node.op == op:
        return _parts(node.a, op, dual, opened) + _parts(node.b, op, dual, opened)
    if isinstance(node, Not):
        inner = node.a if opened is None else _open(node.a, dual, opened)
        if isinstance(inner, Not):
            return _parts(inner.a, op, dual, opened)
        if isinstance(inner, Bin) and inner.op == dual:
            return _parts(Not(inner.a), op, dual, opened) + _parts(Not(inner.b), op, dual, opened)
    return [node]


def _open(node: Node, op: str, opened: Any) -> Node:
    """The node, or the body it names when that is a chain of `op` (opened(node), see _opener)."""
    body = opened(node)
    return body if isinstance(body, Bin) and body.op == op else node


def _opener(comp: Any, lets: Mapping) -> Any:
    """node → the body of the let it names, or of the let function it calls with its parameters replaced
    by the arguments; None where that would not be the same value. A let's body reads what the let reads
    (lets are compiled outside any scope); a let function's is written out only when its arguments are
    names or constants, its parameters are no name the activation is read for (s, t, side, item, …: a let
    the body names would read the parameter's value there), and its body holds no comprehension and no
    call of a let function (both compiled inside the parameters' scope, engine/compile.py)."""
    def opened(node: Node) -> Node | None:
        if isinstance(node, Name):
            name = node.ident
            if not isinstance(lets.get(name), str) or name not in comp.lets or name in ("s", "t"):
                return None
            return comp.let_bodies[name]
        if not isinstance(node, Call) or node.fname not in comp.let_functions:
            return None
        params, body = comp.let_functions[node.fname]
        args = node.args
        if len(args) != len(params) or B.TOP.intersection(params) or not all(
                isinstance(a, (Name, Num, Str, Const)) for a in args) or not _plain(body, comp):
            return None
        return _substitute(body, dict(zip(params, args)))
    return opened


def _some(n: Node, found: Any) -> bool:
    """Some node of the tree is `found(node)`."""
    if found(n):
        return True
    return any(_some(x, found) for x in sub_nodes(n))


def _plain(n: Node, comp: Any) -> bool:
    """No comprehension and no call of a let function in the tree."""
    return not _some(n, lambda x: isinstance(x, Comp) or isinstance(x, Call) and x.fname in comp.let_functions)


def _substitute(n: Node, names: dict) -> Node:
    """The tree with each name in `names` replaced by its tree (a tree without comprehensions)."""
    if isinstance(n, Name):
        return names.get(n.ident, n)
    return with_sub_nodes(n, lambda x: _substitute(x, names))


def _conjuncts(node: Node, opened: Any = None) -> list[Node]:
    return _parts(node, "and", "or", opened)


def _disjuncts(node: Node, opened: Any = None) -> list[Node]:
    return _parts(node, "or", "and", opened)


# What a condition's plan is (Condition.plan: what is left to judge once its fixed names are known):
NEVER_HOLDS = None          # false whatever else holds
HOLDS = ()                  # nothing left to judge: true
#                             else a tuple of the conjuncts left to judge (Condition.holds)


class _NotWorkedOut:
    """The value of a memo of plans where a plan is not worked out yet (no plan is ever this)."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_WORKED_OUT"


NOT_WORKED_OUT: Any = _NotWorkedOut()


@dataclass
class Condition:
    whole: Any                                  # the compiled expression, judged as is when it cannot be split
    pieces: list = field(default_factory=list)  # every disjunct compiled (by the game's backend, engine/backend.py)
    nodes: list = field(default_factory=list)   # … and its tree
    conjuncts: list = field(default_factory=list)   # [piece indices] per conjunct
    varies: list = field(default_factory=list)  # per piece: it reads `varying`
    steady: list = field(default_factory=list)  # per piece: 0, or STEADY (+ 1) as condition() finds
    keep: Any = None                            # state → the phase's memo of STEADY parts (condition())
    resolve: Any = None                         # name → its constant value, the fixed name it is, or _NOT
    plans: dict = field(default_factory=dict)   # the fixed names' values → plan

    def plan(self, env: dict) -> tuple | None:
        """The conjuncts left to judge when the fixed names have these values (NEVER_HOLDS, HOLDS, or each
        conjunct a tuple of its disjuncts left, (piece index, compiled piece, judged once per memo: STEADY when
        once per `kept` and seat)."""
        key = tuple((v, getattr(v, "kind", None)) for v in env.values())
        try:
            return self.plans[key]
        except KeyError:
            pass
        out: list | None = []
        for idx in self.conjuncts:
            left = []
            for k in idx:
                v = self._static(self.nodes[k], env)
                if v is _NOT:
                    left.append((k, self.pieces[k], self.steady[k] or not self.varies[k]))
                elif v:
                    break
            else:
                if not left:
                    out = NEVER_HOLDS
                    break
                assert out is not None
                out.append(tuple(left))
        plan = tuple(out) if out is not None else NEVER_HOLDS
        self.plans[key] = plan
        return plan

    def holds(self, c: Any, plan: tuple | None, memo: dict) -> bool:
        if plan is NEVER_HOLDS:
            return False
        for conj in plan:
            for k, f, shared in conj:
                if shared:
                    v = memo.get(k)
                    if v is None:
                        v = memo[k] = bool(f(c)) if shared is True else self._kept(c, f, shared)
                else:
                    v = f(c)
                if v:
                    break
            else:
                return False
        return True

    def _kept(self, c: Any, f: Any, shared: int) -> bool:
        """A STEADY part's value: from the phase's memo (`keep`), judged there on first need."""
        kept = self.keep(c.st)
        key = (f, c.me) if shared == STEADY else f
        v = kept.get(key)
        if v is None:
            v = kept[key] = bool(f(c))
        return v

    def _static(self, n: Node, env: dict) -> Any:
        """The node's value if it reads only constants and the fixed names, else _NOT."""
        match n:
            case Num(value=v):
                return int(v) if v.denominator == 1 else v
            case Str(value=v) | Const(value=v):
                return v
            case Name(ident=name):
                r = self.resolve(name)
                if r is _NOT:
                    return _NOT
                return env.get(r[1], _NOT) if r[0] == "fixed" else r[1]
            case Attr(obj=obj, name=name):
                o = self._static(obj, env)
                return _NOT if o is _NOT else attr(o, name)
            case Not(a=a):
                o = self._static(a, env)
                return _NOT if o is _NOT else not o
            case ListOf(items=items):
                values = [self._static(x, env) for x in items]
                return _NOT if any(x is _NOT for x in values) else tuple(values)
            case Bin(op="==" | "!=" | "in" | "not in" | "and" | "or" as op):
                return self._static_bin(op, n, env)
        return _NOT

    def _static_bin(self, op: str, n: Bin, env: dict) -> Any:
        a = self._static(n.a, env)
        if a is not _NOT and op in ("and", "or") and bool(a) == (op == "or"):
            return bool(a)          # decided by its left side, as evaluation decides it
        b = self._static(n.b, env)
        if a is _NOT or b is _NOT:
            return _NOT
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        if op == "in":
            return contains(b, a)
        if op == "not in":
            return not contains(b, a)
        return (bool(a) and bool(b)) if op == "and" else (bool(a) or bool(b))


def _resolver(comp: Any, fixed: tuple[str, ...]) -> Any:
    """How the compiler resolves a free name (engine/compile.py `_name`): ("fixed", name) for a fixed
    built-in value, ("const", value) for a symbol or an enum word, _NOT for anything else."""
    def resolve(n: str) -> Any:
        if n in ("s", "t") or n in comp.lets:
            return _NOT
        builtin = n in comp.roles or n in comp.game_accounts or B.VALUES.get(n) is not None
        if builtin and n not in comp.symbols:
            return ("fixed", n) if n in fixed else _NOT
        if n in comp.symbols:
            return ("const", comp.symbols[n])
        return ("const", n)
    return resolve


def reads(node: Node, name: str, bodies: Mapping[str, Node]) -> bool:
    """The expression may read `name`, itself or through the lets and let functions it uses (`bodies`: each
    let's body, compile.Compiler.let_bodies)."""
    seen: set = set()
    stack = [node]
    while stack:
        n = stack.pop()
        used = n.ident if isinstance(n, Name) else n.fname if isinstance(n, (Call, Comp)) else None
        if used == name:
            return True
        if used is not None and used in bodies and used not in seen:
            seen.add(used)
            stack.append(bodies[used])
        if isinstance(n, Comp) and n.var == name:
            return True
        stack.extend(sub_nodes(n))
    return False


def condition(comp: Any, expr: Any, lets: Mapping, fixed: tuple[str, ...], varying: str,
              steady: tuple[frozenset, frozenset] | None = None, keep: Any = None) -> Condition:
    """`text` compiled whole and as its parts (see the module's doc). With `steady`, (values, functions):
    the built-ins that read nothing the phase changes (as reads_only() takes them), and `keep`: state → a
    memo the phase keeps while nothing those read changes: lets and let functions are read as their
    bodies where those are chains of the parts (_opener), and a part that does not read `varying`, reads
    no more than those and reads a let or calls a let function (a let can cost as much as any expression;
    a part without one costs a few operations, which a memo look-up does not beat) is STEADY: judged once
    per seat (STEADY + 1: that reads no `me`, once) in that memo. `expr`: the model's Expression (or its
    source, or a node)."""
    whole = comp.text(expr)
    cond = Condition(whole=whole, resolve=_resolver(comp, fixed), keep=keep)
    source = expr.source if isinstance(expr, Expression) else expr
    if not isinstance(source, str) and not is_node(source):
        cond.conjuncts, cond.pieces, cond.nodes, cond.varies = [[0]], [whole], [Const(source)], [False]
        cond.steady = [0]
        return cond
    opened = _opener(comp, lets) if steady is not None and keep is not None else None
    bodies = comp.let_bodies
    for conj in _conjuncts(node_of(expr), opened):
        idx = []
        for d in _disjuncts(conj, opened):
            if not reprints(d):      # a tree the printer cannot give back: judge the whole
                cond.conjuncts, cond.pieces, cond.nodes, cond.varies = [[0]], [whole], [Call("?", ())], [True]
                cond.steady = [0]
                return cond
            idx.append(len(cond.pieces))
            cond.pieces.append(comp.text(d))
            cond.nodes.append(d)
            varies = reads(d, varying, bodies)
            cond.varies.append(varies)
            kept = (opened is not None and not varies and _uses_let(d, comp)
                    and reads_only(comp, d, lets, *(steady or ())))
            cond.steady.append(0 if not kept else STEADY if reads(d, "me", bodies) else STEADY + 1)
        cond.conjuncts.append(idx)
    return cond


def _uses_let(n: Node, comp: Any) -> bool:
    """The tree names a let or calls a let function."""
    return _some(n, lambda x: isinstance(x, Name) and x.ident in comp.lets
                 or isinstance(x, Call) and x.fname in comp.let_functions)


def split_common(plans: list[tuple]) -> tuple[tuple, list[tuple]]:
    """The conjuncts that every plan has and that do not read the varying name (to be judged once for
    all of them), and each plan without those."""
    if not plans:
        return (), []
    common = tuple(conj for conj in plans[0]
                   if all(shared for _k, _f, shared in conj) and all(conj in p for p in plans[1:]))
    return common, [tuple(conj for conj in p if conj not in common) for p in plans]


def reads_only(comp: Any, expr: Any, lets: Mapping, values: frozenset, functions: frozenset) -> bool:
    """The expression reads nothing of the game but the built-in `values` and `functions` named and the
    seat roles (itself or through the lets and let functions it uses): besides them only constants, the
    rules, its own names (parameters, a comprehension's variable, `s`, `t`) and the activation's `me` and
    `this`. Its value is then a function of what those read. Names resolve as the compiler resolves them
    (engine/compile.py `_name`, `_call`)."""
    seen: set = set()

    def ok(n: Node, scope: frozenset) -> bool:
        match n:
            case Name(ident=name):
                if name in scope or name in ("s", "t"):
                    return True
                if name in comp.lets:
                    return let_ok(name)
                if name in comp.roles:
                    return True
                builtin = name in comp.game_accounts or B.VALUES.get(name) is not None
                return not builtin or name in comp.symbols or name in values
            case Call(fname=name, args=args):
                if name == "account":
                    return False
                if name in comp.let_functions:
                    params, body = comp.let_functions[name]
                    if not ok(body, scope | frozenset(params)):
                        return False
                elif name not in functions:
                    return False
                return all(ok(a, scope) for a in args)
            case Comp(fname=fname, body=body, var=var, iterable=iterable, cond=cond):
                inner = scope | {var}
                return (fname in B.COMPREHENSIONS and ok(iterable, scope) and ok(body, inner)
                        and (cond is None or ok(cond, inner)))
        return all(ok(child, scope) for child in sub_nodes(n))

    def let_ok(name: str) -> bool:
        if name in seen:            # judged already, or being judged (the checker rejects cycles)
            return True
        seen.add(name)
        if isinstance(lets.get(name), dict):  # a let function named without its arguments
            return False
        body = comp.let_bodies.get(name)
        return body is None or ok(body, frozenset())

    return ok(node_of(expr), frozenset())


def plan_holds(c: Any, plan: tuple) -> bool:
    """Condition.holds() for a plan (not None) judged once in its activation, with no memo to keep."""
    for conj in plan:
        for _k, f, _shared in conj:
            if f(c):
                break
        else:
            return False
    return True
