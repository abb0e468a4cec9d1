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
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import interpreter.engine.builtins as B
from interpreter.engine.compile import attr, contains
from interpreter.language.expressions import parse_text, to_text

_NOT = object()     # not decided by the fixed names


def _parts(node: tuple, op: str, dual: str) -> list[tuple]:
    """The operands of a chain of `op` (and, or), with `not` pushed through its dual (De Morgan)."""
    if node[0] == "bin" and node[1] == op:
        return _parts(node[2], op, dual) + _parts(node[3], op, dual)
    if node[0] == "not":
        inner = node[1]
        if inner[0] == "not":
            return _parts(inner[1], op, dual)
        if inner[0] == "bin" and inner[1] == dual:
            return _parts(("not", inner[2]), op, dual) + _parts(("not", inner[3]), op, dual)
    return [node]


def _conjuncts(node: tuple) -> list[tuple]:
    return _parts(node, "and", "or")


def _disjuncts(node: tuple) -> list[tuple]:
    return _parts(node, "or", "and")


@dataclass
class Condition:
    whole: Any                                  # the compiled expression, judged as is when it cannot be split
    pieces: list = field(default_factory=list)  # every disjunct compiled (generated code swaps these in)
    nodes: list = field(default_factory=list)   # … and its tree
    conjuncts: list = field(default_factory=list)   # [piece indices] per conjunct
    varies: list = field(default_factory=list)  # per piece: it reads `varying`
    resolve: Any = None                         # name → its constant value, the fixed name it is, or _NOT
    plans: dict = field(default_factory=dict)   # the fixed names' values → plan

    def plan(self, env: dict) -> tuple | None:
        """The conjuncts left to judge when the fixed names have these values (None: never holds): each
        a tuple of its disjuncts left, (piece index, compiled piece, judged once per memo)."""
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
                    left.append((k, self.pieces[k], not self.varies[k]))
                elif v:
                    break
            else:
                if not left:
                    out = None
                    break
                assert out is not None
                out.append(tuple(left))
        plan = tuple(out) if out is not None else None
        self.plans[key] = plan
        return plan

    def holds(self, c: Any, plan: tuple | None, memo: dict) -> bool:
        if plan is None:
            return False
        for conj in plan:
            for k, f, shared in conj:
                if shared:
                    v = memo.get(k)
                    if v is None:
                        v = memo[k] = bool(f(c))
                else:
                    v = f(c)
                if v:
                    break
            else:
                return False
        return True

    def judge(self, c: Any, plan: tuple) -> bool:
        """holds() for a plan judged once in its activation (no memo to keep): not None."""
        for conj in plan:
            for _k, f, _shared in conj:
                if f(c):
                    break
            else:
                return False
        return True

    def _static(self, n: tuple, env: dict) -> Any:
        """The node's value if it reads only constants and the fixed names, else _NOT."""
        kind = n[0]
        if kind == "num":
            v = n[1]
            return int(v) if v.denominator == 1 else v
        if kind in ("str", "const"):
            return n[1]
        if kind == "name":
            r = self.resolve(n[1])
            if r is _NOT:
                return _NOT
            return env.get(r[1], _NOT) if r[0] == "fixed" else r[1]
        if kind == "attr":
            o = self._static(n[1], env)
            return _NOT if o is _NOT else attr(o, n[2])
        if kind == "not":
            o = self._static(n[1], env)
            return _NOT if o is _NOT else not o
        if kind == "list":
            items = [self._static(x, env) for x in n[1]]
            return _NOT if any(x is _NOT for x in items) else tuple(items)
        if kind == "bin" and n[1] in ("==", "!=", "in", "not in", "and", "or"):
            a, b = self._static(n[2], env), self._static(n[3], env)
            if a is _NOT or b is _NOT:
                return _NOT
            op = n[1]
            if op == "==":
                return a == b
            if op == "!=":
                return a != b
            if op == "in":
                return contains(b, a)
            if op == "not in":
                return not contains(b, a)
            return (bool(a) and bool(b)) if op == "and" else (bool(a) or bool(b))
        return _NOT


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


