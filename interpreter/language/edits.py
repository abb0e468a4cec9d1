"""How a layer changes the document it extends: a deep merge of its sections over the base's, `remove`
of a section or field, and edits of inherited lists by their entries: `remove a.b[k]`, `insert v into
a.b after k`, `replace a.b[k] v` and `a.b[k].c = v`.

An entry is found by its key: an entry that is a name or number is its own key; a row (a map) is
keyed by its `name`, else its `rule` (obligations), else its `title` (score-sheet columns).

Entries move when a list is edited, so the source positions of the list are moved with them:
every edit writes an overlay source map in which each entry's pointer leads to where that entry
was written, in whichever file.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import NoReturn

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span, best_matches
from interpreter.language.document import SourceMap, escape, unquote

_PATH = re.compile(r'^(\w+(?:\.\w+)*)(?:\[(\w+|"(?:[^"\\]|\\.)*")\]((?:\.\w+)*))?$')
KEY_FIELDS = ("name", "rule", "title")


@dataclass
class EditPath:
    """`a.b[k].c` as (['a', 'b'], 'k', ['c']); `a.b` as (['a', 'b'], None, [])."""
    parts: list[str]
    key: str | None = None
    rest: list[str] = field(default_factory=list)

    @property
    def list_ptr(self) -> str:
        return "".join("/" + escape(p) for p in self.parts)


def parse_path(text: str) -> EditPath | None:
    m = _PATH.match(text)
    if not m:
        return None
    key = m.group(2)
    if key is not None and key.startswith('"'):
        key = unquote(key)
    rest = [p for p in (m.group(3) or "").split(".") if p]
    return EditPath(m.group(1).split("."), key, rest)


def entry_key(entry) -> str | None:
    """The key an entry is found by, or None if it has none."""
    if isinstance(entry, bool) or entry is None:
        return None
    if isinstance(entry, (str, int)):
        return str(entry)
    if isinstance(entry, dict):
        for k in KEY_FIELDS:
            if isinstance(entry.get(k), (str, int)) and not isinstance(entry.get(k), bool):
                return str(entry[k])
    return None


def keys_of(items: list) -> list[str]:
    return [k for k in (entry_key(e) for e in items) if k is not None]


class Spans:
    """The source maps of the layers merged so far (earliest first) and the overlays edits add."""

    def __init__(self, smaps: list[SourceMap]):
        self.smaps = smaps

    def _entries(self, ptr: str) -> dict[tuple[str, str], tuple[str, Span]]:
        """Every recorded span under `ptr` as {(table, suffix): (file, span)}; later maps win."""
        out: dict[tuple[str, str], tuple[str, Span]] = {}
        prefix = ptr + "/"
        for sm in self.smaps:
            for table in ("keys", "values"):
                for p, span in getattr(sm, table).items():
                    if p == ptr:
                        out[(table, "")] = (sm.file, span)
                    elif p.startswith(prefix):
                        out[(table, p[len(prefix) - 1:])] = (sm.file, span)
        return out

    def snapshot(self, list_ptr: str, length: int) -> list[dict]:
        return [self._entries(f"{list_ptr}/{i}") for i in range(length)]

    def new_entry(self, smap: SourceMap, ptr: str) -> dict:
        keep = self.smaps
        self.smaps = [smap]
        try:
            return self._entries(ptr)
        finally:
            self.smaps = keep

    def write(self, list_ptr: str, origins: list[dict]) -> None:
        """Record the list's entries (each given by where it was written) in fresh overlays."""
        overlays: dict[str, SourceMap] = {}
        for j, entry in enumerate(origins):
            for (table, suffix), (file, span) in entry.items():
                sm = overlays.setdefault(file, SourceMap(file))
                getattr(sm, table)[f"{list_ptr}/{j}{suffix}"] = span
        self.smaps.extend(overlays.values())


def _fail(code: str, message: str, file: str, span: Span | None, help: str | None = None, suggestions=()) -> NoReturn:
    raise DiagnosticError([Diagnostic(code, message, file, span, help=help, suggestions=list(suggestions))])


def _find_list(doc: dict, path: EditPath, what: str, file: str, span: Span | None) -> list:
    node = doc
    for i, part in enumerate(path.parts):
        if not isinstance(node, dict) or part not in node:
            options = sorted(map(str, node)) if isinstance(node, dict) else []
            where = "'" + ".".join(path.parts[:i]) + "'" if i else "the base"
            _fail("E134", f"cannot {what} '{'.'.join(path.parts)}': {where} has no '{part}'", file, span,
                  help=f"{where} has: {', '.join(options[:12])}" if options else f"{where} is not a section",
                  suggestions=best_matches(part, options))
        node = node[part]
    if not isinstance(node, list):
        _fail("E134", f"cannot {what} '{'.'.join(path.parts)}': it is not a list", file, span,
              help="entries can be inserted, replaced and removed only in lists; set a map's keys directly")
    return node


