"""Pass: what a rule file sets but no rule reads, so that setting it changes nothing.

- W333: a contract's `level`, `value` or `game`. The engine never reads these itself; only the rules'
  expressions do (`contract.value`). `contract.one.value = 12` in a game whose payments never say
  `contract.value` would change nothing, silently.
- W334: a table option that no expression names. `--set NAME=…` would be accepted and change nothing.

(A `props` key nobody reads is W331, in the attributes pass.)
"""
from __future__ import annotations

from interpreter.checks.attributes import _lets, _walk
from interpreter.checks.context import Context
from interpreter.diagnostics import Diagnostic
from interpreter.language.document import escape

# the contract fields that only expressions read (the engine itself never does)
EXPRESSION_ONLY_FIELDS = ("level", "value", "game")


def check(ctx: Context) -> None:
    roots = list(getattr(ctx, "expressions", {}).values()) + [node for _ptr, node, _params in _lets(ctx)]
    attributes: set[str] = set()
    names: set[str] = set()
    for root in roots:
        for node, bound in _walk(root):
            if node[0] == "attr":
                attributes.add(node[2])
            elif node[0] == "name" and node[1] not in bound:
                names.add(node[1])
    _fields(ctx, attributes)
    _options(ctx, names)


def _shown(owners: list[str]) -> str:
    return ", ".join(owners[:6]) + (f" and {len(owners) - 6} more" if len(owners) > 6 else "")


def _fields(ctx: Context, read: set[str]) -> None:
    for field in EXPRESSION_ONLY_FIELDS:
        if field in read:
            continue
        owners = [name for name, c in ctx.contracts.items() if isinstance(c, dict) and field in c]
        if not owners:
            continue
        file, span = ctx.where(f"/contract/{escape(owners[0])}/{field}", key=True)
        ctx.diagnostics.append(Diagnostic(
            "W333", f"'{field}' ({'contract ' if len(owners) == 1 else 'contracts '}{_shown(owners)}) is read by no "
                    f"rule: no `contract.{field}` anywhere, and the engine does not read it itself", file, span,
            severity="warning",
            help=f"a contract's {field} matters only where an expression reads it, e.g. a payment "
                 f"`amount = 2 * contract.{field}`; write it into the rule that should use it, or remove it"))


def _options(ctx: Context, read: set[str]) -> None:
    for name, opt in ctx.options.items():
        if name in read or not isinstance(opt, dict):
            continue
        file, span = ctx.where("/option/" + escape(name), key=True)
        ctx.diagnostics.append(Diagnostic(
            "W334", f"option '{name}' is read by no rule: `--set {name}=…` would change nothing", file, span,
            severity="warning",
            help=f"an option matters only where an expression names it, e.g. `amount = {name} * 2`; "
                 "use it in the rule it is meant for, or remove it"))
