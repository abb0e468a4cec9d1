"""Pass (runs last): diagnostics a variant causes point at the variant, and leftovers are warned of.

- When a `remove` in a variant takes away something its base still refers to, the reference is
  reported at the variant's `remove` line; the base's line becomes a note, and the help says what
  else to remove or replace (`remove call.x.contracts[y]` for an entry of a list).
- A section that nothing uses any more (a sealed-bid contest without a call in it, a talon
  procedure or a category no call or contract names, a figure no contract allows) is a warning
  (W332): usually the leftover of a removal.
"""
from __future__ import annotations

import re

from interpreter.checks.context import Context
from interpreter.checks.family_names import given_names
from interpreter.diagnostics import Diagnostic, DiagnosticError
from interpreter.language.document import escape, unescape
from interpreter.language.edits import entry_key
from interpreter.language.expressions import children, names_in, parse_text
from interpreter.model.family import ladders

_QUOTED = re.compile(r"'([^']+)'")
_RELOCATE = {"E301", "E401"}


def _pointer_at(ctx: Context, file: str, span) -> str | None:
    """The longest document pointer written exactly at `span` of `file`, else the one written in the
    smallest stretch of text that holds `span` (an expression's part points into its field)."""
    best, inside, size = None, None, None
    for smap in getattr(ctx.origins, "layers", []):
        if smap.file != file:
            continue
        for table in (smap.values, smap.keys):
            for ptr, s in table.items():
                if s is None:
                    continue
                if s == span and (best is None or len(ptr) > len(best)):
                    best = ptr
                if (s.line, s.col) <= (span.line, span.col) and (s.end_line, s.end_col) >= (span.end_line, span.end_col):
                    extent = ((s.end_line - s.line) * 10000 + s.end_col - s.col, -len(ptr))
                    if size is None or extent < size:
                        inside, size = ptr, extent
    return best or inside


def _at(doc, ptr: str):
    node = doc
    for part in (unescape(p) for p in ptr.split("/")[1:]):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _let_cause(ctx: Context, d: Diagnostic, files: list[str]):
    """A type or arity error in a base's expression that uses a `let` a later file redefines: (file,
    span, name) of that redefinition."""
    if d.code not in ("E402", "E403") or d.file not in files or d.span is None:
        return None
    ptr = _pointer_at(ctx, d.file, d.span)
    value = _at(ctx.doc, ptr) if ptr else None
    if isinstance(value, dict):
        value = value.get("body")
    if not isinstance(value, str):
        return None
    try:
        node = parse_text(value)
    except DiagnosticError:
        return None
    used = names_in(node) | {n[1] for n in _nodes(node) if n[0] == "call"}
    for name in sorted(used):
        if name in ctx.lets:
            file, span = ctx.origins.find(f"/let/{escape(name)}", prefer_key=True)
            if file in files and files.index(file) > files.index(d.file):
                return file, span, name
    return None


