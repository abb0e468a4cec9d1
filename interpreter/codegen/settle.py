"""Payment rows, generated: one function per list of rows (the settlement, each part of the session)
that evaluates every row on the state as engine/phases/settle.apply_rows does and gives the transfers,
in the same order. Applying them to the accounts stays the interpreter's (settle.transfer).

The seat of a row's `each` is bound as `s` in the activation, as the interpreter binds it; a part
the generator does not hold as a tree keeps its closure, bound by name."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

from interpreter.codegen.expr import ExprGen
from interpreter.codegen.once import worked_once
from interpreter.codegen.reads import _LIT, _STRING
from interpreter.codegen.reads import reads as env_reads
from interpreter.codegen.source import G, _truth, declarer_source, mirrors
from interpreter.engine.context import Ctx
from interpreter.model.nodes import Bin, Name

ROW_FIELDS = ("when", "each", "src", "dst", "amount", "note")


def rows_source(name: str, title: str, rows: list, gen: ExprGen,
                tree_of: Callable[[Any], tuple[str, Any] | None]) -> str | None:
    """`def name(st)` giving the transfers of `rows`, or None when the rows are not the kind it knows.

    The contract is the same for every row, so the rows are also generated for the contract being
    settled on, with it known (gen.known: its attributes and the lets they decide are constants,
    codegen/expr.py): a row whose condition is then false is left out, a condition then true is not
    asked. That function is made at the contract's first settlement (rows_under), so that compiling the
    rules does not pay for contracts a run never reaches; `name` calls it, or `name_ANY`, which judges the
    rows as they are, when no contract is set."""
    from interpreter.engine.phases import settle

    if not rows or any(type(r) not in (settle.Row, settle.OthersRow) for r in rows):
        return None
    if tuple(f.name for f in dataclasses.fields(settle.Row)) != ROW_FIELDS:
        return None
    generic = _with_lets(_rows_body(rows, gen, tree_of), gen)
    # kept as they are now: installing the module puts generated functions in the rules' rows and contracts
    # (codegen.install), and the trees are found by the closures they replace
    kept = [copy.copy(r) for r in rows]
    goals = {con_name: con.goal for con_name, con in gen.contracts.items()}
    gen.later_rows[name] = (title, kept, tree_of, generic, goals)
    dispatch = "\n".join([
        f"def {name}(st):",
        f"    # {title}: the rows as generated for the contract being settled on (rows_under, at its first",
        "    # settlement), or as they are when no contract is set",
        "    con = st._con",
        "    if con is None:",
        f"        return {name}_ANY(st)",
        f"    f = {name}_BY.get(con.name)",
        "    if f is None:",
        f"        f = ROWS_UNDER({name!r}, con.name)",
        "    return f(st)", ""])
    return "\n\n".join([_function(f"{name}_ANY", title, generic), dispatch, f"{name}_BY: dict = {{}}\n"])


def rows_under(gen: ExprGen, namespace: dict[str, Any], name: str, con_name: str,
               compiled: Callable[[str], Any]) -> Callable[[Any], list]:
    """The function of the rows `name` under the contract `con_name`, generated now, compiled (`compiled`:
    source → code) and executed in the module's namespace, then kept in `name_BY`. A contract under which
    the rows read as they are (or one the rules did not have when the module was made) gets `name_ANY`;
    contracts under which they read the same share one function. Its source is kept in gen.later_source."""
    title, rows, tree_of, generic, goals = gen.later_rows[name]
    con = gen.contracts.get(con_name)
    fn = namespace[f"{name}_ANY"]
    if con is not None:
        outer, gen.known = gen.known, {"contract": con.ref}
        outer_local = gen.local_names
        try:
            hoisted = _hoisted(goals[con_name], gen, tree_of)
            gen.local_names = {**outer_local, **{n: n for n in hoisted}}
            body = _with_lets(_with_hoisted(_rows_body(rows, gen, tree_of), hoisted), gen)
        finally:
            gen.known = outer
            gen.local_names = outer_local
        if body != generic:
            variants = gen.later_variants.setdefault(name, {})
            fname = variants.get(body)
            if fname is None:
                fname = variants[body] = f"{name}_{len(variants)}"
                helpers, gen.helpers_done = gen.helpers[gen.helpers_done:], len(gen.helpers)
                notes = [f"#   {k}: {gen.notes[k]}" for k in gen.constants if k not in namespace]
                for k, v in gen.constants.items():
                    namespace.setdefault(k, v)
                src = "\n\n".join(helpers + [_function(fname, f"{title} under {con_name!r}", body)])
                src = "\n".join([f"# made at the first settlement under {con_name!r}", *notes, src])
                exec(compiled(src), namespace)
                gen.later_source.append(src)
            fn = namespace[fname]
    namespace[f"{name}_BY"][con_name] = fn
    return fn


# built-in values that stay the same while the rows are judged, each read once into a local of that name
# when the rows read it: what the generator writes for it (codegen/templates.VALUE_SOURCE; the declarer as
# codegen/source.declarer_source reads it)
HOISTED = {"made": "st.made_in(c)", "declarer": ""}


def _hoisted(goal: Any, gen: ExprGen, tree_of: Callable[[Any], tuple[str, Any] | None]) -> dict[str, str]:
    """The values read once under a contract whose goal is `goal` (the compiled closure, as the rules had it
    before the module was installed): name → its source, for each name the generator writes
    as HOISTED says. `made` is memoised at its first reading (readings.made_in): only when the contract's
    goal reads no seat does it give the same wherever it is first read; then it is the goal itself, as
    made_in judges it (kept in the memo for what else reads it there), when made_in is as written."""
    from interpreter.engine.readings import Readings

    sources = {**HOISTED, "declarer": declarer_source()}
    out = {n: src for n, src in sources.items() if gen.expr(Name(n)).src == src}
    if "made" in out:
        found = tree_of(goal)
        goal = gen.expr(found[1]) if found is not None and found[0] == "expr" else None
        got = env_reads(goal.src, gen.reads) if goal is not None else None
        if goal is None or got is None or got & {"s", "t"}:
            del out["made"]
        elif mirrors(Readings.made_in, "HOISTED", ("_con", "_declarer", "cache", "bool", "goal", "get")):
            out["made"] = f"c.cache['made'] = {_truth(goal)} if st._declarer is not None else False"
    return out


# the activation with a fresh memo: its arguments by position where Ctx takes them in this order
_NEW_CTX = ("Ctx(st, None, None, {})" if tuple(inspect.signature(Ctx).parameters)[:4] == ("st", "me", "this", "cache")
            else "Ctx(st, cache={})")


def _function(name: str, title: str, body: str, head: list[str] | None = None) -> str:
    lines = [f"def {name}(st):", f"    # {title}: every row judged on the state as it is, the transfers in order"]
    lines += [f"    {x}" for x in head or ()]
    # the activation only where a row reads it (a constant stake reads nothing)
    reads = [f"    c = {_NEW_CTX}", "    env = c.vars"] if re.search(r"\b(c|env)\b", body) else []
    return "\n".join(lines + ["    out = []"] + reads) + "\n" + body + "\n"


_MADE = "    made = c.cache['made'] = "     # `made` hoisted, kept in the memo for what else reads it (_hoisted)
_CALLED = re.compile(_LIT + r"|(?<![\w.])(\w+\(c\))")   # a string, or a call with the activation


def _with_lets(body: str, gen: ExprGen) -> str:
    """The body with each let that does not depend on the seat read through a local `v_…`, unset before the
    rows and set at its first reading: every row is judged on the state as it is, so the value is the same
    in all of them, and a let is worked out only where the reference's memo works it out (a row that does
    not read it never does). It is set from the let's call, which shares the settlement's memo with what
    else reads it; when nothing else in the body reads the activation, from the let's own source instead
    (the lets it reads through their locals too), `made` is not kept in a memo nobody reads, and the
    function makes no activation. Made where the body is made (the contract known or not)."""
    lets = gen.let_of_call
    names = [call for call in _calls(body) if call in lets]
    if not names:
        return body
    found: dict[str, str] = {}          # a let's call → its local
    own: dict[str, str] = {}

    def memo(call: str) -> str:
        var = found.setdefault(call, "v_" + call[:-3])
        value = local(own[call]) if call in own else call
        return f"({var} if {var} is not MISSING else ({var} := {value}))"

    def local(text: str) -> str:
        # replaced name by name where no string holds a call and each is a whole name (the text put in holds
        # no other let's call), else searched for them
        if "'" in text or '"' in text or not all(i == 0 or not (_word(text[i - 1]) or text[i - 1] == ".")
                                                   for call in names for i in _finds(text, call)):
            return _CALLED.sub(lambda m: memo(m[1]) if m[1] in lets else m[0], text)
        for call in names:
            if call in text:
                text = text.replace(call, memo(call))
        return text

    def reads_activation(text: str) -> bool:
        """The text reads the activation other than by calling a let (a `c` in a string counts too: the
        let is then called, as anywhere else)."""
        for call in names:
            text = text.replace(call, "_")
        return _names_activation(text)

    if not reads_activation(body.replace(_MADE, "    made = ")):
        pending = list(names)
        while pending:
            call = pending.pop()
            src = gen.let_source(call)
            inner = [x for x in _calls(src or "") if x in lets and x not in names]
            names += inner
            if src is None or reads_activation(src):
                own = {}                    # a let reads the activation: every let called, as the reference has it
                break
            own[call] = src
            pending += inner
    if own:
        body = body.replace(_MADE, "    made = ")
    # a string spans no line: only the lines with a let's call are searched
    starts = sorted({body.rfind("\n", 0, i) + 1 for call in names for i in _finds(body, call)})
    out, done = [], 0
    for start in starts:
        end = body.find("\n", start)
        end = len(body) if end < 0 else end
        out += [body[done:start], local(body[start:end])]
        done = end
    out.append(body[done:])
    return "\n".join([f"    {var} = MISSING" for var in found.values()] + ["".join(out)])


def _calls(text: str) -> list[str]:
    """Every `name(c)` in the text, once each (found from its `(c)`: a body has few)."""
    out: dict[str, None] = {}
    for i in _finds(text, "(c)"):
        j = i
        while j > 0 and _word(text[j - 1]):
            j -= 1
        if j < i and (j == 0 or text[j - 1] != "."):     # a function's, not an attribute's
            out[text[j:i + 3]] = None
    return list(out)


def _names_activation(text: str) -> bool:
    """`c` or `env` is in the text as a word (as `\\b(c|env)\\b` finds it), sooner than that expression: the
    bodies are long, and most have neither."""
    for m in _WORD_END_C.finditer(text):
        i = m.start()
        if i == 0 or not _word(text[i - 1]):
            return True
    return "env" in text


_WORD_END_C = re.compile(r"c(?!\w)")   # starting with a letter: found without a step at every character


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _finds(text: str, part: str) -> Iterator[int]:
    """Where `part` is in `text`."""
    i = text.find(part)
    while i >= 0:
        yield i
        i = text.find(part, i + 1)


def _with_hoisted(body: str, hoisted: dict[str, str]) -> str:
    """The body with the hoisted values it reads worked out before the rows."""
    code = _STRING.sub("''", body)
    used = [f"    {n} = {src}" for n, src in hoisted.items() if re.search(rf"(?<![\w.]){n}\b", code)]
    return "\n".join(used + [body])


def _rows_body(rows: list, gen: ExprGen, tree_of: Callable[[Any], tuple[str, Any] | None]) -> str:
    """The rows judged in order, each appending its transfers to `out`."""
    from interpreter.engine.phases import settle
    from interpreter.engine.phases.base import ALWAYS

    def part(fn: Any, what: str) -> G:
        found = tree_of(fn)
        if found is None:
            return G(gen.bind(fn, f"{what} of a payment row") + "(c)")
        kind, node = found
        return gen.party(node) if kind == "party" else gen.expr(node)

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
        if isinstance(node, Bin) and node.op == "and":
            left, right = gen.expr(node.a), gen.expr(node.b)
            if not left.const and seat_free(left.src):
                return _truth(left), _truth(right)
        return None

    lines: list[str] = []
    for i, r in enumerate(rows):
        lines.append(f"    # row {i + 1}: {r.note!r}")
        each = part(r.each, "the seats").src if r.each is not None else None
        # in a row with `each`, its seat is read from the activation once per seat: `sv` (what is evaluated
        # in between binds names of its own and puts `s` back as it was)
        outer = gen.local_names
        if each is not None and "s" not in outer:
            gen.local_names = {**outer, "s": "sv"}
        try:
            when_g = None if r.when is ALWAYS else part(r.when, "the condition")
            if when_g is not None and when_g.const:     # known: a row that pays nothing, or asks nothing
                if not when_g.value:
                    lines.append("    # (its condition is false)")
                    continue
                when_g = None
            when = None if when_g is None else when_g.src
            once = seat_free_when(r.when) if each is not None and when is not None else None
            amount_g = part(r.amount, "the amount")
            if amount_g.const and not amount_g.value:
                lines.append("    # (its amount is nothing)")
                continue
            amount = amount_g.src
            src = part(r.src, "the payer").src if r.src is not None else "None"
            dst = part(r.dst, "the payee").src if r.dst is not None else "None"
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
        body.append(f"{pad}amount = {worked_once(amount)}")
        if not amount_g.const:
            body.append(f"{pad}if amount:")
            pad += "    "
        if isinstance(r, settle.OthersRow):   # the payee form "each other player": every other active seat
            fixed, pair = (src, f"(fixed, t, amount, {note})") if r.spread == "to" else (dst, f"(t, fixed, amount, {note})")
            body += [f"{pad}fixed = {fixed}",
                     f"{pad}out.extend({pair} for t in (st.active if fixed is not None else ()) if t != fixed)"]
        else:
            body += [f"{pad}out.append(({src}, {dst}, amount, {note}))"]
        if r.each is not None and bind:
            body.append("    env.pop('s', None)")
        if guard is not None:
            body = [f"    if {guard}:"] + ["    " + x for x in body]
        lines += body
    lines.append("    return out")
    return "\n".join(lines)
