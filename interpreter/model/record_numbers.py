"""The numbers a rule's records carry, read as numbers by both backends.

A figure's `silent` and `declared` points and a contract's `level` and `value` are read by rule
expressions as attributes (`f.declared`, `contract.value`), straight from the record. The schema lets
such a number be written as a constant expression (`1/2`, `2 + 1`, `3.5`), which the document keeps as
text; the Ruleset holds its value instead (an int, or an exact Fraction), so that the interpreter and
the generated code compute with the same number. A text that is no constant (it names a table option)
is refused by the checker (checks/record_numbers.py), so none reaches the engine.
"""
from __future__ import annotations

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


def as_number(value: Fraction) -> int | Fraction:
    return int(value) if value.denominator == 1 else value


def normalised(doc: dict) -> dict:
    """`doc` with each such constant text replaced by its value (the records touched are copied)."""
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
