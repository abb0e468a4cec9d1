"""Which names of the activation (`c.vars`) a piece of generated source may read, so that a let function
or a comprehension binds a parameter or its variable there only when something it calls reads it.

Only three kinds of code read names out of an activation: a name in scope (engine/compile.Compiler._name:
a let function's parameter, a comprehension's variable, and `s`/`t` always), a built-in value or
function that declares it reads `c.vars` (`side`, `item`: engine/builtins.READS), and a reference closure compiled inside a scope (its names, the generator records them
when it binds one). Every other function handed the activation — a built-in, a let, a rule expression
the engine holds — was compiled outside any scope, so it reads at most the names in `TOP`.

`reads(src, known)` gives the names a source may read, or None when it cannot tell (the activation
used some other way): then everything is bound, as the reference binds it.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Mapping

import interpreter.engine.builtins as B

# what code compiled outside any scope may read from an activation: `s` and `t` (read from the
# activation wherever they appear) and what the built-ins declare they read (engine/builtins.READS)
TOP: frozenset[str] = B.TOP

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

