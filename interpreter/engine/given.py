"""Fields that name a talon procedure or a contract, given by a name or by an expression that gives the name
(`talon = if chose(pickup) == hand then untouched else exchange`), and a contract's `allowed` (whether the
declarer may name it in the contract phase). The compiled rules keep the plain name (as before) or the
compiled expression beside it (`talon_expr`, `AuctionSettings.all_pass_expr`); these read either in a deal."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.engine.errors import RuleRuntimeError

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State


def name_or_expression(comp: Compiler, value: Any, names: Any) -> tuple[str | None, Any]:
    """(the plain name, None) when `value` is none or one of `names`, else (None, the compiled expression)."""
    if value is None or (isinstance(value, str) and value in names):
        return value, None
    return None, comp.text(value)


def _given(st: State, f: Any, names: Any, what: str) -> str | None:
    value = f(Ctx(st, st._declarer))
    if value is None:
        return None
    name = str(value)
    if name not in names:
        raise RuleRuntimeError(f"the {what} is given as '{name}', which the rule file does not declare "
                               f"(one of: {', '.join(map(str, names))}, or none)")
    return name


def talon_name(st: State, item: Any) -> str | None:
    """The talon procedure a call or contract names in this deal (none: none)."""
    f = getattr(item, "talon_expr", None)      # (a record without one names its procedure, or none)
    if f is None:
        return item.talon
    return _given(st, f, st.R.talons, "talon procedure")


def has_talon(item: Any) -> bool:
    """Whether a call or contract names a talon procedure at all (by name or by an expression)."""
    return item.talon is not None or getattr(item, "talon_expr", None) is not None


def all_pass_contract(st: State) -> str | None:
    """The contract played when everyone passes (none: the deal is thrown in)."""
    S = st.R.auction
    if S.all_pass_expr is None:
        return S.all_pass
    return _given(st, S.all_pass_expr, st.R.contracts, "contract played when everyone passes")


def may_name(st: State, name: str) -> bool:
    """Whether the declarer may name the contract `name` now (its `allowed`, `this` the contract)."""
    con = st.R.contracts[name]
    if con.allowed is None:
        return True
    return bool(con.allowed(Ctx(st, st._declarer, con.ref)))
