"""Stage 2: Lark parse tree → rules document (plain dict/list/str/int/bool/None) + source map.

The mapping is literal and the same for every game:

    key = value                    doc[key] = value
    key { … }                      doc[key] = {…}
    key name { … }                 doc[key][name] = {…}
    table key { | key | a | b | … }   doc[key][row[0]] = {a: …, b: …}  (a '-' cell is left out)
    key = table { | a | b | … }    doc[key] = [{a: …, b: …}, …]
    let n = e / let f(x) = e       doc["let"][n] = "e" / {"params": ["x"], "body": "e"}
    extends "base"                 doc["extends"] = "base"
    remove a.b / remove [a.b, c.d] doc["remove"] = ["a.b", …]   (a list entry: "procedure[talon]")
    kind [a, b] { … }              doc[kind][a] = {…}, doc[kind][b] = {…}  (the same statements for each)
    a.b.c = v                      doc[a][b][c] = v
    insert v into a.b after k      doc["edit"] += [{"insert": "a.b", "value": v, "after": "k"}]
    replace a.b[k] v               doc["edit"] += [{"replace": "a.b[k]", "value": v}]
    a.b[k].c = v                   doc["edit"] += [{"set": "a.b[k].c", "value": v}]
    kind [f = x] { … }             doc["edit"] += [{"each": "kind", "where": {"f": x}, "value": {…}}]

Compound expressions are stored as canonical text; names and quoted strings both become str.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from fractions import Fraction

from lark import Token, Tree

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span
from interpreter.language import writer
from interpreter.language.expressions import (
    EXPRESSION_RULES,
    MAX_TREE_DEPTH,
    NotAnExpression,
    deepest,
    from_tree,
    quote,
    to_text,
    unquote,
)

_STATEMENT_RULES = {"attribute", "section", "item", "items", "each", "keyed_table", "extends", "remove", "let_value",
                    "let_function", "insert", "replace", "set_path"}
_PLAIN_KEY = re.compile(r"(?!\d+$)\w+|\d+")


def entry_key_text(key: str) -> str:
    """A list entry's key as written inside [ ] in a path: a name or number as it is, else quoted."""
    return key if _PLAIN_KEY.fullmatch(key) else quote(key)


def escape(part: str) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


def unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def pointer(*parts) -> str:
    return "".join("/" + escape(p) for p in parts)


@dataclass
class SourceMap:
    """Where each part of a document was written: JSON pointer → span, for values and for keys."""
    file: str
    values: dict[str, Span | None] = field(default_factory=dict)
    keys: dict[str, Span | None] = field(default_factory=dict)

    def find(self, ptr: str, prefer_key: bool = False) -> Span | None:
        """The span written for `ptr`, or for its nearest recorded ancestor."""
        while True:
            first, second = (self.keys, self.values) if prefer_key else (self.values, self.keys)
            if ptr in first:
                return first[ptr]
            if ptr in second:
                return second[ptr]
            if not ptr:
                return None
            ptr = ptr.rsplit("/", 1)[0]


