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


def hover(text: str, line: int, col: int, loaded: Loaded | None) -> str | None:
    """Markdown for the name under the cursor: a built-in of the vocabulary, a key of the rules
    document, or an item the file (or its base) declares."""
    word = word_at(text, line, col)
    if word is None:
        return None
    parts = []
    if word in VALUES:
        e = REGISTRY[("value", word)]
        parts.append(f"**{word}** : {e.type} — {e.doc}\n\nexample: `{e.example}`")
    if word in FUNCTIONS:
        e = REGISTRY[("function", word)]
        parts.append(f"**{word}**({', '.join(e.params)}) → {e.type} — {e.doc}\n\nexample: `{e.example}`")
    if word in COMPREHENSIONS:
        e = REGISTRY[("comprehension", word)]
        parts.append(f"**{word}**(… for x in …) → {e.type} — {e.doc}\n\nexample: `{e.example}`")
    for kind, pool in (("phase", PHASES), ("obligation", OBLIGATIONS)):
        if word in pool:
            e = REGISTRY[(kind, word)]
            parts.append(f"{kind} **{word}** — {e.doc}\n\nexample: `{e.example}`")
    docs = _schema_docs()
    if word in docs:
        parts.append(f"`{word}` — {docs[word]}")
    if loaded is not None:
        for kind in DEFINED:
            coll = loaded.doc.get(kind)
            if isinstance(coll, dict) and word in coll:
                item = coll[word]
                summary = "  ".join(f"{k} = {v}" for k, v in item.items() if not isinstance(v, (dict, list))) \
                    if isinstance(item, dict) else str(item)
                parts.append(f"{kind} **{word}**: {summary[:400]}")
    return "\n\n---\n\n".join(parts) or None


def completions(loaded: Loaded | None) -> list[tuple[str, str, str]]:
    """(label, kind, detail) of every name that can be written: keys, built-ins, declared names."""
    out: dict[str, tuple[str, str, str]] = {}
    for key, desc in _schema_docs().items():
        out.setdefault(key, (key, "key", desc))
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
    return sorted(out.values())


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
