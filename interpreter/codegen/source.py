"""Small pieces the expression generator (codegen/expr.py) writes source with: a generated expression
(G), a value as a number or a truth, constants folded, the function wrappers; and the checks that an
implementation of the engine declares it reads what its template assumes (interpreter/registry.Reads;
else it is called, not inlined)."""
from __future__ import annotations

import functools
import keyword
import re
import types
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from interpreter.codegen.reads import _STRING
from interpreter.codegen.templates import EARLY, READING_INLINE
from interpreter.engine import compile as X
from interpreter.registry import declared

_UNKNOWN = object()


def _names(fn: Any) -> frozenset[str]:
    """The names `fn` declares it reads (interpreter/registry.Reads); none for what declares nothing."""
    got = declared(fn)
    return got.names if got is not None else frozenset()


def mirrors(fn: Any, template: str, names: Any) -> bool:
    """`fn` declares that `template` (a template of codegen/templates.py, or the generator's function of that
    name) computes what it does, and that it reads the names the template was written against: else its
    template is not used (a changed implementation is called until its template is brought in step)."""
    got = declared(fn)
    return got is not None and template in got.mirrors and got.names == frozenset(names)


def _calls() -> dict[str, str]:
    """The built-in values that are a call's `ref` (readings.final, .high) → the call they read it from,
    for each property that reads just that (else its attributes go through it)."""
    from interpreter.engine.readings import Readings
    out: dict[str, str] = {}
    if X.Ref.__eq__ is not str.__eq__ or X.Ref.__ne__ is not str.__ne__:
        return out
    for name, call in (("final", "st.final_call"), ("high", "st.auction.high_call")):
        getter = Readings.__dict__[name].fget
        if mirrors(getter, "_CALLS", (*call.split(".")[1:], "ref")):
            out["st." + name] = call
    return out


_CALLS = _calls()


class G:
    """A generated expression: its source, the kind of value it gives, its value when constant, and where
    it is a count of card points the source of that count in the rule set's point units (an exact whole
    number, builtins._punits) or None."""
    __slots__ = ("src", "kind", "value", "units")

    def __init__(self, src: str, kind: str = "any", value: Any = _UNKNOWN, units: str | None = None):
        self.src = src
        self.kind = kind
        self.value = value
        self.units = units

    @property
    def const(self) -> bool:
        return self.value is not _UNKNOWN


def _of_nums(fn: Any, name: str) -> bool:
    """`fn` is builtins' min or max as it is written: `name` over num() of its arguments, nothing else."""
    return mirrors(fn, "_of_nums", (name, "num")) and fn(None, 2, None, True) == (0 if name == "min" else 2)


@functools.lru_cache(maxsize=64)
def _early_holds(name: str) -> bool:
    """The function of templates.EARLY reads the part of the state named there first and, with that part
    empty and nothing else on the state, gives the value named there."""
    fn, check, value, probe = EARLY[name]
    reads = tuple(check.split(".")[1:])
    got = declared(fn)
    if got is None or "EARLY" not in got.mirrors or got.first != reads:
        return False
    state = types.SimpleNamespace(**{reads[0]: types.SimpleNamespace(**{reads[1]: {}})})
    try:
        got = fn(state, *probe)
    except Exception:       # it reads something else first
        return False
    return got is value or (type(got) is type(value) and got == value)


@functools.lru_cache(maxsize=512)
def _same(template: str, fn: Any) -> bool:
    """The template reads what the engine's implementation reads (the names its code uses): a built-in
    whose implementation has changed is called, not inlined, until the template is brought in step (as the
    implementation declares what it reads, interpreter/registry.Reads)."""
    names = set(re.findall(r"[A-Za-z_]\w*", re.sub(r"'[^']*'", "", template))) - {"c"} - set(keyword.kwlist)
    return names == _names(fn)


