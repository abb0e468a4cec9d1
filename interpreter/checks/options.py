"""Pass: table options are consistent — the default lies within min/max and among the choices."""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.diagnostics import best_matches
from interpreter.language.document import escape


def check(ctx: Context) -> None:
    for name, opt in ctx.options.items():
        if not isinstance(opt, dict):
            continue
        ptr = "/option/" + escape(name)
        value = opt.get("default")
        lo, hi = opt.get("min"), opt.get("max")
        if isinstance(value, int) and not isinstance(value, bool):
            if lo is not None and value < lo:
                ctx.error("E309", f"option '{name}' defaults to {value}, below its minimum {lo}", ptr + "/default",
                          help="the default must lie within min and max")
            elif hi is not None and value > hi:
                ctx.error("E309", f"option '{name}' defaults to {value}, above its maximum {hi}", ptr + "/default",
                          help="the default must lie within min and max")
        step = opt.get("multiple_of")
        if step and isinstance(value, int) and not isinstance(value, bool) and value % step:
            ctx.error("E309", f"option '{name}' defaults to {value}, which is not a multiple of {step}", ptr + "/default")
        choices = opt.get("choices")
        if choices and value not in choices:
            shown = ", ".join(map(str, choices))
            ctx.error("E309", f"option '{name}' defaults to {value!r}, which is not one of its choices", ptr + "/default",
                      help=f"choices: {shown}", suggestions=best_matches(str(value), map(str, choices)))
