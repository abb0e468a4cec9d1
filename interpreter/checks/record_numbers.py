"""Pass: the numbers of records read as attributes are fixed numbers.

A figure's `silent`/`declared` and a contract's `level`/`value` are read by rule expressions from the
record itself (`f.declared`, `contract.value`). Written as a constant (`3`, `1/2`, `3.5`) they are that
number for both backends (model/record_numbers.py); written as an expression that names a table
option or anything else not fixed in the file, no backend would compute it, so it is refused (E402).
"""
from __future__ import annotations

from interpreter.checks.context import Context, already
from interpreter.language.document import escape
from interpreter.model.record_numbers import entries
from interpreter.model.values import constant


def check(ctx: Context) -> None:
    for section, name, field, value in entries(ctx.doc):
        ptr = f"/{section}/{escape(str(name))}/{field}"
        if constant(value) is None and not already(ctx, ptr):     # a type error there is said once
            ctx.error("E402", f"{section} {name}: '{field}' must be a number written in the file (such as 2, "
                      f"1/2 or 3.5), not '{value if len(value) <= 40 else value[:37] + '…'}'",
                      ptr, help=f"expressions read {section}.{field} as written; a value that depends on a table "
                      "option belongs in the payment expression that reads it")