@functools.lru_cache(maxsize=1)
def declarer_source() -> str:
    """How generated code reads the built-in value `declarer` (templates.VALUE_SOURCE: the state's property):
    the attribute behind the property when the property's getter reads that alone (no call), else the
    property. Shared by every generated expression (codegen/expr.py) and what settlement hoists."""
    from interpreter.engine.state import State

    prop = State.__dict__.get("declarer")
    if isinstance(prop, property) and mirrors(prop.fget, "declarer_source", ("_declarer",)):
        return "st._declarer"
    return "st.declarer"


# an argument read more than once where a template reads it so: a plain name or the declarer's attribute
_READ_TWICE = re.compile(r"[A-Za-z_]\w*|st\._declarer")


@functools.lru_cache(maxsize=8)
def _reading_holds(name: str) -> bool:
    """The state's method `name` reads the names templates.READING_INLINE says its template mirrors."""
    from interpreter.engine.state import State

    return mirrors(getattr(State, name, None), "READING_INLINE", READING_INLINE[name][1])


_IDENT = re.compile(r"[A-Za-z_]\w*\Z")

_PARAM = re.compile(r"(?<![\w.])p(\d+)\b")  # a let function's parameter in its body (let_function: `p0`, …)
# the longest body a let function is written out with at its call, instead of being called (a call costs
# more than the few steps of most bodies; a long one is called, so that the module does not grow)
_INLINE_BODY = 2000


def _substituted(body: str, args: list[G]) -> str | None:
    """A let function's body with its parameters written as the arguments of a call where each is a plain
    name or a constant (reading one costs what reading the parameter does, and a rule expression has no
    effects, so it does not matter how often, or whether, the body reads it); None where one is not, where
    the body is long or reads a parameter the call does not give."""
    if len(body) > _INLINE_BODY or not all(a.const or _IDENT.match(a.src) for a in args):
        return None
    spelt = [a.src if _IDENT.match(a.src) else f"({a.src})" for a in args]
    missing = False

    def arg(m: re.Match) -> str:
        nonlocal missing
        i = int(m[1])
        if i >= len(spelt):
            missing = True
            return m[0]
        return spelt[i]

    out, done = [], 0
    for m in _STRING.finditer(body):            # parameters outside string literals only
        out += [_PARAM.sub(arg, body[done:m.start()]), m[0]]
        done = m.end()
    out.append(_PARAM.sub(arg, body[done:]))
    return None if missing else "".join(out)


def _as_num(g: G) -> str:
    """A value in arithmetic, as builtins.num gives it: a whole number is itself (no call), a name is
    read twice, anything else is evaluated once into `_v`."""
    if g.kind == "int":
        return g.src
    if _IDENT.match(g.src):
        return f"({g.src} if type({g.src}) is int else num({g.src}))"
    return f"(_v if type(_v := {g.src}) is int else num(_v))"


def _truth(g: G) -> str:
    """A value as a boolean, as `bool()` gives it (nothing to do for one known to be a boolean)."""
    return g.src if g.kind == "bool" else f"(not not {g.src})"


_CMP_NAME = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def _fold(op: str, a: Any, b: Any) -> Any:
    """A binary operator on two constants, as the reference computes it."""
    n = X._num
    if op == "+":
        return n(a) + n(b)
    if op == "-":
        return n(a) - n(b)
    if op == "*":
        return n(a) * n(b)
    if op == "/":
        return X.div(a, b)
    if op == "%":
        return X.mod(a, b)
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "in":
        return X.contains(b, a)
    if op == "not in":
        return not X.contains(b, a)
    return X._cmp(op)(a, b)


def function(name: str, src: str, doc: str) -> str:
    """One generated function of the activation `c`."""
    return f"def {name}(c):\n    # {doc}\n    st = c.st\n    return {src}\n"


_ACTIVATION = re.compile(r"\bc\b")


def of_state(body: str) -> bool:
    """The source reads nothing of the activation but the state (no `c` as a word outside a string)."""
    return not _ACTIVATION.search(_STRING.sub("''", body))