def reads(node: tuple, name: str, lets: dict) -> bool:
    """The expression may read `name`, itself or through the lets and let functions it uses."""
    seen: set = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if not isinstance(n, tuple) or not n or not isinstance(n[0], str):
            continue
        kind = n[0]
        used = n[1] if kind == "name" else n[1] if kind in ("call", "comp") else None
        if used == name:
            return True
        if used is not None and used in lets and used not in seen:
            seen.add(used)
            body = lets[used]
            text = body["body"] if isinstance(body, dict) else body
            if isinstance(text, str):
                stack.append(parse_text(text))
        if kind == "comp" and n[3] == name:
            return True
        for child in n[1:]:
            if isinstance(child, tuple) and child and isinstance(child[0], str):
                stack.append(child)
            elif isinstance(child, tuple):
                stack.extend(child)
    return False


def condition(comp: Any, text: Any, lets: dict, fixed: tuple[str, ...], varying: str) -> Condition:
    """`text` compiled whole and as its parts (see the module's doc)."""
    whole = comp.text(text)
    cond = Condition(whole=whole, resolve=_resolver(comp, fixed))
    if not isinstance(text, str):
        cond.conjuncts, cond.pieces, cond.nodes, cond.varies = [[0]], [whole], [("const", text)], [False]
        return cond
    for conj in _conjuncts(parse_text(text)):
        idx = []
        for d in _disjuncts(conj):
            piece = to_text(d)
            if parse_text(piece) != d:      # a tree the printer cannot give back: judge the whole
                cond.conjuncts, cond.pieces, cond.nodes, cond.varies = [[0]], [whole], [("call", "?", ())], [True]
                return cond
            idx.append(len(cond.pieces))
            cond.pieces.append(comp.text(piece))
            cond.nodes.append(d)
            cond.varies.append(reads(d, varying, lets))
        cond.conjuncts.append(idx)
    return cond


def split_common(plans: list[tuple]) -> tuple[tuple, list[tuple]]:
    """The conjuncts that every plan has and that do not read the varying name (to be judged once for
    all of them), and each plan without those."""
    if not plans:
        return (), []
    common = tuple(conj for conj in plans[0]
                   if all(shared for _k, _f, shared in conj) and all(conj in p for p in plans[1:]))
    return common, [tuple(conj for conj in p if conj not in common) for p in plans]


def reads_only(comp: Any, text: Any, lets: dict, values: frozenset, functions: frozenset) -> bool:
    """The expression reads nothing of the game but the built-in `values` and `functions` named and the
    seat roles (itself or through the lets and let functions it uses): besides them only constants, the
    rules, its own names (parameters, a comprehension's variable, `s`, `t`) and the activation's `me` and
    `this`. Its value is then a function of what those read. Names resolve as the compiler resolves them
    (engine/compile.py `_name`, `_call`)."""
    seen: set = set()

    def ok(n: Any, scope: frozenset) -> bool:
        if not isinstance(n, tuple) or not n or not isinstance(n[0], str):
            return True
        kind = n[0]
        if kind == "name":
            name = n[1]
            if name in scope or name in ("s", "t"):
                return True
            if name in comp.lets:
                return let_ok(name)
            if name in comp.roles:
                return True
            builtin = name in comp.game_accounts or B.VALUES.get(name) is not None
            return not builtin or name in comp.symbols or name in values
        if kind == "call":
            name, args = n[1], n[2]
            if name == "account":
                return False
            if name in comp.let_functions:
                params, body = comp.let_functions[name]
                if not ok(body, scope | frozenset(params)):
                    return False
            elif name not in functions:
                return False
            return all(ok(a, scope) for a in args)
        if kind == "comp":
            _, fname, body, var, iterable, cond = n
            inner = scope | {var}
            return (fname in B.COMPREHENSIONS and ok(iterable, scope) and ok(body, inner)
                    and (cond is None or ok(cond, inner)))
        for child in n[1:]:
            if isinstance(child, tuple) and child and isinstance(child[0], str):
                if not ok(child, scope):
                    return False
            elif isinstance(child, tuple) and not all(ok(x, scope) for x in child):
                return False
        return True

    def let_ok(name: str) -> bool:
        if name in seen:            # judged already, or being judged (the checker rejects cycles)
            return True
        seen.add(name)
        body = lets.get(name)
        if isinstance(body, dict):  # a let function named without its arguments
            return False
        return not isinstance(body, str) or ok(parse_text(body), frozenset())

    if not isinstance(text, str):
        return True
    return ok(parse_text(text), frozenset())