def _nodes(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(children(n))


def _dotted(ctx: Context, ptr: str, name: str) -> tuple[str, str]:
    """(where the reference stands, what to write) for a pointer into the merged document."""
    parts = [unescape(p) for p in ptr.split("/")[1:]]
    node = ctx.doc
    path: list[str] = []
    for i, part in enumerate(parts):
        if isinstance(node, list):
            entry = node[int(part)] if part.isdigit() and int(part) < len(node) else None
            key = entry_key(entry)
            list_path = ".".join(path)
            if i == len(parts) - 1 and key is not None:
                if len(node) == 1 and len(path) > 2:        # the list's only entry: its owner goes too
                    return list_path, f"remove {'.'.join(path[:-1])}"
                return list_path, f"remove {list_path}[{key}]"
            if key is not None:
                path[-1] = f"{path[-1]}[{key}]"
                node = entry
                continue
            return list_path, f"write `{list_path}` again without '{name}'"
        if not isinstance(node, dict) or part not in node:
            break
        path.append(part)
        node = node[part]
    dotted = ".".join(path)
    return dotted, f"replace `{dotted}` so that it no longer names '{name}'"


def _relocate(ctx: Context) -> None:
    files = list(getattr(ctx.origins, "files", []))
    removed = list(getattr(ctx.origins, "removed", []))
    if len(files) < 2:
        return
    out = []
    for d in ctx.diagnostics:
        let = _let_cause(ctx, d, files)
        if let is not None:
            file, span, name = let
            out.append(Diagnostic(
                d.code, f"the redefined 'let {name}' breaks the base: {d.message}", file, span,
                notes=[f"{d.location()}: the base uses '{name}' here"] + list(d.notes), severity=d.severity,
                help=f"give '{name}' the kind of value (and parameters) the base's rules expect, "
                     "or also replace the base's rule that uses it"))
            continue
        m = _QUOTED.search(d.message)
        cause = None
        if d.code in _RELOCATE and m and d.file in files:
            name = m.group(1)
            for file, span, path in removed:
                if path.split(".")[-1] == name and file in files and files.index(file) > files.index(d.file):
                    cause = (file, span, path)
        if cause is None:
            out.append(d)
            continue
        file, span, path = cause
        name = m.group(1) if m else ""
        ptr = _pointer_at(ctx, d.file, d.span) if d.span is not None else None
        where, fix = _dotted(ctx, ptr, name) if ptr else ("", "")
        base_at = d.location()
        # the base's message may call the name something else it still is ("'x' is a call, not a
        # contract"); what the author needs to hear is which of the base's fields still names it
        what = f"{where} still names '{name}'" if where else d.message
        out.append(Diagnostic(
            d.code, f"'remove {path}' breaks the base: {what}", file, span,
            help=(f"also {fix}" if fix else "also remove or replace what names it in the base")
            + f", or keep '{name}'",
            notes=[f"{base_at}: the base names '{name}' here"] + list(d.notes), severity=d.severity))
    ctx.diagnostics[:] = out


def _leftover(ctx: Context, ptr: str, message: str, path: str, help: str, users: tuple[str, ...]) -> None:
    """W332 for a section nothing uses. If it was left over by a variant's removal, point at that."""
    file, span = ctx.where(ptr, True)
    files = list(getattr(ctx.origins, "files", []))
    causes = [(f, sp, p) for f, sp, p in getattr(ctx.origins, "removed", [])
              if p.split(".")[0] in users and f in files and file in files and files.index(f) > files.index(file)]
    if causes:
        f, sp, p = causes[-1]
        ctx.diagnostics.append(Diagnostic(
            "W332", f"after 'remove {p}', {path} is left over: {message}", f, sp, severity="warning",
            notes=[f"{file}:{span.line}:{span.col}: {path} is written here" if span else f"{file}: {path} is written here"],
            help=f"also remove {path}" + (f", or {help}" if help else "")))
        return
    ctx.diagnostics.append(Diagnostic("W332", f"{path} is left over: {message}", file, span, severity="warning",
                                      help=f"remove {path}" + (f", or {help}" if help else "")))


def _leftovers(ctx: Context) -> None:
    doc = ctx.doc
    calls = [c for c in ctx.calls.values() if isinstance(c, dict)]
    contracts = [c for c in ctx.contracts.values() if isinstance(c, dict)]
    auction: dict = doc["auction"] if isinstance(doc.get("auction"), dict) else {}
    if "contest" in auction and not any(c.get("contest") for c in calls):
        _leftover(ctx, "/auction/contest", "no call takes part in a sealed contest any more", "auction.contest",
                  "give a call `contest = …`", ("call",))
    used_talons = {n for c in calls + contracts + list(ladders(doc).values()) for n in given_names(c.get("talon"))}
    for name in ctx.talons:
        if name not in used_talons:
            _leftover(ctx, f"/talon/{escape(name)}", "no call or contract uses it any more", f"talon.{name}",
                      "name it in a call's or contract's `talon`", ("call", "contract"))
    used_categories = {c.get("category") for c in calls + contracts}
    for name in doc.get("category", {}) if isinstance(doc.get("category"), dict) else {}:
        if name not in used_categories:
            _leftover(ctx, f"/category/{escape(name)}", "no call or contract belongs to it any more",
                      f"category.{name}", "", ("call", "contract"))
    allowed = {f for c in contracts if isinstance(c.get("figures"), list) for f in c["figures"]}
    for name in ctx.figures:
        if name not in allowed:
            _leftover(ctx, f"/figure/{escape(name)}", "no contract allows it any more", f"figure.{name}",
                      "list it in a contract's `figures`", ("contract",))


def _dedupe(ctx: Context) -> None:
    """One statement written for several items (`contract [a, b] { … }`) is reported once."""
    seen, out = set(), []
    for d in ctx.diagnostics:
        key = (d.code, d.message, d.file, d.span)
        if key not in seen:
            seen.add(key)
            out.append(d)
    ctx.diagnostics[:] = out


def check(ctx: Context) -> None:
    _leftovers(ctx)
    _relocate(ctx)
    _dedupe(ctx)