def _index(items: list, key: str, path: EditPath, file: str, span: Span | None) -> int:
    for i, e in enumerate(items):
        if entry_key(e) == key:
            return i
    keys = keys_of(items)
    shown = ", ".join(keys[:16]) + (" …" if len(keys) > 16 else "")
    _fail("E135", f"'{'.'.join(path.parts)}' has no entry '{key}'", file, span,
          help=(f"its entries: {shown}" if keys else "its entries have no names; give rows a `name` column to edit them one by one"),
          suggestions=best_matches(key, keys))


def remove_entry(doc: dict, text: str, file: str, span: Span | None, spans: Spans) -> None:
    path = parse_path(text)
    if path is None or path.key is None:     # a hand-written YAML or JSON `remove` the grammar did not shape
        _fail("E134", f"cannot remove '{text}': it is not a path to a list entry", file, span,
              help="write a dotted path, with the entry's name in brackets for one entry: settle.pay[name]")
    items = _find_list(doc, path, "remove from", file, span)
    i = _index(items, path.key, path, file, span)
    before = spans.snapshot(path.list_ptr, len(items))
    if path.rest:
        _set_in_entry(items, i, path, None, file, span, delete=True)
        return
    del items[i]
    spans.write(path.list_ptr, before[:i] + before[i + 1:])


def _set_in_entry(items: list, i: int, path: EditPath, value, file: str, span: Span | None, delete: bool = False) -> None:
    node = items[i]
    for part in path.rest[:-1]:
        if not isinstance(node, dict):
            break
        node = node.setdefault(part, {})
    last = path.rest[-1]
    if not isinstance(node, dict):
        _fail("E134", f"the entry '{path.key}' of '{'.'.join(path.parts)}' has no fields", file, span,
              help="only rows (maps) have fields; replace the entry instead")
    if delete:
        if last not in node:
            _fail("E132", f"cannot remove '{last}': the entry '{path.key}' has no such field", file, span,
                  suggestions=best_matches(last, list(map(str, node))))
        del node[last]
    else:
        node[last] = value


def apply_edit(doc: dict, edit: dict, index: int, smap: SourceMap, spans: Spans) -> None:
    """One `insert`/`replace`/`set` edit of the layer whose source map is `smap`."""
    file = smap.file
    here = f"/edit/{index}"
    if "each" in edit:
        _each(doc, edit, here, smap, spans)
        return
    op = next((k for k in ("insert", "replace", "set") if k in edit), None)
    if op is None or not isinstance(edit.get(op), str):
        return  # the schema reports it
    span = smap.find(here + "/" + op)
    path = parse_path(edit[op])
    if path is None:
        _fail("E134", f"'{edit[op]}' is not a path to a list or a list entry", file, span,
              help="write a dotted path such as settle.pay, or settle.pay[name] for one entry")
    if op != "insert" and path.key is None:
        _fail("E134", f"'{edit[op]}' names no entry", file, span,
              help=f"name the entry in brackets, e.g. {edit[op]}[its_name]")
    value = copy.deepcopy(edit.get("value"))
    if op == "insert":
        items = _find_list(doc, path if path.key is None else EditPath(path.parts), "insert into", file, span)
        if path.key is not None:
            _fail("E134", "insert names a list, not an entry", file, span,
                  help=f"write: insert … into {'.'.join(path.parts)} after {path.key}")
        new = value if isinstance(value, list) else [value]
        anchor = edit.get("after", edit.get("before"))
        at = len(items)
        if anchor is not None:
            at = _index(items, str(anchor), path, file, smap.find(here + ("/after" if "after" in edit else "/before")) or span)
            at += 1 if "after" in edit else 0
        for m, entry in enumerate(new):
            k = entry_key(entry)
            if k is not None and k in keys_of(items):
                where = smap.find(here + "/value" + (f"/{m}" if isinstance(value, list) else "")) or span
                _fail("E136", f"'{'.'.join(path.parts)}' already has an entry '{k}'", file, where,
                      help=f"use `replace {'.'.join(path.parts)}[{k}] …` to change it, or give the new entry another name")
        before = spans.snapshot(path.list_ptr, len(items))
        items[at:at] = list(new)
        fresh = [spans.new_entry(smap, here + "/value" + (f"/{m}" if isinstance(value, list) else ""))
                 for m in range(len(new))]
        spans.write(path.list_ptr, before[:at] + fresh + before[at:])
        return
    items = _find_list(doc, path, "edit", file, span)
    i = _index(items, str(path.key), path, file, span)
    if op == "set":
        _set_in_entry(items, i, path, value, file, span)
        overlay = SourceMap(file)
        field_ptr = f"{path.list_ptr}/{i}" + "".join("/" + escape(p) for p in path.rest)
        for table in ("keys", "values"):
            found = smap.find(here + "/value") or span
            if found is not None:
                getattr(overlay, table)[field_ptr] = found
        spans.smaps.append(overlay)
        return
    before = spans.snapshot(path.list_ptr, len(items))
    items[i] = value
    spans.write(path.list_ptr, before[:i] + [spans.new_entry(smap, here + "/value")] + before[i + 1:])


