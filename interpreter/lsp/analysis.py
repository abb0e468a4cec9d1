"""What the language server knows about a rule file, without any protocol: the diagnostics that
`validate` gives, the word under the cursor, hover text from the vocabulary and the schema,
completions, and where a name is defined (across `extends`).

Kept apart from the server so that it can be tested, and used, without pygls.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from interpreter import checks
from interpreter.checks import pruning
from interpreter.checks import schema as schema_check
from interpreter.diagnostics import Diagnostic, DiagnosticError, Span
from interpreter.language.document import escape
from interpreter.language.loader import Loaded, display_path, load, resolve
from interpreter.model.vocabulary import COMPREHENSIONS, FUNCTIONS, OBLIGATIONS, PHASES, REGISTRY, VALUES
from interpreter.resources import schema

_WORD = re.compile(r"\w+")
# collections whose items a name may refer to, in the order a name is looked for
DEFINED = ("contract", "call", "talon", "option", "let", "figure", "account", "category")


@dataclass
class Result:
    loaded: Loaded | None
    diagnostics: list[Diagnostic]


def check_text(path: Path, text: str) -> Result:
    """Validate `text` as the content of `path` (its bases read from disk): the diagnostics of
    `stichwort validate`, in the same order."""
    try:
        loaded = load(str(path), positions=True, texts={str(path.resolve()): text})
    except DiagnosticError as err:
        return Result(None, err.diagnostics)
    diags = schema_check.check(loaded.doc, loaded.origins)
    if diags:
        diags += pruning.semantic_diagnostics(loaded.doc, loaded.origins, loaded.sources, diags)
    else:
        diags = checks.run(loaded.doc, loaded.origins, loaded.sources).diagnostics
    return Result(loaded, diags)


def word_at(text: str, line: int, col: int) -> str | None:
    """The name under (0-based) line and column."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    for m in _WORD.finditer(lines[line]):
        if m.start() <= col <= m.end():
            return m.group(0)
    return None


def _schema_docs() -> dict[str, str]:
    """Every key the schema names, with its description (the first one met for a key)."""
    out: dict[str, str] = {}
    stack: list = [schema()]
    while stack:
        node = stack.pop(0)
        if isinstance(node, dict):
            for k, v in (node.get("properties") or {}).items():
                if isinstance(v, dict) and k not in out:
                    desc = v.get("description") or _resolved_description(v)
                    if desc:
                        out[k] = desc
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(node)
    return out


def _resolved_description(sub: dict) -> str | None:
    ref = sub.get("$ref", "")
    if ref.startswith("#/$defs/"):
        return schema()["$defs"][ref.rsplit("/", 1)[1]].get("description")
    return None


def context_at(text: str, line: int, col: int) -> str:
    """What a name at (0-based) line and column is written as: `call` (a function: `(` follows it),
    `key` (a key or an item's own name: `=` or `{` follows it, or nothing but the name stands on the
    line so far), or `expr` (a name inside an expression or a list: the rest)."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return "expr"
    here = lines[line]
    m = next((m for m in _WORD.finditer(here) if m.start() <= col <= m.end()), None)
    start, end = (m.start(), m.end()) if m else (col, col)
    after = here[end:].lstrip()
    if after.startswith("("):
        return "call"
    if after.startswith("{") or after.startswith("=") and not after.startswith("=="):
        return "key"
    before = here[:start]
    if "=" not in before and "[" not in before and "|" not in before and ("{" in before or not before.strip()):
        return "key"
    return "expr"


def _shown(v: object) -> str:
    """A value as a rule file writes it: true, false, none, a list in brackets."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, list):
        return "[" + ", ".join(_shown(x) for x in v) + "]"
    return str(v)


def _declared(word: str, loaded: Loaded | None, want_functions: bool) -> list[str]:
    """What the file (or its base) declares under this name: an item of a collection, a let."""
    if loaded is None:
        return []
    parts = []
    for kind in DEFINED:
        coll = loaded.doc.get(kind)
        if not (isinstance(coll, dict) and word in coll):
            continue
        item = coll[word]
        if want_functions and not (kind == "let" and isinstance(item, dict) and item.get("params")):
            continue
        summary = "  ".join(f"{k} = {_shown(v)}" for k, v in item.items() if not isinstance(v, dict)) \
            if isinstance(item, dict) else _shown(item)
        parts.append(f"{kind} **{word}**: {summary[:400]}")
    return parts


