"""Which names of the activation (`c.vars`) a piece of generated source may read, so that a let function
or a comprehension binds a parameter or its variable there only when something it calls reads it.

Only three kinds of code read names out of an activation: a name in scope (engine/compile.Compiler._name:
a let function's parameter, a comprehension's variable, and `s`/`t` always), a built-in value or
function whose implementation reads `c.vars` (`side`, `item`: the names it reads are the strings its
code holds), and a reference closure compiled inside a scope (its names, the generator records them
when it binds one). Every other function handed the activation — a built-in, a let, a rule expression
the engine holds — was compiled outside any scope, so it reads at most the names in `TOP`.

`reads(src, known)` gives the names a source may read, or None when it cannot tell (the activation
used some other way): then everything is bound, as the reference binds it.
"""
from __future__ import annotations

import ast
import dis
import functools
import re
from collections.abc import Mapping
from types import CodeType
from typing import Any

import interpreter.engine.builtins as B


def _builtin_reads() -> frozenset[str]:
    names: set[str] = set()
    for fn in list(B.VALUES.values()) + list(B.FUNCTIONS.values()):
        code: Any = getattr(fn, "__code__", None)
        if code is not None and "vars" in code.co_names:
            names |= {k for k in code.co_consts if isinstance(k, str)}
    return frozenset(names)


# what code compiled outside any scope may read from an activation: `s` and `t` (read from the
# activation wherever they appear) and what the built-ins read
TOP: frozenset[str] = frozenset({"s", "t"}) | _builtin_reads()

_LIT = r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\""
_GET = re.compile(r"(?<![\w.])c\.vars\.get\((" + _LIT + r")(?:, (?:\(\)|None))?\)")
_STRING = re.compile(_LIT)
_CALL = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*)\(c(?=[,)])")     # (what _calls finds, without the search
#                                                                   from every place in the text)
_BARE = re.compile(r"c(?<![\w.]c)\b(?!\.(?:st|me|this)\b)")   # a `c` that is a word of its own, not
#                                                              `c.st`, `c.me`, `c.this`: found from each `c`
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


def reads(src: str, known: Mapping[str, frozenset[str] | None]) -> frozenset[str] | None:
    """The names `src` may read from the activation; `known`: a generated helper or a bound reference
    closure → what it reads (None: anything); any other function called with the activation reads `TOP`."""
    out: set[str] = set()
    if "c.vars.get(" in src:
        for m in _GET.finditer(src):
            out.add(ast.literal_eval(m.group(1)))
        src = _GET.sub("_", src)
    rest = _STRING.sub("''", src) if "'" in src or '"' in src else src
    pieces: list[str] = []      # the text with each call's `name(c` written `_(`, for the bare `c`
    done = 0
    for start, end, name in _calls(rest):
        if name in known:
            got = known[name]
            if got is None:
                return None
            out |= got
        else:
            out |= TOP
        pieces += [rest[done:start], "_("]
        done = end
    if _BARE.search("".join(pieces) + rest[done:] if pieces else rest):
        return None
    return frozenset(out)


def _calls(text: str) -> list[tuple[int, int, str]]:
    """Each call with the activation as its first argument, `name(c,` or `name(c)`, as _CALL finds them:
    where it starts, where its `(c` ends, and the name."""
    out = []
    i = text.find("(c")
    while i >= 0:
        if i + 2 < len(text) and text[i + 2] in ",)":
            j = i
            while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_."):
                j -= 1
            if j < i and text[j] in _NAME_START:
                out.append((j, i + 2, text[j:i]))
        i = text.find("(c", i + 2)
    return out


# what an activation holds besides its names: reading these reads no name
_NOT_NAMES = frozenset({"st", "me", "this", "cache"})


def state_only(fn: Any) -> bool:
    """The function uses the activation it is handed only for what is not a name (the state `c.st`, `me`,
    `this`, the settlement's memo): it reads no names."""
    code = getattr(fn, "__code__", None)
    if code is None or code.co_argcount < 1:
        return False
    return _code_state_only(code)


@functools.lru_cache(maxsize=4096)
def _code_state_only(code: CodeType, name: str | None = None) -> bool:
    """state_only() of a function with this code (the built-ins are judged once per process, not once per
    rule set compiled): its first argument (or `name`, a variable an inner function shares with the one
    that made it) is only read for what is not a name, `.st`, `.me`, … A variable an inner function (a
    generator expression) shares is judged there too."""
    first = name if name is not None else code.co_varnames[0]
    ins = list(dis.get_instructions(code))
    for i, x in enumerate(ins):
        if x.argval != first or x.opname in _PROLOGUE:
            continue
        if x.opname in ("LOAD_FAST", "LOAD_DEREF"):
            nxt = ins[i + 1] if i + 1 < len(ins) else None
            if nxt is not None and nxt.opname == "LOAD_ATTR" and nxt.argval in _NOT_NAMES:
                continue
            return False
        if x.opname == "LOAD_CLOSURE" and all(
                _code_state_only(inner, first) for inner in code.co_consts
                if isinstance(inner, CodeType) and first in inner.co_freevars):
            continue                # handed to an inner function that reads it as this one may
        return False
    return True


# the steps that make or copy a shared variable's cell when a function starts: no use of its value
_PROLOGUE = frozenset({"MAKE_CELL", "COPY_FREE_VARS"})
