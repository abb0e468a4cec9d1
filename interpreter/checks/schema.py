"""Stage 4: the merged rules document against the JSON Schema (Draft 2020-12).

Every schema error becomes a Diagnostic at the line that wrote the offending part, with the
field's description as help and, for unknown keys and values, the closest allowed spellings.
"""
from __future__ import annotations

import functools

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from interpreter.diagnostics import Diagnostic, best_matches
from interpreter.language.document import escape
from interpreter.resources import schema

_TYPE_WORDS: dict[str | None, str] = {"integer": "a whole number", "string": "a name, text or expression", "boolean": "true or false",
               "object": "a section { … }", "array": "a list [ … ]", "null": "none", "number": "a number"}


_ANNOTATIONS = frozenset({"description", "examples", "title"})


def _inline(node, defs: dict):
    """`node` with every `#/$defs/…` reference replaced by a copy of the definition it names (the
    definitions refer to no one recursively). The validator then never looks a reference up: this halves
    the time of a check. A reference's sibling annotations stay beneath the definition's own, as the
    validator reported them through the reference; a sibling that constrains would go in `allOf`."""
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and ref.split("/")[-1] in defs:
        target = _inline(defs[ref.split("/")[-1]], defs)
        rest = {k: _inline(v, defs) for k, v in node.items() if k != "$ref"}
        if set(rest) <= _ANNOTATIONS:
            return {**rest, **target}
        return {"allOf": [target, rest]}
    return {k: v if k == "$defs" else _inline(v, defs) for k, v in node.items()}


@functools.lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    full = schema()
    return Draft202012Validator(_inline(full, full.get("$defs", {})))


def _pointer(path) -> str:
    return "".join("/" + escape(str(p)) for p in path)


