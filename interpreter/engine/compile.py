"""Expressions → Python closures, compiled once per rule set and called many times.

A compiled expression is a function of one argument, the activation `c` (engine/context.py: the game
state and the names bound for this evaluation). Built-in names are resolved when compiling, through
the implementation tables of engine/builtins.py, never while playing.

Runtime values: seats are ints, a set of seats is a tuple, cards are indices and card sets are
int masks, calls and contracts are `Ref` strings carrying their record, numbers are ints or
exact Fractions. The language is total: division by zero gives 0, arithmetic treats `none` as 0,
an attribute of `none` is `none`, and min/max of nothing is 0.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import interpreter.engine.builtins as B
from interpreter.engine.backend import REFERENCE_FUNCTIONS
from interpreter.engine.card_values import gives_cards
from interpreter.engine.errors import RuleRuntimeError
from interpreter.model.expression import node_of
from interpreter.model.nodes import (
    TAG,
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
    Num,
    Str,
)
from interpreter.registry import reads

Fn = Callable[[Any], Any]


class Ref(str):
    """A call or contract name that also carries what expressions read of it (`.category`, `.rank`, a prop:
    model/game.readable)."""
    __slots__ = ("rec", "kind")

    rec: dict
    kind: str

    def __new__(cls, name: str, rec: dict, kind: str) -> Ref:
        obj = str.__new__(cls, name)
        obj.rec = rec
        obj.kind = kind
        return obj


@reads("isinstance", "Ref", "str", "rec.get", "dict", "get", "getattr", mirrors=("ATTR_SOURCE",))
def attr(obj, name):
    if obj is None:
        return None
    if isinstance(obj, Ref):
        if name == "name":
            return str(obj)
        return obj.rec.get(name)      # its fields (model/game.readable: a prop where the record has none)
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


_num = B.num


def div(a, b):
    a, b = _num(a), _num(b)
    if not b:
        return 0
    if isinstance(a, int) and isinstance(b, int):
        return a // b if a % b == 0 else Fraction(a, b)
    q = Fraction(a) / Fraction(b)
    return int(q) if q.denominator == 1 else q


def mod(a, b):
    a, b = _num(a), _num(b)
    return a % b if b else 0


MAX_EXPONENT = 64
MAX_POWER = 1 << 64


@reads("type", "int", "MAX_EXPONENT", "MAX_POWER", "_num", "isinstance", "Fraction", "denominator", "bool", "RuleRuntimeError", "abs", mirrors=("POWER_SOURCE",))
def power(a, b):
    if type(a) is int and type(b) is int and 0 <= b <= MAX_EXPONENT:   # whole numbers: no conversion
        r = a ** b
        if -MAX_POWER <= r <= MAX_POWER:
            return r
    a, b = _num(a), _num(b)
    if isinstance(b, Fraction) and b.denominator == 1:
        b = int(b)
    if not isinstance(b, int) or isinstance(b, bool) or b < 0 or b > MAX_EXPONENT:
        raise RuleRuntimeError(f"{a} ^ {b}: the exponent must be a whole number from 0 to {MAX_EXPONENT}")
    r = a ** b
    if abs(r) > MAX_POWER:
        raise RuleRuntimeError(f"{a} ^ {b} is too large (more than 2 ^ {MAX_EXPONENT})")
    return r


def _cmp(op):
    @reads(mirrors=("_cmp",))
    def lt(a, b):
        return a is not None and b is not None and a < b

    @reads(mirrors=("_cmp",))
    def le(a, b):
        return a is not None and b is not None and a <= b

    @reads(mirrors=("_cmp",))
    def gt(a, b):
        return a is not None and b is not None and a > b

    @reads(mirrors=("_cmp",))
    def ge(a, b):
        return a is not None and b is not None and a >= b

    return {"<": lt, "<=": le, ">": gt, ">=": ge}[op]


@reads("isinstance", "int", "bool", mirrors=("CONTAINS_SOURCE",))
def contains(coll, item):
    if coll is None:
        return False
    if isinstance(coll, int) and not isinstance(coll, bool):  # a card mask
        return isinstance(item, int) and item >= 0 and bool(coll >> item & 1)
    return item in coll


class Party(tuple):
    """An account as the source or target of a payment: (name, key…)."""


class Compiler:
    """Compiles expression trees against a symbol table.

    `symbols`: name → constant value (suits, cards, groups as masks, calls/contracts as Refs, options …);
    `roles`: role name → steps from the dealer; `accounts`: the rule file's accounts (`game` ones read as
    values); built-in values and functions come from engine/builtins.py. `lets`: name → compiled closure;
    `let_functions`: name → (params, tree).
    """

    def __init__(self, symbols: dict, roles: dict[str, int], game_accounts: set[str]):
        self.symbols = symbols
        self.roles = roles
        self.game_accounts = game_accounts
        self.lets: dict[str, Fn] = {}
        self.let_functions: dict[str, tuple[tuple[str, ...], Node]] = {}
        self.accounts: set[str] = {"pot"}
        self.seat_dependent: set[str] = set()
        self.let_bodies: dict[str, Node] = {}   # every let → its body's node (a let function's too)
        self.let_trees: dict[str, Node] = {}    # let → its node, for `+` of cards (card_values.gives_cards)
        self.card_sets: set[str] = set()        # names of constant sets of cards (groups)
        # every function handed out by text()/party(), by id, with its tree: a backend reads them
        self.trees: dict[int, tuple[Fn, str, Any]] = {}
        # what hands out the function of each expression (engine/backend.py): the closure compiled here, or
        # the function the game's backend made for the same tree
        self.functions: Any = REFERENCE_FUNCTIONS

    def _record(self, fn: Fn, kind: str, node: Any) -> Fn:
        fn = self.functions.expression(kind, node, fn)
        self.trees[id(fn)] = (fn, kind, node)
        return fn

    def party(self, expr: Any) -> Fn:
        """A payment's `from`/`to`: an account name, account(name, s…), or an expression giving a seat."""
        node = node_of(expr)
        return self._record(self._party(node), "party", node)

    def _party(self, node: Node) -> Fn:
        if isinstance(node, Name) and node.ident in self.accounts:
            p = Party((node.ident,))
            return lambda c: p
        acct = account_named(node)
        if acct is not None:
            rest = [self.node(x) for x in node.args[1:]]        # type: ignore[union-attr]
            return lambda c: Party((acct,) + tuple(f(c) for f in rest))
        return self.node(node)

    def text(self, expr: Any) -> Fn:
        """An expression of the model (model/expression.Expression), a node, or what the engine writes itself:
        a constant, or text (model/expression.node_of)."""
        if expr is None or isinstance(expr, (bool, int)):
            value = expr
            return self._record(lambda c: value, "expr", Const(value))
        node = node_of(expr)
        return self._record(self.node(node), "expr", node)

    def node(self, node: Node, scope: frozenset = frozenset()) -> Fn:
        method = getattr(self, _METHODS[type(node)])
        return method(node, scope)

    # ---- leaves --------------------------------------------------------------------------------
    def _num(self, node: Num, scope: frozenset) -> Fn:
        v: Any = node.value
        v = int(v) if v.denominator == 1 else v
        return lambda c: v

    def _str(self, node: Str, scope: frozenset) -> Fn:
        v = node.value
        return lambda c: v

    def _const(self, node: Const, scope: frozenset) -> Fn:
        v = node.value
        return lambda c: v

    def _builtin_value(self, n: str) -> Fn | None:
        if n in self.roles:
            step = self.roles[n]
            return lambda c: (c.st.dealer + step) % c.st.n
        if n in self.game_accounts:
            return lambda c: c.st.accounts.get(n, 0)
        return B.VALUES.get(n)

    def _name(self, node: Name, scope: frozenset) -> Fn:
        n = node.ident
        if n in scope or n in ("s", "t"):
            return lambda c: c.vars.get(n)
        if n in self.lets:
            return self.lets[n]
        builtin = self._builtin_value(n)
        if builtin is not None and n not in self.symbols:
            return builtin
        if n in self.symbols:
            v = self.symbols[n]
            return lambda c: v
        return lambda c: n  # an enum word such as `ask` or `called`

    def _list(self, node: ListOf, scope: frozenset) -> Fn:
        items = [self.node(x, scope) for x in node.items]
        return lambda c: tuple(f(c) for f in items)

    def _attr(self, node: Attr, scope: frozenset) -> Fn:
        obj = self.node(node.obj, scope)
        name = node.name
        return lambda c: attr(obj(c), name)

    # ---- operators -----------------------------------------------------------------------------
    def _not(self, node: Not, scope: frozenset) -> Fn:
        a = self.node(node.a, scope)
        return lambda c: not a(c)

    def _neg(self, node: Neg, scope: frozenset) -> Fn:
        a = self.node(node.a, scope)
        return lambda c: -_num(a(c))

    def _if(self, node: If, scope: frozenset) -> Fn:
        cond, then, other = (self.node(x, scope) for x in (node.cond, node.then, node.other))
        return lambda c: then(c) if cond(c) else other(c)

    def _bin(self, node: Bin, scope: frozenset) -> Fn:
        op = node.op
        a, b = self.node(node.a, scope), self.node(node.b, scope)
        if op == "and":
            return lambda c: bool(a(c)) and bool(b(c))
        if op == "or":
            return lambda c: bool(a(c)) or bool(b(c))
        if op == "+":
            if gives_cards(self, node.a, scope) or gives_cards(self, node.b, scope):
                union = B.card_union
                return lambda c: union(a(c), b(c))
            return lambda c: _num(a(c)) + _num(b(c))
        if op == "-":
            return lambda c: _num(a(c)) - _num(b(c))
        if op == "*":
            return lambda c: _num(a(c)) * _num(b(c))
        if op == "/":
            return lambda c: div(a(c), b(c))
        if op == "%":
            return lambda c: mod(a(c), b(c))
        if op == "^":
            return lambda c: power(a(c), b(c))
        if op == "==":
            return lambda c: a(c) == b(c)
        if op == "!=":
            return lambda c: a(c) != b(c)
        if op == "in":
            return lambda c: contains(b(c), a(c))
        if op == "not in":
            return lambda c: not contains(b(c), a(c))
        f = _cmp(op)
        return lambda c: f(a(c), b(c))

    # ---- calls ---------------------------------------------------------------------------------
    def _call(self, node: Call, scope: frozenset) -> Fn:
        name = node.fname
        acct = account_named(node)
        if acct is not None:
            rest = [self.node(x, scope) for x in node.args[1:]]
            return lambda c: c.st.account(acct, *(f(c) for f in rest))
        args = [self.node(x, scope) for x in node.args]
        if name in self.let_functions:
            params, body = self.let_functions[name]
            compiled = self.node(body, frozenset(scope) | set(params))
            return _let_call(params, args, compiled)
        impl = B.FUNCTIONS.get(name)
        if impl is None:
            def missing(c: Any) -> Any:
                raise RuleRuntimeError(f"the function '{name}' is not implemented by the engine")
            return missing
        if len(args) == 1:
            f0 = args[0]
            return lambda c: impl(c, f0(c))
        if len(args) == 2:
            f0, f1 = args
            return lambda c: impl(c, f0(c), f1(c))
        return lambda c: impl(c, *(f(c) for f in args))

    def _comp(self, node: Comp, scope: frozenset) -> Fn:
        fname, body, var, iterable, cond = node.fname, node.body, node.var, node.iterable, node.cond
        inner = frozenset(scope) | {var}
        fbody = self.node(body, inner)
        fit = self.node(iterable, scope)
        fcond = self.node(cond, inner) if cond is not None else None
        reduce = B.COMPREHENSIONS.get(fname)
        if reduce is None:
            raise ValueError(fname)

        def members(c: Any) -> Iterator[tuple[Any, Any]]:
            it = fit(c)
            if isinstance(it, int) and not isinstance(it, bool):
                it = B.mask_bits(it)
            elif it is None:
                it = ()
            saved = c.vars.get(var, _MISSING)
            try:
                for m in it:
                    c.vars[var] = m
                    if fcond is None or fcond(c):
                        yield m, fbody(c)
            finally:
                if saved is _MISSING:
                    c.vars.pop(var, None)
                else:
                    c.vars[var] = saved

        return lambda c: reduce(members(c))


_MISSING = object()
_METHODS = {cls: "_" + tag for cls, tag in TAG.items()}


def account_named(node: Node) -> str | None:
    """The account `account(name, …)` names (a payment's party, or the account's value), else None."""
    if isinstance(node, Call) and node.fname == "account" and node.args and isinstance(node.args[0], Name):
        return node.args[0].ident
    return None


def _let_call(params: tuple[str, ...], args: list[Fn], compiled: Fn) -> Fn:
    def call(c: Any) -> Any:
        values = [f(c) for f in args]
        saved = [c.vars.get(p, _MISSING) for p in params]
        for p, v in zip(params, values):
            c.vars[p] = v
        try:
            return compiled(c)
        finally:
            for p, s in zip(params, saved):
                if s is _MISSING:
                    c.vars.pop(p, None)
                else:
                    c.vars[p] = s
    return call
