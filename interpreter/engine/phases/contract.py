"""The contract the declarer names after the auction, among the final call's contracts, and its trump suit."""
from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.engine import actions as A
from interpreter.engine.phases.base import Phase

if TYPE_CHECKING:
    from interpreter.engine.state import State


def trump_choices(st: State) -> list[int]:
    """The suits the declarer may still choose as trumps (none once chosen)."""
    if st.con is None or st.trump_choice is not None:
        return []
    raw = st.con.ref.rec.get("trump_choices")
    if isinstance(raw, (list, tuple)):
        return [st.R.suit_names.index(s) for s in raw]
    return []


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
            raw = con.ref.rec.get("trump_choices")
            if not raw or not isinstance(raw, (list, tuple)):
                return False
        st.to_act = declarer
        return True

    def legal(self, st: State) -> list[int]:
        if st.con is None:
            return [A.make(A.DECLARE, st.R.contract_index[n]) for n in st.choices]
        return [A.make(A.TRUMP, s) for s in trump_choices(st)]

    def apply(self, st: State, action: int) -> None:
        R = st.R
        if A.kind_of(action) == A.DECLARE:
            st.con = R.in_deal(st, R.contracts[R.contract_names[A.arg_of(action)]])
            if trump_choices(st):
                return
        else:
            assert st.con is not None
            st.trump_choice = A.arg_of(action)
            st.con = R.with_trump(st.con, st.trump_choice)
        st.to_act = -1
        st._advance()
