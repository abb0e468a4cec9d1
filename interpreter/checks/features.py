"""Pass: the document uses no field the engine cannot run yet (the registry's pending `field` entries).

A pending field is described by the schema, so the file is well formed, but a deal that needs it
could not be played; `validate` refuses it here, at the field, instead of the engine failing later.
"""
from __future__ import annotations

from collections.abc import Iterator

from interpreter.checks.context import Context
from interpreter.language.document import escape
from interpreter.model.vocabulary import FIELDS, REGISTRY

_HELP = "a rule file that uses it cannot be played; see the pending entries in docs/vocabulary.md"


def _matches(doc: object, steps: list[str], ptr: str) -> Iterator[tuple[str, object]]:
    """(pointer, value) of every place the dotted path `steps` reaches in the document."""
    if not steps:
        yield ptr, doc
        return
    if not isinstance(doc, dict):
        return
    head, rest = steps[0], steps[1:]
    keys = [k for k in doc if isinstance(k, str)] if head == "*" else [head] if head in doc else []
    for k in keys:
        yield from _matches(doc[k], rest, f"{ptr}/{escape(k)}")


def check(ctx: Context) -> None:
    for path in FIELDS:
        where, _, value = path.partition("=")
        for ptr, found in _matches(ctx.doc, where.split("."), ""):
            if value and found != value:
                continue
            shown = f"{where.replace('.*.', '.….')} = {value}" if value else where.replace(".*.", ".….")
            ctx.error("E410", f"'{shown}' ({REGISTRY[('field', path)].doc}) is described by the schema, but the "
                      "engine does not implement it yet", ptr, key=not value, help=_HELP)