def _each(doc: dict, edit: dict, here: str, smap: SourceMap, spans: Spans) -> None:
    """`kind [field = value] { … }`: merge the block into every item of the collection whose field
    has that value, as if it were written for each of them."""
    file, span = smap.file, smap.find(here + "/each")
    where = edit.get("where")
    kind = edit.get("each")
    if not isinstance(where, dict) or len(where) != 1 or not isinstance(kind, str) or not isinstance(edit.get("value"), dict):
        _fail("E134", "`each` needs a collection, one `field = value` and a block", file, span)
    (field_name, wanted), = where.items()
    path = EditPath(kind.split("."))
    node: object = doc
    for part in path.parts:
        node = node.get(part) if isinstance(node, dict) else None
    if not isinstance(node, dict):
        _fail("E134", f"'{kind}' is not a collection of named items", file, span,
              help="write e.g. contract [category = c] { … }")
    matched = [name for name, item in node.items() if isinstance(item, dict) and item.get(field_name) == wanted]
    if not matched:
        values = sorted({str(item.get(field_name)) for item in node.values() if isinstance(item, dict) and field_name in item})
        _fail("E135", f"no {kind} has {field_name} = {wanted}", file, smap.find(here + "/where") or span,
              help=f"{field_name} is one of: {', '.join(values)}" if values else f"no {kind} has a {field_name}",
              suggestions=best_matches(str(wanted), values))
    overlay = SourceMap(file)
    for name in matched:
        node[name] = merge(node[name], copy.deepcopy(edit["value"]))
        base = f"{path.list_ptr}/{escape(name)}"
        for table in ("keys", "values"):
            for p, sp in getattr(smap, table).items():
                if p.startswith(here + "/value/"):
                    getattr(overlay, table)[base + p[len(here) + len("/value"):]] = sp
    spans.smaps.append(overlay)


# ---- a layer over its base: `remove` and the deep merge --------------------------------------------------

def remove_path(doc: dict, path: str, index: int, file: str, smap: SourceMap, spans: Spans) -> None:
    """The `index`th `remove PATH` of a layer written in `file` (its source map `smap`): an entry of a
    list (remove_entry), or a section or field of the base."""
    if "[" in path:
        remove_entry(doc, path, file, smap.find(f"/remove/{index}"), spans)
        return
    parts = path.split(".")
    node = doc
    for i, part in enumerate(parts):
        if not isinstance(node, dict) or part not in node:
            options = sorted(map(str, node)) if isinstance(node, dict) else []
            ptr = f"/remove/{index}"
            where = f"'{'.'.join(parts[:i])}'" if i else "the base"
            listed = ", ".join(options[:12]) + (f" and {len(options) - 12} more" if len(options) > 12 else "")
            raise DiagnosticError([Diagnostic(
                "E132", f"cannot remove '{path}': the base has no '{'.'.join(parts[: i + 1])}'",
                file, smap.find(ptr), suggestions=best_matches(part, options),
                help=f"{where} has: {listed}" if options else f"{where} is not a section")])
        if i == len(parts) - 1:
            del node[part]
        else:
            node = node[part]


def merge(base, over):
    """Deep merge: mappings merge key by key, anything else is replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base[k], v) if k in base else _copy(v)
        return out
    return _copy(over)


def _copy(value):
    """A deep copy of a document's value: its sections and lists are new, its atoms shared (a
    document holds only dicts, lists and atoms, so this is copy.deepcopy without its memo)."""
    t = type(value)
    if t is dict:
        return {k: _copy(v) for k, v in value.items()}
    if t is list:
        return [_copy(v) for v in value]
    return copy.deepcopy(value) if t not in _ATOMS else value


_ATOMS = frozenset({str, int, float, bool, type(None)})
