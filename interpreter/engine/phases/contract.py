"""The contract the declarer names after the auction, among the final call's contracts, and its trump suit."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine.errors import RuleRuntimeError
from interpreter.engine.given import may_name
from interpreter.engine.phases.base import Phase

if TYPE_CHECKING:
    from interpreter.engine.state import State


def trump_choices(st: State) -> list[int]:
    """The suits the declarer may still choose as trumps (none once chosen)."""
    con = st._con                   # (behind the property `con`)
    if con is None or st.trump_choice is not None:
        return []
    return [*_suits(st.R, con, st)]


def _suits(R: Any, con: Any, st: State | None = None) -> tuple[int, ...]:
    """The suits a contract lets the declarer choose as trumps (its `trump_choices`), found once per rule set
    and contract name (a contract's variants with a trump share its record); written as an expression, worked
    out in the deal `st` (the declarer as `me`) each time it is asked."""
    table = R.memos.trump_choice_suits
    suits = table.get(con.name)
    if suits is None:
        raw = R.rs.game.contracts[con.name].trump_choices
        if isinstance(raw, str):        # an expression: compiled once, judged in each deal
            suits = table[con.name] = R.compiler.text(raw)
        else:
            suits = table[con.name] = tuple(R.suit_names.index(s) for s in raw) if isinstance(raw, (list, tuple)) else ()
    if type(suits) is tuple:
        return suits
    return _judged(R, con, suits, st)


def _judged(R: Any, con: Any, fn: Any, st: State | None) -> tuple[int, ...]:
    """The suits an expression `trump_choices` gives in the deal: a list of suits, or one suit; none or an
    empty list, no choice (the contract's own trump stands)."""
    if st is None:
        return ()
    from interpreter.engine.context import Ctx

    value = fn(Ctx(st, st._declarer))
    items = () if value is None else (value,) if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or any(x not in R.suit_names for x in items):
        raise RuleRuntimeError(f"contract {con.name}: trump_choices gives {value!r}; it must give a list of suits "
                               f"({', '.join(R.suit_names)})")
    return tuple(dict.fromkeys(R.suit_names.index(x) for x in items))


_DECLARE, _TRUMP = A.make(A.DECLARE), A.make(A.TRUMP)


class ContractPhase(Phase):
    name = "contract"

    def start(self, st: State) -> bool:
        declarer = st._declarer
        if declarer is None:
            return False
        con = st._con
        if con is None:
            if len(st.choices) <= 1:
                return False
        else:                   # a trump to choose (trump_choices)?
            if st.trump_choice is not None:
                return False
            if not _suits(st.R, con, st):
                return False
        st.to_act = declarer
        return True

    def legal(self, st: State) -> list[int]:
        if st._con is None:
            index = st.R.contract_index
            out = [_DECLARE | index[n] for n in st.choices if may_name(st, n)]
            if not out:
                raise RuleRuntimeError(f"the declarer may name none of the contracts {', '.join(st.choices)} "
                                       "(each one's `allowed` is false)")
            return out
        return [_TRUMP | s for s in trump_choices(st)]

    def apply(self, st: State, action: int) -> None:
        R = st.R
        if action >> A.SHIFT == A.DECLARE:
            st.con = con = R.in_deal(st, R.contracts[R.contract_names[action & A.ARG]])
            if st.trump_choice is None and _suits(R, con, st):
                return
        else:
            assert st._con is not None
            st.trump_choice = action & A.ARG
            st.con = R.with_trump(st._con, st.trump_choice)
        st.to_act = -1
        st._advance()
