"""The numbers a rule's records carry, read as numbers by both backends.

A figure's `silent` and `declared` points and a contract's `level` and `value` are read by rule
expressions as attributes (`f.declared`, `contract.value`), straight from the record. The schema lets
such a number be written as a constant expression (`1/2`, `2 + 1`, `3.5`), which the document keeps as
text; the Ruleset holds its value instead (so too a decimal or fraction among a contract's `props`) (an int, or an exact Fraction), so that the interpreter and
the generated code compute with the same number. A text that is no constant (it names a table option)
is refused by the checker (checks/record_numbers.py), so none reaches the engine.
"""
from __future__ import annotations

import re
from fractions import Fraction

from interpreter.model.values import constant

# (section, field) of the records whose numbers expressions read as attributes
FIELDS: tuple[tuple[str, str], ...] = (("figure", "silent"), ("figure", "declared"),
                                       ("contract", "level"), ("contract", "value"))


def entries(doc: dict):
    """(section, record name, field, value) of every such number the document writes as text."""
    for section, field in FIELDS:
        records = doc.get(section)
        if not isinstance(records, dict):
            continue
        for name, rec in records.items():
            if isinstance(rec, dict) and isinstance(rec.get(field), str):
                yield section, name, field, rec[field]


# a decimal or a fraction written as a contract's `props` value (`premium = 0.25` is kept as the text
# "0.25" in the document, as every decimal is): a number there, as an integer is
_NUMBER_TEXT = re.compile(r"-?[0-9]{1,15}(\.[0-9]{1,15})?(\s*/\s*[0-9]{1,15})?")


def is_number_text(value) -> bool:
    return isinstance(value, str) and _NUMBER_TEXT.fullmatch(value.strip()) is not None


def _props(doc: dict) -> dict:
    contracts = doc.get("contract")
    if not isinstance(contracts, dict):
        return doc
    changed = {}
    for name, rec in contracts.items():
        props = rec.get("props") if isinstance(rec, dict) else None
        if not isinstance(props, dict):
            continue
        values = {k: constant(v) for k, v in props.items() if isinstance(v, str) and _NUMBER_TEXT.fullmatch(v.strip())}
        numbers = {k: as_number(v) for k, v in values.items() if v is not None}
        if numbers:
            changed[name] = dict(rec) | {"props": dict(props) | numbers}
    return doc if not changed else dict(doc) | {"contract": dict(contracts) | changed}


def as_number(value: Fraction) -> int | Fraction:
    return int(value) if value.denominator == 1 else value


def normalised(doc: dict) -> dict:
    """`doc` with each such constant text replaced by its value (the records touched are copied)."""
    doc = _props(doc)
    found = [(s, n, f, constant(v)) for s, n, f, v in entries(doc)]
    if not found:
        return doc
    out = dict(doc)
    for section, name, field, value in found:
        if value is None:
            continue
        out[section] = dict(out[section])
        out[section][name] = dict(out[section][name]) | {field: as_number(value)}
    return out