class _Builder:
    def __init__(self, file: str):
        self.file = file
        self.smap = SourceMap(file)
        self.diagnostics: list[Diagnostic] = []
        self.edits: list[dict] = []

    def error(self, code, message, meta, help=None):
        self.diagnostics.append(Diagnostic(code, message, self.file, Span.of(meta), help=help))

    # ---- statements -------------------------------------------------------------------------
    def statements(self, children, target: dict, ptr: str) -> None:
        for st in children:
            if not isinstance(st, Tree):
                continue
            handler = getattr(self, "st_" + st.data, None)
            if handler is not None:
                handler(st, target, ptr)

    def put(self, target: dict, key: str, value, ptr: str, key_meta, value_meta) -> None:
        here = ptr + "/" + escape(key)
        if key in target:
            old = target[key]
            if isinstance(old, dict) and isinstance(value, dict):
                for k, v in value.items():
                    self.put(old, k, v, here, key_meta, value_meta)
                return
            first = self.smap.keys.get(here)
            where = f"first given on line {first.line}; " if first else ""
            self.error("E120", f"'{key}' is given twice", key_meta,
                       help=where + "each key may be set once in a file; a variant file overrides its base")
            return
        target[key] = value
        self.smap.keys.setdefault(here, Span.of(key_meta))
        if value_meta is not None:
            self.smap.values.setdefault(here, Span.of(value_meta))

    def st_attribute(self, st, target, ptr):
        key_tok, value_tree = st.children
        key = str(key_tok)
        here = ptr + "/" + escape(key)
        value = self.value(value_tree, here)
        self.put(target, key, value, ptr, key_tok, value_tree.meta if isinstance(value_tree, Tree) else value_tree)

    def st_section(self, st, target, ptr):
        key_tok, *body = st.children
        key = str(key_tok)
        here = ptr + "/" + escape(key)
        inner: dict = {}
        self.statements(body, inner, here)
        self.put(target, key, inner, ptr, key_tok, st.meta)

    def st_item(self, st, target, ptr):
        kind_tok, name_tok, *body = st.children
        kind, name = str(kind_tok), str(name_tok)
        coll_ptr = ptr + "/" + escape(kind)
        here = coll_ptr + "/" + escape(name)
        inner: dict = {}
        self.statements(body, inner, here)
        if kind in target and not isinstance(target[kind], dict):
            self.error("E120", f"'{kind}' is given twice", kind_tok)
            return
        collection = target.setdefault(kind, {})
        self.smap.keys.setdefault(coll_ptr, Span.of(kind_tok))
        self.put(collection, name, inner, coll_ptr, name_tok, st.meta)

    def st_items(self, st, target, ptr):
        """`kind [a, b] { … }`: the same statements for several items, as if written for each."""
        kind_tok, *rest = st.children
        names = [t for t in rest if isinstance(t, Token)]
        body = [t for t in rest if isinstance(t, Tree)]
        kind = str(kind_tok)
        coll_ptr = ptr + "/" + escape(kind)
        if kind in target and not isinstance(target[kind], dict):
            self.error("E120", f"'{kind}' is given twice", kind_tok)
            return
        collection = target.setdefault(kind, {})
        self.smap.keys.setdefault(coll_ptr, Span.of(kind_tok))
        for name_tok in names:
            name = unquote(str(name_tok)) if name_tok.type == "STRING" else str(name_tok)
            inner: dict = {}
            self.statements(body, inner, coll_ptr + "/" + escape(name))
            self.put(collection, name, copy.deepcopy(inner), coll_ptr, name_tok, st.meta)

    def nested_edit(self, st, ptr: str) -> bool:
        """List edits stand at the top level or in sections named by names, never inside a value they
        edit in nor inside a list item (their path could not be written: a path is names only)."""
        if ptr.startswith("/edit/"):
            self.error("E137", "a list edit cannot stand inside the value of another edit", st.meta,
                       help="write it as a statement of its own, at the top level or in a section")
            return True
        if all(writer.is_name(unescape(p)) for p in ptr.split("/")[1:]):
            return False
        self.error("E137", "a list edit cannot stand inside a list item or a section not named by a name",
                   st.meta, help="write it as a statement of its own, at the top level or in a section")
        return True

    def st_each(self, st, target, ptr):
        """`kind [field = value] { … }`: the statements for every item whose field has that value,
        applied when the layers are merged (the items may come from a base)."""
        if self.nested_edit(st, ptr):
            return
        *kind_toks, field_tok, value_tree = [c for c in st.children if not (isinstance(c, Tree) and c.data in _STATEMENT_RULES)]
        body = [c for c in st.children if isinstance(c, Tree) and c.data in _STATEMENT_RULES]
        kind_tok = kind_toks[0]
        here = f"/edit/{len(self.edits)}"
        inner: dict = {}
        self.statements([b for b in body if isinstance(b, Tree)], inner, here + "/value")
        prefix = ".".join(unescape(p) for p in ptr.split("/")[1:])
        self.edits.append({"each": (prefix + "." if prefix else "") + ".".join(map(str, kind_toks)),
                           "where": {str(field_tok): self.value(value_tree, here + "/where")}, "value": inner})
        self.smap.keys[here] = Span.of(st.meta)
        self.smap.values[here] = Span.of(st.meta)
        self.smap.keys[here + "/each"] = Span.of(kind_tok)
        self.smap.values[here + "/where"] = Span.of(getattr(value_tree, "meta", value_tree))

    def st_keyed_table(self, st, target, ptr):
        kind_tok, *rows = st.children
        kind = str(kind_tok)
        coll_ptr = ptr + "/" + escape(kind)
        rows = [r for r in rows if isinstance(r, Tree) and r.data == "row"]
        if kind in target and not isinstance(target[kind], dict):
            self.error("E120", f"'{kind}' is given twice", kind_tok)
            return
        collection = target.setdefault(kind, {})
        self.smap.keys.setdefault(coll_ptr, Span.of(kind_tok))
        for name_cell, fields, row in self.table_rows(rows, coll_ptr, keyed=True):
            if name_cell is None:
                continue
            name_value = self.value(name_cell.children[0], coll_ptr) if name_cell.data == "cell" else None
            if not isinstance(name_value, (str, int)) or isinstance(name_value, bool):
                self.error("E122", "the first cell of a row must be the item's name", name_cell.meta,
                           help=f"write one name per row, e.g. | one | … |; the rows of 'table {kind}' are its items")
                continue
            name = str(name_value)
            here = coll_ptr + "/" + escape(name)
            inner = {}
            for key, cell in fields:
                if cell.data == "empty_cell":
                    continue
                cell_ptr = here + "".join("/" + escape(p) for p in key.split("."))
                _set_path(inner, key, self.value(cell.children[0], cell_ptr))
                self.smap.keys.setdefault(cell_ptr, Span.of(cell.meta))
                self.smap.values.setdefault(cell_ptr, Span.of(cell.meta))
            self.put(collection, name, inner, coll_ptr, name_cell.meta, row.meta)

    def table_rows(self, rows, ptr, keyed):
        """Yield (first cell, [(header, cell)…], row) for each data row, checking the widths."""
        if not rows:
            return
        header_row, *data = rows
        headers = []
        for cell in header_row.children:
            val = self.value(cell.children[0], ptr) if cell.data == "cell" else None
            if not isinstance(val, str):
                self.error("E122", "table headers must be names", cell.meta,
                           help="the first row of a table names its columns, e.g. | to | cards |")
                return
            headers.append(val)
        twice = sorted({h for h in headers if headers.count(h) > 1})
        if twice:
            self.error("E120", f"the table header names the column '{twice[0]}' twice", header_row.meta,
                       help="every column needs its own name")
            return
        for row in data:
            cells = list(row.children)
            if len(cells) != len(headers):
                self.error("E121", f"this row has {len(cells)} cells but the header has {len(headers)}",
                           row.meta, help="the columns are " + " | ".join(headers) + "; write '-' for an empty cell")
                continue
            if keyed:
                yield cells[0], list(zip(headers[1:], cells[1:])), row
            else:
                yield None, list(zip(headers, cells)), row

    def st_let_value(self, st, target, ptr):
        name_tok, body = st.children
        coll = target.setdefault("let", {})
        self.smap.keys.setdefault(ptr + "/let", Span.of(name_tok))
        self.put(coll, str(name_tok), self.expr_text(body), ptr + "/let", name_tok, body.meta if isinstance(body, Tree) else body)

    def st_let_function(self, st, target, ptr):
        name_tok, *params, body = st.children
        coll = target.setdefault("let", {})
        value = {"params": [str(p) for p in params], "body": self.expr_text(body)}
        self.smap.keys.setdefault(ptr + "/let", Span.of(name_tok))
        self.put(coll, str(name_tok), value, ptr + "/let", name_tok, body.meta if isinstance(body, Tree) else body)

    def st_extends(self, st, target, ptr):
        tok = st.children[0]
        self.put(target, "extends", unquote(str(tok)), ptr, tok, tok)

    def st_remove(self, st, target, ptr):
        lst = target.setdefault("remove", [])
        self.smap.keys.setdefault(ptr + "/remove", Span.of(st.meta))
        for path_tree in st.children:
            if not isinstance(path_tree, Tree):
                continue
            here = ptr + "/remove/" + str(len(lst))
            lst.append(self.path_text(path_tree, ""))   # as written: a remove inside a section stays there
            self.smap.values[here] = Span.of(path_tree.meta)

    # ---- list edits -------------------------------------------------------------------------
    def path_text(self, tree, ptr) -> str:
        """A `path`/`entry_path` tree as text (`settle.pay[premium].amount`), relative to the section
        it is written in."""
        parts = []
        for child in tree.children:
            if isinstance(child, Tree) and child.data == "selector":
                tok = child.children[0]
                key = unquote(str(tok)) if getattr(tok, "type", "") == "STRING" else str(tok)
                parts.append("[" + entry_key_text(key) + "]")
            else:
                parts.append(("." if parts else "") + str(child))
        prefix = ".".join(unescape(p) for p in ptr.split("/")[1:])
        return (prefix + "." if prefix else "") + "".join(parts)

    def add_edit(self, st, op: str, path_tree, value_tree, ptr: str, extra: dict | None = None) -> None:
        if self.nested_edit(st, ptr):
            return
        here = f"/edit/{len(self.edits)}"
        edit = {op: self.path_text(path_tree, ptr), "value": self.value(value_tree, here + "/value")}
        edit.update(extra or {})
        self.edits.append(edit)
        self.smap.keys[here] = Span.of(st.meta)
        self.smap.values[here] = Span.of(st.meta)
        self.smap.keys[here + "/" + op] = Span.of(path_tree.meta)
        self.smap.values[here + "/" + op] = Span.of(path_tree.meta)
        if isinstance(value_tree, Tree):
            self.smap.values.setdefault(here + "/value", Span.of(value_tree.meta))

    def st_insert(self, st, target, ptr):
        value_tree, path_tree, *where = st.children
        extra = {}
        for w in where:
            tok = w.children[0]
            extra[str(w.data)] = unquote(str(tok)) if tok.type == "STRING" else str(tok)
            self.smap.values[f"/edit/{len(self.edits)}/{w.data}"] = Span.of(tok)
        self.add_edit(st, "insert", path_tree, value_tree, ptr, extra)

    def st_replace(self, st, target, ptr):
        path_tree, value_tree = st.children
        self.add_edit(st, "replace", path_tree, value_tree, ptr)

    def st_set_path(self, st, target, ptr):
        if isinstance(st.children[0], Tree) and st.children[0].data == "entry_path":
            self.add_edit(st, "set", st.children[0], st.children[1], ptr)
            return
        *names, value_tree = st.children
        # `a.b.c = v` is `a { b { c = v } }`
        node = target
        here = ptr
        for tok in names[:-1]:
            key = str(tok)
            here = here + "/" + escape(key)
            if key in node and not isinstance(node[key], dict):
                self.error("E120", f"'{key}' is given twice", tok)
                return
            node = node.setdefault(key, {})
            self.smap.keys.setdefault(here, Span.of(tok))
        last = names[-1]
        value = self.value(value_tree, here + "/" + escape(str(last)))
        self.put(node, str(last), value, here, last, value_tree.meta if isinstance(value_tree, Tree) else value_tree)

    # ---- values -----------------------------------------------------------------------------
    def expr_text(self, tree) -> str:
        try:
            node = from_tree(tree)
        except NotAnExpression as err:
            self.error("E123", str(err), err.meta or getattr(tree, "meta", None),
                       help="an expression holds numbers, names, lists and calls; write a map as a section")
            return "none"
        return to_text(node)

    def value(self, tree, ptr):
        if isinstance(tree, Token):
            return str(tree)
        kind = tree.data
        if kind == "map":
            inner: dict = {}
            self.statements(tree.children, inner, ptr)
            return inner
        if kind == "table":
            out = []
            rows = [r for r in tree.children if isinstance(r, Tree) and r.data == "row"]
            for _, fields, row in self.table_rows(rows, ptr, keyed=False):
                here = ptr + "/" + str(len(out))
                entry = {}
                for key, cell in fields:
                    if cell.data == "empty_cell":
                        continue
                    cell_ptr = here + "".join("/" + escape(p) for p in key.split("."))
                    _set_path(entry, key, self.value(cell.children[0], cell_ptr))
                    self.smap.values.setdefault(cell_ptr, Span.of(cell.meta))
                    self.smap.keys.setdefault(cell_ptr, Span.of(cell.meta))
                self.smap.values.setdefault(here, Span.of(row.meta))
                out.append(entry)
            return out
        if kind == "list":
            out = []
            for i, child in enumerate(tree.children):
                here = f"{ptr}/{i}"
                out.append(self.value(child, here))
                if isinstance(child, Tree):
                    self.smap.values.setdefault(here, Span.of(child.meta))
            return out
        if kind == "string":
            return unquote(str(tree.children[0]))
        if kind == "name":
            return str(tree.children[0])
        if kind == "true":
            return True
        if kind == "false":
            return False
        if kind == "none":
            return None
        if kind in ("number", "neg"):
            try:
                node = from_tree(tree)
            except NotAnExpression:
                node = None
            if node is not None and node[0] == "num":
                return int(node[1]) if node[1].denominator == 1 and "." not in node[2] else node[2]
        if kind in EXPRESSION_RULES:
            return self.expr_text(tree)
        self.error("E123", f"'{kind}' cannot be used as a value", getattr(tree, "meta", None))
        return None


def _set_path(target: dict, dotted: str, value) -> None:
    """Table columns may be dotted (`props.premium`): the value goes into a nested mapping."""
    *parents, last = dotted.split(".")
    for p in parents:
        nxt = target.get(p)
        if not isinstance(nxt, dict):
            nxt = target[p] = {}
        target = nxt
    target[last] = value


def build(tree, file: str) -> tuple[dict, SourceMap]:
    """Turn a parse tree into (document, source map); raise DiagnosticError on any problem."""
    depth, node = deepest(tree)
    if depth > MAX_TREE_DEPTH:
        span = Span.of(getattr(node, "meta", node)) or Span(1, 1, 1, 2)
        raise DiagnosticError([Diagnostic("E102", f"the file nests deeper than {MAX_TREE_DEPTH} levels here", file,
                                          span, help="split a long expression with 'let'")])
    b = _Builder(file)
    doc: dict = {}
    b.statements(tree.children, doc, "")
    if b.edits:
        doc["edit"] = b.edits
    if b.diagnostics:
        raise DiagnosticError(b.diagnostics)
    return doc, b.smap


def number_value(v):
    """A document number (int, or text such as '1/3' or '0.5') as an exact Fraction, else None."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return Fraction(v)
    return None
