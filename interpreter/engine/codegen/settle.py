"""Payment rows, generated: one function per list of rows (the settlement, each part of the session)
that evaluates every row on the state as engine/phases/settle.apply_rows does and gives the transfers,
in the same order. Applying them to the accounts stays the interpreter's (settle.transfer).

The seat of a row's `each` is bound as `s` in the activation, as the interpreter binds it; a part
the generator does not hold as a tree keeps its closure, bound by name."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

from interpreter.engine.codegen.expr import ExprGen, _truth
from interpreter.engine.codegen.reads import _STRING
from interpreter.engine.codegen.reads import reads as env_reads

ROW_FIELDS = ("when", "each", "src", "dst", "amount", "note")


def rows_source(name: str, title: str, rows: list, gen: ExprGen,
                tree_of: Callable[[Any], tuple[str, Any] | None]) -> str | None:
    """`def name(st)` giving the transfers of `rows`, or None when the rows are not the kind it knows."""
    from interpreter.engine.phases import settle
    from interpreter.engine.phases.base import ALWAYS

    if not rows or any(type(r) not in (settle.Row, settle.OthersRow) for r in rows):
        return None
    if tuple(f.name for f in dataclasses.fields(settle.Row)) != ROW_FIELDS:
        return None

    def part(fn: Any, what: str) -> str:
        found = tree_of(fn)
        if found is None:
            return gen.bind(fn, f"{what} of a payment row") + "(c)"
        kind, node = found
        return (gen.party(node) if kind == "party" else gen.expr(node)).src

    def seat_free(src: str) -> bool:
        """The source reads no seat of the row: not `s` in the activation, not the local `sv`."""
        got = env_reads(src, gen.reads)
        return got is not None and "s" not in got and not re.search(r"\b(s|sv)\b", _STRING.sub("''", src))

    def seat_free_when(fn: Any) -> tuple[str, str | None] | None:
        """The condition, or the left side of its `and`, as a truth judged once, and the rest."""
        found = tree_of(fn)
        if found is None or found[0] != "expr":
            return None
        node = found[1]
        whole = gen.expr(node)
        if seat_free(whole.src):
            return _truth(whole), None
        if node[0] == "bin" and node[1] == "and":
            left, right = gen.expr(node[2]), gen.expr(node[3])
            if seat_free(left.src):
                return _truth(left), _truth(right)
        return None

    lines: list[str] = []
    for i, r in enumerate(rows):
        lines.append(f"    # row {i + 1}: {r.note!r}")
        each = part(r.each, "the seats") if r.each is not None else None
        # in a row with `each`, its seat is read from the activation once per seat: `sv` (what is evaluated
        # in between binds names of its own and puts `s` back as it was)
        outer = gen.local_names
        if each is not None and "s" not in outer:
            gen.local_names = {**outer, "s": "sv"}
        try:
            when = None if r.when is ALWAYS else part(r.when, "the condition")
            once = seat_free_when(r.when) if each is not None and when is not None else None
            amount = part(r.amount, "the amount")
            src = part(r.src, "the payer") if r.src is not None else "None"
            dst = part(r.dst, "the payee") if r.dst is not None else "None"
        finally:
            gen.local_names = outer
        note = gen.lit(r.note).src
        # the seat is put in the activation only where a part may read it there (codegen/reads.py)
        parts = [x for x in (when, amount, src, dst) if x is not None]
        part_reads = env_reads(", ".join(parts), gen.reads)
        bind = part_reads is None or "s" in part_reads
        if each is None:
            pad = "    "
            body = []
        elif bind:
            pad = "        "
            body = [f"    for s in st._seats_of({each}):", "        if s is not None:", "            env['s'] = s",
                    "        sv = env.get('s')"]
        else:   # as the activation would give it: the row's last seat that is not none, none before it
            pad = "        "
            body = ["    sv = None", f"    for s in st._seats_of({each}):", "        if s is not None:",
                    "            sv = s"]
        guard = None
        if once is not None:
            # the part of the condition that reads no seat is judged once, before the seats: it gives the
            # same at every seat, and when it is false the row pays nothing and its seats are not worked
            # out (the rest, if any, still per seat, after it, as `and` does)
            guard, rest = once
            if rest:
                body.append(f"{pad}if {rest}:")
                pad += "    "
        elif when is not None:
            body.append(f"{pad}if {when}:")
            pad += "    "
        if isinstance(r, settle.OthersRow):   # the payee form "each other player": every other active seat
            fixed, pair = (src, f"(fixed, t, amount, {note})") if r.spread == "to" else (dst, f"(t, fixed, amount, {note})")
            body += [f"{pad}amount = {amount}", f"{pad}if amount:", f"{pad}    fixed = {fixed}",
                     f"{pad}    out.extend({pair} for t in (st.active if fixed is not None else ()) if t != fixed)"]
        else:
            body += [f"{pad}amount = {amount}", f"{pad}if amount:", f"{pad}    out.append(({src}, {dst}, amount, {note}))"]
        if r.each is not None and bind:
            body.append("    env.pop('s', None)")
        if guard is not None:
            body = [f"    if {guard}:"] + ["    " + x for x in body]
        lines += body
    lines.append("    return out")
    text = "\n".join(lines)
    # the activation only where a row reads it (a constant stake reads nothing)
    reads = ["    c = Ctx(st, cache={})", "    env = c.vars"] if re.search(r"\b(c|env)\b", text) else []
    head = [f"def {name}(st):", f"    # {title}: every row judged on the state as it is, the transfers in order",
            "    out = []"]
    return "\n".join(head + reads) + "\n" + text + "\n"