_FORWARD = re.compile(r"([A-Za-z_]\w*)\((c|st)((?:, p\d+)*)\)")


def let_call(body: str, bound: tuple[str, ...], args: list[G], helper: Callable[[], str]) -> str:
    """A let function's call with these arguments: its body written out (_substituted) where it binds
    none of its parameters in the activation, else a call of its function (`helper()`, made then:
    let_function), with the state for the activation where the body reads nothing else (of_state)."""
    inlined = None if bound else _substituted(body, args)
    if inlined is not None:
        return inlined
    forward = None if bound else _FORWARD.fullmatch(body)
    if forward is not None and forward[3] == "".join(f", p{i}" for i in range(len(args))):
        # a body that only passes the parameters on, in order, to one call: that call (the arguments are
        # worked out once either way)
        return f"{forward[1]}({forward[2]}" + "".join(f", {a.src}" for a in args) + ")"
    first = "st" if not bound and of_state(body) else "c"
    return f"{helper()}({first}" + "".join(f", {a.src}" for a in args) + ")"


def let_function(fname: str, name: str, params: tuple[str, ...], body: str, bound: tuple[str, ...]) -> str:
    """A let function: its parameters are Python arguments; those in `bound` are bound in the activation
    as well (as the interpreter binds them): the ones something the body calls may read there. One that
    binds none and whose body reads the state alone (of_state) is a function of the state, called
    `F(st, …)`: what calls it reads no activation for it (and may need none, codegen's `on_state`)."""
    args = "".join(f", p{i}" for i in range(len(params)))
    if not bound and of_state(body):
        return "\n".join([f"def {fname}(st{args}):", f"    # the let function {name!r}", f"    return {body}"]) + "\n"
    head = [f"def {fname}(c{args}):", f"    # the let function {name!r}", "    st = c.st"]
    if not bound:
        return "\n".join(head + [f"    return {body}"]) + "\n"
    idx = [(params.index(p), p) for p in bound]
    lines = head + ["    env = c.vars"]
    lines += [f"    saved{i} = env.get({p!r}, MISSING)" for i, p in idx]
    lines += [f"    env[{p!r}] = p{i}" for i, p in idx]
    lines += ["    try:", f"        return {body}", "    finally:"]
    for i, p in idx:
        lines += [f"        if saved{i} is MISSING:", f"            env.pop({p!r}, None)", "        else:",
                  f"            env[{p!r}] = saved{i}"]
    return "\n".join(lines) + "\n"


def hoist(body: str, cond: str | None, parts: tuple[str, ...]) -> tuple[str, str | None, list[str]]:
    """A loop's body and condition with each of `parts` (`(name := source)`, templates.LOOP_INVARIANT) they
    hold read through its name, and the lines setting those names before the loop."""
    lines = []
    for part in parts:
        if part in body or (cond is not None and part in cond):
            name, source = part[1:-1].split(" := ")
            body, cond = _replaced(body, part, name), cond and _replaced(cond, part, name)
            lines.append(f"    {name} = {source}")
    return body, cond, lines


def _replaced(src: str, part: str, new: str) -> str:
    """The source with `part` written `new` wherever it stands outside a string literal."""
    out, done = [], 0
    for m in _STRING.finditer(src):
        out += [src[done:m.start()].replace(part, new), m[0]]
        done = m.end()
    out.append(src[done:].replace(part, new))
    return "".join(out)


def units_of(g: G, den: int | None) -> str | None:
    """The source of a value in point units of denominator `den` (readings.point_tables): a count of card
    points's own (G.units), a constant number times `den` where that is whole; else None."""
    if not g.const:
        return g.units
    v = g.value
    if den is None or type(v) not in (int, Fraction):
        return None
    u = v * den
    if type(u) is Fraction:
        if u.denominator != 1:
            return None
        u = u.numerator
    return repr(u)
