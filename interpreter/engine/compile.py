"""Expressions → Python closures, compiled once per rule set and called many times.

A compiled expression is a function of one argument, the evaluation context `c` (a game state,
or a small view on it), which offers every built-in name of interpreter/vocabulary.py as an
attribute or method. Names are resolved when compiling, never while playing.

Runtime values: seats are ints, a set of seats is a tuple, cards are indices and card sets are
int masks, calls and contracts are `Ref` strings carrying their record, numbers are ints or
exact Fractions. The language is total: division by zero gives 0, arithmetic treats `none` as 0,
an attribute of `none` is `none`, and min/max of nothing is 0.
"""
from __future__ import annotations

import operator
from fractions import Fraction

from interpreter.language.expressions import parse_text


class Ref(str):
    """A call or contract name that also carries its record (for `.category`, `.rank`, props…)."""
    __slots__ = ("rec", "kind")

    def __new__(cls, name: str, rec, kind: str):
        obj = str.__new__(cls, name)
        obj.rec = rec
        obj.kind = kind
        return obj


def attr(obj, name):
    if obj is None:
        return None
    if isinstance(obj, Ref):
        if name == "name":
            return str(obj)
        rec = obj.rec
        if name in rec:
            return rec[name]
        props = rec.get("props")
        if props is not None and name in props:
            return props[name]
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _num(v):
    if v is None or v is False:
        return 0
    if v is True:
        return 1
    return v


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


class RuleRuntimeError(Exception):
    """A rule expression that cannot be given a meaning while playing (say `2 ^ 200`): a fault of the rule
    file found at run time, reported in words, never a silent 0."""