def _where(path) -> str:
    """A document path as written by an author: `deal.packets[0].cards`."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else ("." if out else "") + str(p)
    return out or "the file"


def _resolve(subschema: dict) -> dict:
    ref = subschema.get("$ref")
    if ref and ref.startswith("#/$defs/"):
        return schema()["$defs"][ref.split("/")[-1]]
    return subschema


def _type_words(sub: dict) -> str:
    t = _resolve(sub).get("type")
    if isinstance(t, list):
        return " or ".join(_TYPE_WORDS.get(x, str(x)) for x in t)
    return _TYPE_WORDS.get(t, str(t))


def _show(value) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "none"}[value]
    if isinstance(value, list):
        return "a list [ … ]"
    if isinstance(value, dict):
        return "a section { … }"
    text = repr(value) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) < 60 else text[:57] + "…'"


MAX_ENTRIES = 400       # the most items of any list and entries of any section the schema allows


def too_long(doc: dict, origins) -> list[Diagnostic]:
    """E208 for every list or section longer than any the schema allows, found in one cheap walk, so
    that the schema and the checks never walk it (their cost grows with the items and the errors)."""
    out: list[Diagnostic] = []
    stack: list[tuple[object, tuple]] = [(doc, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, (list, dict)) and len(node) > MAX_ENTRIES:
            unit = "items" if isinstance(node, list) else "entries"
            file, span = origins.find(_pointer(path))
            out.append(Diagnostic("E208", f"{_where(path)} has {len(node)} {unit}, more than the {MAX_ENTRIES} "
                                  "allowed", file, span, help="no list or section of a rule file holds more"))
        elif isinstance(node, dict):
            stack.extend((v, path + (k,)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, path + (i,)) for i, v in enumerate(node))
    return sorted(out, key=lambda d: (d.file or "", d.span.line if d.span else 0))


def check(doc: dict, origins) -> list[Diagnostic]:
    """Validate `doc`; `origins.find(pointer, prefer_key)` gives (file, span) for a pointer."""
    out: list[Diagnostic] = []
    errors = sorted(validator().iter_errors(doc), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    seen = set()
    for err in errors:
        for d in _convert(err, origins):
            key = (d.code, d.message, d.file, d.span)
            if key not in seen:  # one error per missing key comes back for every missing key
                seen.add(key)
                out.append(d)
    return out


def _convert(err, origins) -> list[Diagnostic]:
    path = list(err.absolute_path)
    ptr = _pointer(path)
    sub = err.schema if isinstance(err.schema, dict) else {}
    where = _where(path)
    kind = err.validator
    if kind == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list(sub.get("properties", {}))
        diags = []
        for key in err.instance:
            if key in sub.get("properties", {}):
                continue
            file, span = origins.find(ptr + "/" + escape(key), prefer_key=True)
            context = f" in {where}" if path else " at the top level"
            diags.append(Diagnostic("E201", f"unknown key '{key}'{context}", file, span,
                                    help="allowed here: " + ", ".join(allowed) if allowed else None,
                                    suggestions=best_matches(key, allowed)))
        return diags
    naming = "propertyNames" in err.schema_path and isinstance(err.instance, str)  # a key, not a value, is at fault
    if naming:
        ptr += "/" + escape(err.instance)
    file, span = origins.find(ptr, prefer_key=kind == "required" or naming)
    if kind == "required":
        missing = [r for r in err.validator_value if isinstance(err.instance, dict) and r not in err.instance]
        props = sub.get("properties", {})
        doc = "; ".join(f"{m}: {_resolve(props.get(m, {})).get('description', '')}" for m in missing)
        what = f"'{path[-1]}'" if path else "the rule file"
        quoted = [f"'{m}'" for m in missing] or ["a required key"]
        listed = ", ".join(quoted[:-1]) + (" and " if len(quoted) > 1 else "") + quoted[-1]
        return [Diagnostic("E202", f"{what} lacks {listed}", file, span, help=doc or None)]
    if kind == "type":
        return [Diagnostic("E203", f"{where} must be {_type_words(sub)}, not {_show(err.instance)}", file, span,
                           help=_resolve(sub).get("description"))]
    if kind == "enum":
        options = [str(v) for v in err.validator_value]
        return [Diagnostic("E204", f"{where} cannot be {_show(err.instance)}", file, span,
                           help="one of: " + ", ".join(options),
                           suggestions=best_matches(str(err.instance), options))]
    if kind == "pattern":
        return [Diagnostic("E205", f"{_show(err.instance)} is not a valid name in {where}", file, span,
                           help="names are letters, digits and '_' and are not plain numbers")]
    if kind in ("oneOf", "anyOf"):
        # the branch of the value's own type that failed for another reason (a number out of range)
        # says more than "not text"; else the best match
        # (a type error inside the branch, below the value, is such a reason: the value is a section of
        # the right shape whose field has the wrong type)
        fitting = [e for e in err.context or () if e.validator != "type" or e.relative_path]
        inner = best_match(fitting or err.context) if err.context else None
        if inner is not None:
            nested = _convert(inner, origins)
            if nested:
                return [d if d.help else Diagnostic(d.code, d.message, d.file, d.span, help=sub.get("description"),
                                                    suggestions=d.suggestions) for d in nested]
        return [Diagnostic("E206", f"{where} does not have an allowed form", file, span,
                           help=sub.get("description"))]
    if kind in ("minimum", "maximum"):
        return [Diagnostic("E207", f"{where} is {err.instance}, out of range ({kind} {err.validator_value})",
                           file, span, help=_resolve(sub).get("description"))]
    if kind in ("maxItems", "maxProperties", "maxLength"):
        unit = {"maxItems": "items", "maxProperties": "entries", "maxLength": "characters"}[kind]
        return [Diagnostic("E208", f"{where} has {len(err.instance)} {unit}, more than the {err.validator_value} allowed",
                           file, span, help=_resolve(sub).get("description"))]
    return [Diagnostic("E209", f"{where}: {err.message}", file, span)]
