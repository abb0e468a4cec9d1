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
    from interpreter.model.phases import Knock


@dataclass(frozen=True)
class KnockSettings:
    present: bool
    by: Any
    choose: Any


def absent() -> KnockSettings:
    return KnockSettings(False, None, None)


def settings(k: Knock, comp: Compiler) -> KnockSettings:
    if not k.present:
        return absent()
    x = comp.text
    return KnockSettings(True, x(k.by) if k.by is not None else x("prev(dealer)"),
                         x(k.choose) if k.choose is not None else x("forehand"))


class KnockState:
    """One position of the knock, shared by every deal that reaches it and never written: a step replaces
    the state's with the position it leads to (`after`, filled as the steps are met)."""
    __slots__ = ("stage", "piles", "chosen", "order", "taken", "seat", "legal", "after")

    def __init__(self, stage: str = "", piles: int = 0, chosen: tuple = (), order: tuple = (), taken: int = 0):
        self.stage = stage              # ask | choose
        self.piles = piles              # the piles laid out
        self.chosen = chosen            # (seat, pile index) in the order chosen
        self.order = order              # the seats choosing, in turn
        self.taken = taken              # the piles chosen, as a mask of their indices
        # the seat to choose next (-1: none, or the seat asked, which the phase's start sets), the legal
        # actions, and action → the position it leads to
        self.seat = order[len(chosen)] if stage == "choose" else -1
        if stage == "ask":
            self.legal: tuple[int, ...] = (_KNOCK, _CUT)
        elif stage == "choose":
            self.legal = tuple(A.make(A.PACKET, i) for i in range(piles) if not taken >> i & 1)
        else:
            self.legal = ()
        self.after: dict[int, KnockState] = {}


_KNOCK, _CUT = A.make(A.KNOCK, 1), A.make(A.KNOCK, 0)
# the positions made at most (a knock of n piles has sum over k of n!/(n-k)! per choosing order): once this
# many are kept a step met for the first time is worked out and not kept
_BOUND = 1 << 14
_MADE = [0]
_ASK = KnockState(stage="ask")
_ASK.after[_CUT] = KnockState()          # a cut: the deal goes on as dealt


def seat_order(st: State, first: Any) -> tuple[int, ...]:
    """Every seat taking part once, in turn from `first` (the next seat taking part if it does not), worked
    out once per rule set, first seat and seats taking part. A first seat of none (`partner_of(dealer)` where
    nobody has a partner) starts from the first seat taking part after the dealer (docs/language.md, Totality)."""
    if first is None:
        first = st.seat_after(st.dealer)
    cache = st.R.memos.seat_orders
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
    has one (engine/backend.py: no activation to make), else with a new activation."""
    on_state = getattr(f, "on_state", None)
    return on_state(st) if on_state is not None else f(Ctx(st))


class KnockPhase(Phase):
    name = "knock"

    def start(self, st: State) -> bool:
        S = st.R.knock
        if not S.present:
            return False
        by = at_state(S.by, st)
        if by not in st.active:
            return False
        st.knock_state = _ASK
        st.to_act = by
        return True

    def legal(self, st: State) -> list[int]:
        return [*st.knock_state.legal]

    def apply(self, st: State, action: int) -> None:
        ks = st.knock_state
        nxt = ks.after.get(action)
        if nxt is None:
            nxt = _step(st, ks, action)
        st.knock_state = nxt
        seat = nxt.seat
        if seat >= 0:
            st.to_act = seat
            return
        st.to_act = -1
        st._advance()


def _step(st: State, ks: KnockState, action: int) -> KnockState:
    """The position a step leads to, kept where it follows from the position alone (a knock's piles follow
    from who chooses first, judged at the step, and the seats taking part: the first position after it is
    kept per rule set and those two)."""
    if action >> A.SHIFT == A.KNOCK:        # (a cut is kept at once: _ASK)
        first = at_state(st.R.knock.choose, st)
        if first is None:               # as seat_order: from the dealer's left, which the key must then name
            first = st.seat_after(st.dealer)
        roots = st.R.memos.knock_roots
        key = (first, st.active)
        nxt = roots.get(key)
        if nxt is None:
            order = seat_order(st, first)
            nxt = roots[key] = KnockState("choose", len(order), (), order)
        return nxt
    pile = action & A.ARG
    chosen = ks.chosen + ((ks.seat, pile),)
    nxt = KnockState("choose" if len(chosen) < len(ks.order) else "", ks.piles, chosen, ks.order,
                     ks.taken | 1 << pile)
    if _MADE[0] < _BOUND:
        _MADE[0] += 1
        ks.after[action] = nxt
    return nxt


def text(st: State, action: int) -> str:
    W = st.R.words
    if A.kind_of(action) == A.KNOCK:
        return W["knock"] if A.arg_of(action) else W["cut"]
    return f"{W['take']} {A.arg_of(action) + 1}"