def hover(text: str, line: int, col: int, loaded: Loaded | None) -> str | None:
    """Markdown for the name under the cursor, read as what it is written as there (context_at): a
    function of the vocabulary where it is called, a key of the rules document where it stands as
    one, else a built-in value, phase or obligation; and an item the file (or its base) declares."""
    word = word_at(text, line, col)
    if word is None:
        return None
    role = context_at(text, line, col)
    parts = []
    if role == "call":
        if word in FUNCTIONS:
            e = REGISTRY[("function", word)]
            parts.append(f"**{word}**({', '.join(e.params)}) → {e.type} — {e.doc}\n\nexample: `{e.example}`")
        if word in COMPREHENSIONS:
            e = REGISTRY[("comprehension", word)]
            parts.append(f"**{word}**(… for x in …) → {e.type} — {e.doc}\n\nexample: `{e.example}`")
        parts += _declared(word, loaded, want_functions=True)
        return "\n\n---\n\n".join(parts) or None
    if role == "key":
        docs = _schema_docs()
        if word in docs:
            parts.append(f"`{word}` — {docs[word]}")
    if role == "expr" or not parts:
        if word in VALUES:
            e = REGISTRY[("value", word)]
            parts.append(f"**{word}** : {e.type} — {e.doc}\n\nexample: `{e.example}`")
        for kind, pool in (("phase", PHASES), ("obligation", OBLIGATIONS)):
            if word in pool:
                e = REGISTRY[(kind, word)]
                parts.append(f"{kind} **{word}** — {e.doc}\n\nexample: `{e.example}`")
    parts += _declared(word, loaded, want_functions=False)
    return "\n\n---\n\n".join(parts) or None


def completions(loaded: Loaded | None, text: str | None = None, line: int = 0, col: int = 0) -> list[tuple[str, str, str]]:
    """(label, kind, detail) of the names that can be written at the cursor: keys where a key
    stands, else values, functions, phases, obligations and declared names; only those that begin
    with the part of a name already typed. Without a text, every name."""
    prefix, role = "", None
    if text is not None:
        lines = text.splitlines()
        here = lines[line][:col] if 0 <= line < len(lines) else ""
        m = re.search(r"\w*$", here)
        prefix = m.group(0) if m else ""
        role = context_at(text, line, col)
    out: dict[str, tuple[str, str, str]] = {}
    if role in (None, "key"):
        for key, desc in _schema_docs().items():
            out.setdefault(key, (key, "key", desc))
    if role != "key":
        for name, (t, doc) in VALUES.items():
            out.setdefault(name, (name, "value", f"{t} — {doc}"))
        for name, (params, t, doc) in FUNCTIONS.items():
            out.setdefault(name, (name, "function", f"({', '.join(params)}) → {t} — {doc}"))
        for name in PHASES:
            out.setdefault(name, (name, "phase", REGISTRY[("phase", name)].doc))
        for name in OBLIGATIONS:
            out.setdefault(name, (name, "obligation", REGISTRY[("obligation", name)].doc))
        if loaded is not None:
            for kind in DEFINED:
                coll = loaded.doc.get(kind)
                if isinstance(coll, dict):
                    for name in coll:
                        out[str(name)] = (str(name), kind, f"{kind} {name}")
    return sorted(v for k, v in out.items() if k.startswith(prefix))


def definition(text: str, line: int, col: int, path: Path, loaded: Loaded | None) -> tuple[str, Span | None] | None:
    """(file, span) where the name under the cursor is defined; on `extends "…"`, the base file."""
    lines = text.splitlines()
    if 0 <= line < len(lines):
        m = re.match(r'\s*extends\s+"([^"]*)"', lines[line])
        if m:
            try:
                return display_path(resolve(m.group(1), relative_to=path)), None
            except DiagnosticError:
                return None
    word = word_at(text, line, col)
    if word is None or loaded is None:
        return None
    for kind in DEFINED:
        coll = loaded.doc.get(kind)
        if isinstance(coll, dict) and word in coll:
            return loaded.origins.find(f"/{kind}/{escape(word)}", prefer_key=True)
    return None


@dataclass(frozen=True)
class QuickFix:
    """Replace the word under a diagnostic's span with one of its "did you mean" suggestions."""
    diagnostic: Diagnostic
    span: Span
    old: str
    new: str


def quick_fixes(text: str, diagnostics: list[Diagnostic], here: str) -> list[QuickFix]:
    """The did-you-mean suggestions of the diagnostics located in the open file `here`, where the span
    covers exactly one word on one line (a misspelt key, name or reference), as replacements."""
    lines = text.splitlines()
    out = []
    for d in diagnostics:
        span = d.span
        if d.file != here or span is None or not d.suggestions or span.line != span.end_line:
            continue
        if not 1 <= span.line <= len(lines):
            continue
        old = lines[span.line - 1][span.col - 1:span.end_col - 1]
        if not _WORD.fullmatch(old):      # a wider span (a call, an attribute): the word the message names
            named = [q for q in re.findall(r"'(\w+)'", d.message)
                     if len(re.findall(r"(?<!\w)" + re.escape(q) + r"(?!\w)", old)) == 1]
            if len(named) != 1:
                continue
            at = re.search(r"(?<!\w)" + re.escape(named[0]) + r"(?!\w)", old)
            assert at is not None
            span = Span(span.line, span.col + at.start(), span.line, span.col + at.end())
            old = named[0]
        out += [QuickFix(d, span, old, s) for s in d.suggestions if _WORD.fullmatch(s) and s != old]
    return out


