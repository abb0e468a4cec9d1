"""Pass: table options are consistent — the default lies within min/max and among the choices."""
from __future__ import annotations

from ..document import escape
from .context import Context


def check(ctx: Context) -> None:
    for name, opt in ctx.options.items():
        if not isinstance(opt, dict):
            continue
        ptr = "/option/" + escape(name)
        value = opt.get("default")
        lo, hi = opt.get("min"), opt.get("max")
        if isinstance(value, int) and not isinstance(value, bool):
            if lo is not None and value < lo or hi is not None and value > hi:
                ctx.error("E309", f"option '{name}' defaults to {value}, outside {lo}..{hi}", ptr + "/default")
        if opt.get("choices") and value not in opt["choices"]:
            ctx.error("E309", f"option '{name}' defaults to {value!r}, which is not one of its choices", ptr + "/default")
