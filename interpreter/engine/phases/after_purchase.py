"""After-purchase: entitled players in turn may take up the discards, discard again and announce a
higher contract, becoming the declarer; the chain goes on until nobody buys."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine import sides
from interpreter.engine.context import Ctx
from interpreter.engine.phases.base import ALWAYS, Phase, own_part
from interpreter.engine.phases.knock import seat_order
from interpreter.engine.phases.talon import discard_actions

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.phases import AfterPurchase


@dataclass
class AfterPurchaseSettings:
    present: bool
    when: Any
    entitled: Any
    take: int
    discard: int
    contracts: list[str]
    must_exceed: bool
    # the rank the contract bought must exceed (-1: none) → the contracts that may be bought, made once
    above: dict = field(default_factory=dict, repr=False, compare=False)
    # the contracts that may be bought → their DECLARE actions, made once
    declares: dict = field(default_factory=dict, repr=False, compare=False)


def settings(ap: AfterPurchase, comp: Compiler) -> AfterPurchaseSettings:
    return AfterPurchaseSettings(
        present=ap.present, when=comp.text(ap.when) if ap.when is not None else ALWAYS,
        entitled=comp.text(ap.entitled) if ap.entitled is not None else ALWAYS, take=ap.take,
        discard=ap.discard, contracts=list(ap.contracts), must_exceed=ap.must_exceed)


@dataclass
class AfterPurchaseState:
    queue: list[int] = field(default_factory=list)   # the entitled seats still to be asked, next first
    stage: str | None = None                          # ask | discard | declare
    holder: int | None = None                         # who holds the contract now
    made: bool = False                                # someone bought
    count: int = 0                                    # purchases so far (bounded by Rules.max_purchases)

    def copy(self) -> AfterPurchaseState:
        return AfterPurchaseState(list(self.queue), self.stage, self.holder, self.made, self.count)


_BUY, _NO_BUY = A.make(A.AFTER, 1), A.make(A.AFTER, 0)
_ARG = A.ARG


class AfterPurchasePhase(Phase):
    name = "after_purchase"

    def start(self, st: State) -> bool:
        S = st.R.after_purchase
        declarer = st._declarer         # (behind the property `declarer`)
        if not S.present or declarer is None or st.final_call is None:
            return False
        on_state = getattr(S.when, "on_state", None)     # the backend's, reading the state alone (engine/backend.py)
        if not (on_state(st) if on_state is not None else S.when(Ctx(st))):
            return False
        ap = own_part(st, "after_purchase", AfterPurchaseState)
        ap.holder = declarer
        self._fill_queue(st, ap)
        if not ap.queue:
            return False
        ap.stage = "ask"
        st.to_act = ap.queue[0]
        return True

    def _fill_queue(self, st: State, ap: AfterPurchaseState) -> None:
        """The seats entitled to buy, in turn after the holder; none when no contract may be bought."""
        holder = ap.holder
        assert holder is not None
        q = []
        c = Ctx(st)
        seat_vars = c.vars
        entitled = st.R.after_purchase.entitled
        options = None          # whether any contract may be bought: the same for every seat, judged once if asked
        for s in seat_order(st, st.seat_after(holder)):
            if s != holder:
                seat_vars["s"] = s
                if entitled(c):
                    if options is None:
                        options = bool(self._options(st, ap))
                    if options:
                        q.append(s)
        ap.queue = q

    def _options(self, st: State, ap: AfterPurchaseState | None = None) -> tuple[str, ...]:
        R = st.R
        S = R.after_purchase
        if ap is None:
            ap = st.after_purchase
        if ap.count >= R.max_purchases:
            return ()
        con = st._con               # (behind the property `con`)
        assert con is not None
        floor = con.rank if (S.must_exceed and ap.made) else -1
        options = S.above.get(floor)
        if options is None:
            contracts = R.contracts
            options = S.above[floor] = tuple(n for n in S.contracts if contracts[n].rank > floor)
        return options

    def legal(self, st: State) -> list[int]:
        ap = st.after_purchase
        if ap.stage == "ask":
            return [_BUY, _NO_BUY]
        if ap.stage == "discard":
            return discard_actions(st.hands[st.to_act], st.R.after_purchase.discard)
        options = self._options(st)
        known = st.R.after_purchase.declares
        declares = known.get(options)
        if declares is None:
            index = st.R.contract_index
            declares = known[options] = tuple(A.make(A.DECLARE, index[n]) for n in options)
        return [*declares]

    def apply(self, st: State, action: int) -> None:
        ap = st.after_purchase
        me = st.to_act
        stage = ap.stage
        if stage == "ask":
            if not action & _ARG:
                ap.queue.pop(0)
                if not ap.queue:
                    st.to_act = -1
                    st._advance()
                else:
                    st.to_act = ap.queue[0]
                return
            st.hands[me] |= st.discards
            st.discards = 0
            ap.stage = "discard"
            return
        if stage == "discard":
            m = action & _ARG
            st.hands[me] &= ~m
            st.discards = m
            ap.stage = "declare"
            return
        R = st.R
        con = R.in_deal(st, R.contracts[R.contract_names[action & _ARG]])
        # the contract and its declarer set together: the sides formed once, with both (as setting the
        # properties `con` and then `declarer` leaves them)
        st._con = con
        st._declarer = me
        sides.form(st)
        ap.holder = me
        ap.made = True
        ap.count += 1
        self._fill_queue(st, ap)
        if not ap.queue:
            st.to_act = -1
            st._advance()
            return
        ap.stage = "ask"
        st.to_act = ap.queue[0]
