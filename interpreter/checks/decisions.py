"""Pass: decisions (`choice NAME { who options when }`) and the procedure that runs them.

- E204: a procedure entry that is neither a phase nor a declared choice (the schema lets names through so
  that a choice can stand there), with the nearest phase or choice suggested.
- E307: a choice that the procedure never runs.
- E325: a choice named like a phase; a choice with fewer than two options or an option twice;
  `chose(NAME) == word` (or `!=`, `in [...]`) with a word that is not an option of that choice, which
  could never hold.
"""
from __future__ import annotations

from interpreter.checks.attributes import _lets, _walk
from interpreter.checks.context import Context
from interpreter.checks.expressions import _narrow, environment
from interpreter.diagnostics import Diagnostic, best_matches
from interpreter.language.document import escape
from interpreter.model.family import choice_options
from interpreter.model.vocabulary import PHASES


def _procedure(ctx: Context, options: dict[str, list[str]]) -> set[str]:
    procedure = ctx.doc.get("procedure")
    run: set[str] = set()
    if not isinstance(procedure, list):
        return run
    for i, entry in enumerate(procedure):
        if not isinstance(entry, str) or entry in PHASES:
            continue
        ptr = f"/procedure/{i}"
        if entry in options:
            run.add(entry)
            continue
        pool = list(PHASES) + list(options)
        extra = f"; or a declared choice: {', '.join(options)}" if options else "; or the name of a declared `choice`"
        ctx.error("E204", f"procedure[{i}] cannot be '{entry}'", ptr, suggestions=best_matches(entry, pool),
                  help="one of: " + ", ".join(PHASES) + extra)
    return run


def _declarations(ctx: Context, options: dict[str, list[str]], run: set[str]) -> None:
    for name, opts in options.items():
        base = "/choice/" + escape(name)
        if name in PHASES:
            ctx.error("E325", f"choice '{name}' has the name of the phase '{name}'", base, key=True,
                      help=f"name the decision for what it decides, e.g. '{name}_choice'; in `procedure` the name "
                           "must say which of the two runs")
        elif name not in run and isinstance(ctx.doc.get("procedure"), list):
            ctx.error("E307", f"choice '{name}' is declared but the procedure never runs it", base, key=True,
                      help="add its name to `procedure` where the decision is taken, or remove it")
        if len(opts) < 2:
            ctx.error("E325", f"choice '{name}' offers {len(opts)} option{'s' if len(opts) != 1 else ''}: nothing to "
                      "decide", base + "/options", help="give at least two options, the words the seat says")
        seen: set[str] = set()
        for i, o in enumerate(opts):
            if o in seen:
                ctx.error("E325", f"option '{o}' is offered twice by choice '{name}'", f"{base}/options/{i}",
                          help="write each option once")
            seen.add(o)


def _chosen(node) -> str | None:
    """The choice a `chose(NAME)` node reads, or None."""
    if node[0] == "call" and node[1] == "chose" and len(node[2]) == 1 and node[2][0][0] == "name":
        return node[2][0][1]
    return None


def _words(node) -> list[tuple]:
    """The name nodes a comparison side stands for: a name, or the names of a list literal."""
    if node[0] == "name":
        return [node]
    if node[0] == "list":
        return [x for x in node[1] if x[0] == "name"]
    return []


def _comparisons(ctx: Context, options: dict[str, list[str]]) -> None:
    known = environment(ctx)            # an unknown word is E401 already (checks/expressions)
    roots = list(getattr(ctx, "expressions", {}).items()) + [(ptr, node) for ptr, node, _ in _lets(ctx)]
    for ptr, root in roots:
        for node, _bound in _walk(root):
            if node[0] != "bin" or node[1] not in ("==", "!=", "in", "not in"):
                continue
            a, b = node[2], node[3]
            for side, other in ((a, b), (b, a)):
                name = _chosen(side)
                if name not in options or (node[1] in ("in", "not in") and side is not a):
                    continue
                for word in _words(other):
                    if word[1] not in options[name] and word[1] in known:
                        _report(ctx, ptr, root, word, f"'{word[1]}' is not an option of choice '{name}', so "
                                f"`chose({name})` is never '{word[1]}'", options[name])


def _report(ctx: Context, ptr: str, root, node, message: str, pool: list[str]) -> None:
    file, span = ctx.where(ptr)
    span = _narrow(ctx.sources.get(file), span, root, node) or span
    ctx.diagnostics.append(Diagnostic("E325", message, file, span, suggestions=best_matches(node[1], pool),
                                      help="its options: " + ", ".join(dict.fromkeys(pool))))


def check(ctx: Context) -> None:
    options = choice_options(ctx.doc)
    run = _procedure(ctx, options)
    _declarations(ctx, options, run)
    _comparisons(ctx, options)
