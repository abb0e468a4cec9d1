"""The semantic diagnostics of a document the schema rejects, so that one run reports every error.

The semantic passes assume a schema-valid document, so they run on a pruned copy: every node the
schema rejects is taken out (an unknown key from its mapping, a wrong value from its mapping or its
list, a mapping that lacks a required key from its own parent), and the copy is checked again, a few
rounds at most. Only a copy the schema accepts is checked further; else no semantic diagnostic is
given. The source maps are renumbered with the copy (an item after a removed one moves up), so every
diagnostic keeps its place in the text.

What the passes then report may be an artefact of the pruning, not an error of the file: a
reference to something whose definition was taken out, a total that lacks a removed part, a
section that lacks a removed key. Hence:

- a node is taken out only from a named item of a collection (`contract x`, `call y`, `let z`);
  when one lies elsewhere, in a section the whole game rests on (the deck, the deal, the seating,
  the procedure), no semantic diagnostic is given;
- a semantic diagnostic is left out when it lies in an item that lost a node (written anywhere in
  the `extends` chain), when it quotes or points at a name written in a removed node or naming its
  item, when it speaks of the document as a whole (a thing nothing uses, a contract no call leads
  to), or when it has no place in the text.

What is left concerns parts of the file the pruning did not touch.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from interpreter import checks
from interpreter.checks import schema
from interpreter.diagnostics import Diagnostic, Span
from interpreter.language.document import SourceMap, escape, unescape
from interpreter.language.loader import Origins
from interpreter.resources import schema as schema_document

MAX_ROUNDS = 8
_QUOTED = re.compile(r"'([^']+)'")
_WORD = re.compile(r"\w+")
# what is said of the document as a whole (a thing nothing uses, a contract no call leads to, a
# phase the procedure lacks): any part taken out may be what used it
_WHOLE = frozenset({"E304", "E306", "E307", "E311", "W331", "W332", "W333", "W334"})

Path = tuple  # a path into the document: keys (str) and list indices (int)


def semantic_diagnostics(doc: dict, origins, sources: dict[str, str], shown: Iterable[Diagnostic] = ()) -> list[Diagnostic]:
    """The semantic diagnostics of `doc`, which the schema rejects, that do not come from the pruning,
    leaving out any already in `shown` (the schema's)."""
    regions: list[tuple[str, Span]] = []
    words: set[str] = set()
    for _ in range(MAX_ROUNDS):
        paths = invalid_paths(doc)
        if paths is None:
            return []
        if not paths:
            break
        paths = _outermost(paths)
        units = {_unit(path) for path in paths}
        if any(len(unit) < 2 for unit in units):  # a section the whole game rests on (the deck, …)
            return []
        for path in paths:
            words |= _words_of([_at(doc, path), *map(str, path[1:])])   # the section's own keyword says nothing
        regions += _regions(origins, {_pointer(unit) for unit in units})
        origins = _renumbered(origins, doc, set(paths))
        doc = _pruned(doc, paths)
    else:
        return []
    seen = {_key(d) for d in shown}
    out = []
    for d in checks.run(doc, origins, sources).diagnostics:
        if _key(d) in seen or _artefact(d, regions, words, sources):
            continue
        seen.add(_key(d))
        out.append(d)
    return out


def invalid_paths(doc: dict) -> list[Path] | None:
    """The nodes of `doc` the schema rejects, as paths; None if the document as a whole is at fault."""
    out: list[Path] = []
    for err in schema.validator().iter_errors(doc):
        path = tuple(err.absolute_path)
        sub = err.schema if isinstance(err.schema, dict) else {}
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            known = sub.get("properties", {})
            out += [path + (k,) for k in err.instance if k not in known]
        elif "propertyNames" in err.schema_path and isinstance(err.instance, str):
            out.append(path + (err.instance,))
        elif path:
            out.append(path)
        else:
            return None
    return out


def _key(d: Diagnostic):
    return (d.code, d.message, d.file, d.span)


def _artefact(d: Diagnostic, regions: list[tuple[str, Span]], words: set[str], sources: dict[str, str]) -> bool:
    if d.span is None or d.code in _WHOLE:
        return True
    if any(file == d.file and _inside(d.span, span) for file, span in regions):
        return True
    said = _QUOTED.findall(d.message) + [_text_at(sources.get(d.file), d.span)]
    return any(w in words for q in said for w in [q, *_WORD.findall(q)])


def _text_at(text: str | None, span: Span) -> str:
    """The text of a file within `span` (what a diagnostic points at: an expression's part names the
    names it uses)."""
    lines = (text or "").splitlines()[span.line - 1: span.end_line]
    if not lines:
        return ""
    if len(lines) == 1:
        return lines[0][span.col - 1: span.end_col - 1]
    return "\n".join([lines[0][span.col - 1:], *lines[1:-1], lines[-1][: span.end_col - 1]])


def _inside(inner: Span, outer: Span) -> bool:
    return ((outer.line, outer.col) <= (inner.line, inner.col)
            and (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col))


def _outermost(paths: list[Path]) -> list[Path]:
    """Each path once, leaving out those inside another."""
    kept: set[Path] = set()
    for p in sorted(set(paths), key=len):
        if not any(p[:i] in kept for i in range(1, len(p))):
            kept.add(p)
    return [p for p in dict.fromkeys(paths) if p in kept]


def _unit(path: Path) -> Path:
    """The top-level section that holds `path`, or the named item of a collection (`contract x`)."""
    top = schema_document().get("properties", {}).get(path[0])
    if isinstance(top, dict) and "$ref" in top:
        top = schema_document().get("$defs", {}).get(top["$ref"].rsplit("/", 1)[-1])
    named = (isinstance(top, dict) and isinstance(top.get("additionalProperties"), dict)
             and len(path) > 1 and path[1] not in top.get("properties", {}))
    return path[:2] if named else path[:1]


def _pointer(path: Path) -> str:
    return "".join("/" + escape(str(p)) for p in path)


def _at(doc, path: Path):
    node = doc
    for p in path:
        node = node[p]
    return node


def _words_of(node) -> set[str]:
    """The names written in a node: its keys and the words of its text."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            for k, v in n.items():
                out.add(str(k))
                out.update(_WORD.findall(str(k)))
                stack.append(v)
        elif isinstance(n, list):
            stack.extend(n)
        elif isinstance(n, str):
            out.add(n)
            out.update(_WORD.findall(n))
    return out


def _regions(origins, ptrs: set[str]) -> list[tuple[str, Span]]:
    """Where the nodes at `ptrs` and everything in them are written, in every file of the chain (a
    stretch of text within another is left out)."""
    spans: list[tuple[str, Span]] = []
    for smap in getattr(origins, "layers", []):
        for table in (smap.values, smap.keys):
            for p, span in table.items():
                parts = p.split("/")
                if span is not None and any("/".join(parts[:i]) in ptrs for i in range(2, len(parts) + 1)):
                    spans.append((smap.file, span))
    spans.sort(key=lambda r: (r[0], r[1].line, r[1].col, -r[1].end_line, -r[1].end_col))
    out: list[tuple[str, Span]] = []
    for file, span in spans:
        if not (out and out[-1][0] == file and _inside(span, out[-1][1])):
            out.append((file, span))
    return out


def _pruned(doc: dict, paths: list[Path]) -> dict:
    """A copy of `doc` without the nodes at `paths` (none inside another): the deepest first and, in
    one list, the last first, so that no removal moves a node still to be removed."""
    out = _copy(doc)
    for path in sorted(paths, key=lambda p: (-len(p), -p[-1] if isinstance(p[-1], int) else 0)):
        parent = _at(out, path[:-1])
        del parent[path[-1]]
    return out


def _copy(node):
    if isinstance(node, dict):
        return {k: _copy(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_copy(v) for v in node]
    return node


def _renumbered(origins, doc: dict, removed: set[Path]):
    """`origins` for `doc` without the nodes at `removed`: their pointers dropped, and a list item's
    index lowered by the items removed before it."""
    gone: dict[Path, list[int]] = {}
    for path in removed:
        if isinstance(path[-1], int):
            gone.setdefault(path[:-1], []).append(path[-1])
    layers = []
    for smap in getattr(origins, "layers", []):
        fresh = SourceMap(smap.file)
        for source, target in ((smap.values, fresh.values), (smap.keys, fresh.keys)):
            for ptr, span in source.items():
                moved = _moved(ptr, doc, removed, gone)
                if moved is not None:
                    target[moved] = span
        layers.append(fresh)
    return Origins(layers, list(getattr(origins, "files", [])), list(getattr(origins, "removed", [])))


def _moved(ptr: str, doc: dict, removed: set[Path], gone: dict[Path, list[int]]) -> str | None:
    """Where the node at `ptr` is once the nodes at `removed` are gone; None if it is gone too."""
    if not ptr:
        return ptr
    parts = ptr.split("/")[1:]
    node: Any = doc
    prefix: Path = ()
    out = []
    for i, part in enumerate(parts):
        if isinstance(node, list) and part.isdigit():
            index = int(part)
            if prefix + (index,) in removed:
                return None
            out.append(str(index - sum(1 for g in gone.get(prefix, ()) if g < index)))
            node = node[index] if index < len(node) else None
            prefix += (index,)
        elif isinstance(node, dict):
            key = unescape(part)
            if prefix + (key,) in removed:
                return None
            out.append(part)
            node = node.get(key)
            prefix += (key,)
        else:  # written in a layer but not in the merged document: nothing was removed there
            out += parts[i:]
            break
    return "/" + "/".join(out)