def power(a, b):
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
    def lt(a, b):
        return a is not None and b is not None and a < b

    def le(a, b):
        return a is not None and b is not None and a <= b

    def gt(a, b):
        return a is not None and b is not None and a > b

    def ge(a, b):
        return a is not None and b is not None and a >= b

    return {"<": lt, "<=": le, ">": gt, ">=": ge}[op]


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

    `symbols`: name → constant value (suits, cards, groups as masks, calls/contracts as Refs, options …)
    `builtins`: names the context answers (`c.NAME`); `functions`: name → method name on the context.
    `lets`: name → compiled closure or (params, tree) for functions.
    """

    def __init__(self, symbols: dict, builtins: set[str], functions: set[str]):
        self.symbols = symbols
        self.builtins = builtins
        self.functions = functions
        self.lets: dict = {}
        self.let_functions: dict = {}
        self.accounts: set = {"pot"}

    def party(self, text):
        """A payment's `from`/`to`: an account name, account(name, s…), or an expression giving a seat."""
        node = parse_text(text) if isinstance(text, str) else ("const", text)
        if node[0] == "name" and node[1] in self.accounts:
            p = Party((node[1],))
            return lambda c: p
        if node[0] == "call" and node[1] == "account" and node[2] and node[2][0][0] == "name":
            acct = node[2][0][1]
            rest = [self.node(x) for x in node[2][1:]]
            return lambda c: Party((acct,) + tuple(f(c) for f in rest))
        return self.node(node)

    def text(self, text):
        if text is None or isinstance(text, (bool, int)):
            return lambda c, _v=text: _v
        return self.node(parse_text(text))

    def node(self, node, scope=frozenset()):
        kind = node[0]
        method = getattr(self, "_" + kind)
        return method(node, scope)

    # ---- leaves --------------------------------------------------------------------------------
    def _num(self, node, scope):
        v = node[1]
        v = int(v) if v.denominator == 1 else v
        return lambda c: v

    def _str(self, node, scope):
        v = node[1]
        return lambda c: v

    def _const(self, node, scope):
        v = node[1]
        return lambda c: v

    def _name(self, node, scope):
        n = node[1]
        if n in scope or n in ("s", "t"):
            return lambda c: c.vars.get(n)
        if n in self.lets:
            f = self.lets[n]
            return f
        if n in self.builtins and n not in self.symbols:
            getter = _getter(n)
            return getter
        if n in self.symbols:
            v = self.symbols[n]
            return lambda c: v
        if n in self.builtins:
            return _getter(n)
        return lambda c: n  # an enum word such as `ask` or `called`

    def _list(self, node, scope):
        items = [self.node(x, scope) for x in node[1]]
        return lambda c: tuple(f(c) for f in items)

    def _attr(self, node, scope):
        obj = self.node(node[1], scope)
        name = node[2]
        return lambda c: attr(obj(c), name)

    # ---- operators -----------------------------------------------------------------------------
    def _not(self, node, scope):
        a = self.node(node[1], scope)
        return lambda c: not a(c)

    def _neg(self, node, scope):
        a = self.node(node[1], scope)
        return lambda c: -_num(a(c))

    def _if(self, node, scope):
        cond, then, other = (self.node(x, scope) for x in node[1:])
        return lambda c: then(c) if cond(c) else other(c)

    def _bin(self, node, scope):
        op = node[1]
        a, b = self.node(node[2], scope), self.node(node[3], scope)
        if op == "and":
            return lambda c: bool(a(c)) and bool(b(c))
        if op == "or":
            return lambda c: bool(a(c)) or bool(b(c))
        if op == "+":
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
    def _call(self, node, scope):
        name = node[1]
        if name == "account" and node[2] and node[2][0][0] == "name":
            acct = node[2][0][1]
            rest = [self.node(x, scope) for x in node[2][1:]]
            return lambda c: c.account(acct, *(f(c) for f in rest))
        args = [self.node(x, scope) for x in node[2]]
        if name in self.let_functions:
            params, body = self.let_functions[name]
            compiled = self.node(body, frozenset(scope) | set(params))
            return _let_call(params, args, compiled)
        if name == "min":
            return lambda c: min((_num(f(c)) for f in args), default=0)
        if name == "max":
            return lambda c: max((_num(f(c)) for f in args), default=0)
        if name == "abs":
            return lambda c: abs(_num(args[0](c)))
        if name == "floor":
            return lambda c: int(_num(args[0](c)) // 1)
        if name == "ceil":
            return lambda c: -int(-_num(args[0](c)) // 1)
        if name == "size":
            return lambda c: _size(args[0](c))
        return _method_call(name, args)

    def _comp(self, node, scope):
        _, fname, body, var, iterable, cond = node
        inner = frozenset(scope) | {var}
        fbody = self.node(body, inner)
        fit = self.node(iterable, scope)
        fcond = self.node(cond, inner) if cond is not None else None

        def members(c):
            it = fit(c)
            if isinstance(it, int) and not isinstance(it, bool):
                it = _bits(it)
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

        if fname == "sum":
            return lambda c: sum((_num(v) for _, v in members(c)), 0)
        if fname == "count":
            return lambda c: sum(1 for _, v in members(c) if v)
        if fname == "any":
            return lambda c: any(v for _, v in members(c))
        if fname == "all":
            return lambda c: all(v for _, v in members(c))
        if fname == "min":
            return lambda c: min((_num(v) for _, v in members(c)), default=0)
        if fname == "max":
            return lambda c: max((_num(v) for _, v in members(c)), default=0)
        if fname == "set":
            return lambda c: tuple(m for m, v in members(c) if v)
        raise ValueError(fname)


_MISSING = object()


def _let_call(params, args, compiled):
    def call(c):
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


def _method_call(method: str, args: list):
    """Call the context's method `method`; it is looked up on the context's class once."""
    found: dict = {}

    def lookup(c):
        cls = type(c)
        fn = found.get(cls)
        if fn is None:
            fn = found[cls] = getattr(cls, method)
        return fn

    if len(args) == 1:
        f0 = args[0]
        return lambda c: lookup(c)(c, f0(c))
    if len(args) == 2:
        f0, f1 = args
        return lambda c: lookup(c)(c, f0(c), f1(c))
    return lambda c: lookup(c)(c, *(f(c) for f in args))


def _getter(name):
    return operator.attrgetter(name)


def _bits(mask: int):
    i = 0
    while mask:
        if mask & 1:
            yield i
        mask >>= 1
        i += 1


def _size(v):
    if v is None:
        return 0
    if isinstance(v, int) and not isinstance(v, bool):
        return bin(v).count("1")
    return len(v)