def formatted(path: Path, text: str) -> str | None:
    """The text in the canonical layout of `stichwort fmt`, or None if it does not parse."""
    from interpreter.language.format import format_text

    try:
        return format_text(text, display_path(path))
    except DiagnosticError:
        return None


@dataclass
class Symbol:
    """An outline entry: a section of the file (`deck`, `auction`, …) or an item it declares."""
    name: str
    kind: str                   # "section", or the collection: "contract", "call", "let", …
    span: Span                  # the whole entry
    selection: Span             # its name
    children: list[Symbol]


def _union(spans: list[Span]) -> Span:
    first = min(spans, key=lambda s: (s.line, s.col))
    last = max(spans, key=lambda s: (s.end_line, s.end_col))
    return Span(first.line, first.col, last.end_line, last.end_col)


_NOT_SHOWN = ("/edit/", "/edit")      # edits by name (`settle.pay[won].amount = …`): shown by what they change


def symbols(loaded: Loaded | None, here: str) -> list[Symbol]:
    """The outline of the open file `here`: each top-level section written in it, in the order of the
    file, and under each collection (contracts, calls, lets, options, …) the items written in it."""
    if loaded is None:
        return []
    layers = [layer for layer in loaded.origins.layers if layer.file == here]
    if not layers:
        return []
    sections: dict[str, list[Span]] = {}       # section → every span written under it in this file
    items: dict[tuple[str, str], list[Span]] = {}
    names: dict[str, Span] = {}                 # pointer of a section or item → the span of its name
    for layer in layers:
        for table in (layer.keys, layer.values):
            for ptr, span in table.items():
                if span is None or ptr.startswith(_NOT_SHOWN) or ptr.count("/") < 1:
                    continue
                parts = ptr.split("/")
                sections.setdefault(parts[1], []).append(span)
                if parts[1] in DEFINED and len(parts) > 2:
                    items.setdefault((parts[1], parts[2]), []).append(span)
        for ptr, span in layer.keys.items():
            if span is not None and ptr.count("/") <= 2:
                names.setdefault(ptr, span)
    out = []
    for section, spans in sections.items():
        children = []
        for (owner, item), item_spans in items.items():
            if owner == section:
                whole = _union(item_spans)
                name = item.replace("~1", "/").replace("~0", "~")
                children.append(Symbol(name, section, whole, names.get(f"/{section}/{item}", whole), []))
        children.sort(key=lambda s: (s.span.line, s.span.col))
        whole = _union(spans)
        out.append(Symbol(section, "section", whole, names.get("/" + section, whole), children))
    out.sort(key=lambda s: (s.span.line, s.span.col))
    return out


_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*')


def _code_words(text: str, word: str) -> list[Span]:
    """Where `word` stands as a whole word in the text's code: outside strings and comments."""
    pattern = re.compile(r"(?<![\w.])" + re.escape(word) + r"(?!\w)")
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        blanked = _STRING_OR_COMMENT.sub(lambda m: " " * len(m.group(0)), line)
        out += [Span(n, m.start() + 1, n, m.end() + 1) for m in pattern.finditer(blanked)]
    return out


def references(text: str, line: int, col: int, path: Path, loaded: Loaded | None) -> list[tuple[str, Span]]:
    """(file, span) of every place the declared name under the cursor is written, its declaration
    included: in the open file (as it stands in the editor) and in the bases it extends."""
    word = word_at(text, line, col)
    if word is None or loaded is None:
        return []
    if not any(isinstance(loaded.doc.get(kind), dict) and word in loaded.doc[kind] for kind in DEFINED):
        return []
    here = display_path(path)
    out = []
    for file in loaded.origins.files:
        source: str | None = text if file == here else loaded.sources.get(file)
        if source is None:
            try:
                source = Path(file).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
        out += [(file, span) for span in _code_words(source, word)]
    return out


_NAME = re.compile(r"(?!\d+$)\w+")


def rename(text: str, line: int, col: int, path: Path, loaded: Loaded | None, new: str) -> list[Span] | str:
    """The spans to rewrite to rename the declared name under the cursor to `new`, or why not: the new
    name must be a name that nothing declares yet, and every use must be in the open file (a base is
    renamed in the base)."""
    word = word_at(text, line, col)
    found = references(text, line, col, path, loaded)
    if word is None or loaded is None or not found:
        return "only a name this file or its bases declare (a contract, call, let, option, …) can be renamed"
    if not _NAME.fullmatch(new):
        return f"'{new}' is not a name: letters, digits and '_', not only digits"
    taken = [kind for kind in DEFINED if isinstance(loaded.doc.get(kind), dict) and new in loaded.doc[kind]]
    if taken or new in VALUES or new in FUNCTIONS:
        what = f"a {taken[0]}" if taken else "a built-in name"
        return f"'{new}' is already {what}"
    here = display_path(path)
    elsewhere = sorted({file for file, _span in found if file != here})
    if elsewhere:
        return f"'{word}' is also written in {', '.join(elsewhere)}: rename it there, in the base"
    return [span for _file, span in found]
