"""Knocking: instead of cutting, a player may ask for the deck to be laid out in piles, and the players
then choose a pile each in turn.

    deal {
      knock {
        by = prev(dealer)              # who may knock instead of cutting
        packets = table { | to | cards | repeat | | talon | 6 | 1 | | pile | 12 | 4 | }
        choose = forehand              # who chooses a pile first; the others follow in order of play
      }
    }

The phase runs before the first phase of the procedure whenever the deal has a `knock` (the rules
put it first). The seat `by` knocks (`KNOCK 1`) or cuts (`KNOCK 0`). After a knock the cards are laid
out as the packets say: the talon, then one pile per player, face down, and the players choose a pile
each in turn (`PACKET`, piles numbered from 1). The deck is shuffled and the piles are face down, so
nobody's choice can depend on what a pile holds: the pile a seat takes is the hand it was dealt. The
hands, the talon and what every seat knows are the same as after a cut; a deal given card by card
(a scenario) gives each seat's hand as it holds it after the knock.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine.context import Ctx
from interpreter.engine.phases.base import Phase

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State


@dataclass(frozen=True)
class KnockSettings:
    present: bool
    by: Any
    choose: Any


def absent() -> KnockSettings:
    return KnockSettings(False, None, None)


def settings(doc: dict, comp: Compiler) -> KnockSettings:
    k = (doc.get("deal") or {}).get("knock")
    if not k:
        return absent()
    x = comp.text
    return KnockSettings(True, x(k["by"]) if "by" in k else x("prev(dealer)"),
                         x(k["choose"]) if "choose" in k else x("forehand"))


@dataclass
class KnockState:
    stage: str = ""                # ask | choose
    piles: int = 0                 # the piles laid out
    chosen: tuple = ()             # (seat, pile index) in the order chosen
    order: tuple = ()              # the seats choosing, in turn
    taken: int = 0                 # the piles chosen, as a mask of their indices

    def copy(self) -> KnockState:
        new = _new(KnockState)
        new.stage = self.stage
        new.piles = self.piles
        new.chosen = self.chosen
        new.order = self.order
        new.taken = self.taken
        return new


_new = object.__new__
_KNOCK, _CUT = A.make(A.KNOCK, 1), A.make(A.KNOCK, 0)
_LEFT: dict[tuple[int, int], tuple[int, ...]] = {}     # (piles, piles taken) → the choices left (legal)


def seat_order(st: State, first: Any) -> tuple[int, ...]:
    """Every seat taking part once, in turn from `first` (the next seat taking part if it does not), worked
    out once per rule set, first seat and seats taking part."""
    cache = st.R.__dict__.setdefault("_seat_orders", {})
    key = (first, st.active)
    order = cache.get(key)
    if order is None:
        s = first if first in st.active else st.seat_after(first)
        out = []
        for _ in st.active:
            out.append(s)
            s = st.seat_after(s)
        order = cache[key] = tuple(out)
    return order


def at_state(f: Any, st: State) -> Any:
    """An expression judged without a seat: through its generated function of the state alone where it
    has one (codegen: no activation to make), else with a new activation."""
    on_state = getattr(f, "on_state", None)
    return on_state(st) if on_state is not None else f(Ctx(st))


def _state(st: State) -> KnockState:
    ks = st.knock_state
    return ks if ks is not None else KnockState()


class KnockPhase(Phase):
    name = "knock"

    def start(self, st: State) -> bool:
        S = st.R.knock
        if not S.present:
            return False
        by = at_state(S.by, st)
        if by not in st.active:
            return False
        ks = KnockState(stage="ask")
        st.knock_state = ks
        st.to_act = by
        return True

    def legal(self, st: State) -> list[int]:
        ks = _state(st)
        if ks.stage == "ask":
            return [_KNOCK, _CUT]
        key = (ks.piles, ks.taken)
        left = _LEFT.get(key)
        if left is None:
            left = _LEFT[key] = tuple(A.make(A.PACKET, i) for i in range(ks.piles) if not ks.taken >> i & 1)
        return [*left]

    def apply(self, st: State, action: int) -> None:
        ks = _state(st).copy()
        st.knock_state = ks
        if action >> A.SHIFT == A.KNOCK:
            if not action & A.ARG:
                self._done(st)
                return
            first = at_state(st.R.knock.choose, st)
            ks.order = order = seat_order(st, first)
            ks.piles = len(order)
            ks.stage = "choose"
            st.to_act = order[0]
            return
        pile = action & A.ARG
        ks.chosen = ks.chosen + ((st.to_act, pile),)
        ks.taken |= 1 << pile
        if len(ks.chosen) < len(ks.order):
            st.to_act = ks.order[len(ks.chosen)]
            return
        self._done(st)

    def _done(self, st: State) -> None:
        _state(st).stage = ""
        st.to_act = -1
        st._advance()


def text(st: State, action: int) -> str:
    W = st.R.words
    if A.kind_of(action) == A.KNOCK:
        return W.get("knock", "knock") if A.arg_of(action) else W.get("cut", "cut")
    return f"{W.get('take', 'take')} {A.arg_of(action) + 1}"
