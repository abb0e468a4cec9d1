"""Number bids: every seat taking part states a number once, in turn, and the deal is then played as one
contract that the rule file names.

Settings (the rule file's `number_bids` section): `first` (who states first; the rest follow in order of
play), `min` and `max` (the numbers a seat may state, expressions: e.g. `0` and `tricks_total`), and
`last_not` (a number the last seat to state may not say, e.g. `tricks_total - number_bid_total`, so
that the numbers cannot add up to the tricks there are). `contract` names the contract played after
the bids, `trump` gives its trump suit by expression (e.g. `suit_of(turned_up)`; none = no trump).
The numbers stated are read by `number_bid(s)` and `number_bid_total`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine import deals
from interpreter.engine.context import Ctx
from interpreter.engine.errors import RuleRuntimeError
from interpreter.engine.phases.base import Phase

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.phases import NumberBids

Fn = Any

MAX_NUMBER = 60          # no seat can state more tricks than a deal of the largest deck has


@dataclass
class NumberBidSettings:
    first: Fn | None
    low: Fn | None
    high: Fn | None
    last_not: Fn | None
    contract: str | None
    trump: Fn | None


def settings(sec: NumberBids, comp: Compiler) -> NumberBidSettings:
    x = lambda e: comp.text(e) if e is not None else None
    return NumberBidSettings(first=x(sec.first), low=x(sec.low), high=x(sec.high), last_not=x(sec.last_not),
                             contract=sec.contract, trump=x(sec.trump))


def _whole(value: Any, what: str) -> int:
    try:
        n = int(value or 0)
    except (TypeError, ValueError):
        raise RuleRuntimeError(f"number_bids.{what} must give a whole number, not {value!r}") from None
    return n


def _settings(st: State) -> NumberBidSettings:
    S = st.R.number_bids
    assert S is not None
    return S


_NUMBER = A.make(A.NUMBER)


def choices(st: State) -> list[int]:
    """The numbers the seat to act may state now."""
    S = _settings(st)
    c = Ctx(st, st.to_act)
    low = max(0, _whole(S.low(c), "min")) if S.low is not None else 0
    high = _whole(S.high(c), "max") if S.high is not None else deals.tricks_total(st)
    high = min(high, MAX_NUMBER)
    numbers = list(range(low, high + 1))
    stated = sum(1 for v in st.number_bids if v is not None)
    if S.last_not is not None and stated == len(st.active) - 1:
        barred = S.last_not(c)
        allowed = [k for k in numbers if k != barred]
        numbers = allowed or numbers        # a restriction that would leave nothing is dropped
    return numbers or [low]


class NumberBidsPhase(Phase):
    name = "number_bids"

    def start(self, st: State) -> bool:
        R = st.R
        S = _settings(st)
        st.number_bids = (None,) * st.n
        if S.contract is not None and st.con is None:
            con = R.contracts[S.contract]
            if S.trump is not None:
                suit = S.trump(Ctx(st))
                con = R.with_trump(con, R.suit_names.index(suit) if suit in R.suit_names else -1)
            else:
                con = R.in_deal(st, con)
            st.con = con
        first = S.first(Ctx(st)) if S.first is not None else None
        if first not in st.active:
            first = st.seat_after(st.dealer if first is None else first)
        st.to_act = first
        return True

    def legal(self, st: State) -> list[int]:
        return [*map(_NUMBER.__or__, choices(st))]       # A.make(A.NUMBER, k) of each

    def apply(self, st: State, action: int) -> None:
        me = st.to_act
        bids = list(st.number_bids)
        bids[me] = A.arg_of(action)
        st.number_bids = tuple(bids)            # a tuple: clones share it safely
        if all(bids[s] is not None for s in st.active):
            st.to_act = -1
            st._advance()
            return
        st.to_act = st.seat_after(me)
