"""The duel auction (`auction.style = duels`): two seats at a time, middlehand to forehand, then rearhand to the survivor.

    auction { first = forehand  style = duels  hold { call = yes  who = true } }

The seats in turn from `first`: the first is bid to by the second, who calls (any call the raise rules
and `allowed` let follow the highest) or passes; the seat bid to answers with the hold call or passes.
Whoever passes leaves; the one left standing is then bid to by the next seat, and so on round the table.
The survivor of the last duel declares at the highest call bid or held (its holder). If nobody called at
all, the survivor may open once himself (a call, or a pass: everybody has passed).

The auction's state is the open auction's (phases/auction.py: the calls, the highest, its holder, who
passed), so everything that reads the auction reads a duel the same way; `pos` is the duel's bidder, the
seats before it in the order having been bid to: the one of them not passed is the seat bid to. Past
the last seat (`pos` = the number of seats) the survivor opens. The legal calls are worked out by the
open auction's rules for the bidder (without a hold) and for the seat bid to (a hold or a pass only);
the recording of a call is the open auction's; only who speaks next is the duel's own.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.engine import actions as A
from interpreter.engine.phases.auction import AuctionPhase
from interpreter.engine.phases.knock import at_state, seat_order

if TYPE_CHECKING:
    from interpreter.engine.phases.auction_state import AuctionState
    from interpreter.engine.state import State

_HOLD, _PASS = A.make(A.HOLD), A.make(A.PASS)


def bid_to(au: AuctionState) -> int | None:
    """The seat the current bidder bids to: the one before it in the order that has not passed."""
    for s in au.bid_order[:au.pos]:
        if not au.passed[s]:
            return s
    return None


class DuelsPhase(AuctionPhase):
    name = "auction"

    def start(self, st: State) -> bool:
        au = st.auction = st.auction.copy()     # the state's own (no positions are kept in a duel auction)
        au.key = None
        order = seat_order(st, at_state(st.R.auction.first, st))
        au.bid_order = list(order)
        au.pos = 1 if len(order) > 1 else len(order)
        st.to_act = order[au.pos] if au.pos < len(order) else order[0]
        return True

    def _bidding(self, st: State) -> bool:
        """Whether the seat to act bids (or opens) rather than answers."""
        au = st.auction
        return au.pos >= len(au.bid_order) or au.bid_order[au.pos] == st.to_act

    def legal(self, st: State) -> list[int]:
        out = super().legal(st)
        if self._bidding(st):
            return [a for a in out if a != _HOLD]
        return [a for a in out if a in (_HOLD, _PASS)]

    def apply(self, st: State, action: int) -> None:
        au = st.auction
        duel, bidding = au.pos, self._bidding(st)
        kind = action >> A.SHIFT
        if self._step(st, action):          # recorded as in the open auction, which ends it the same way
            self._finish(st)
            return
        au = st.auction
        au.pos = duel
        order = au.bid_order
        if duel >= len(order):              # the survivor's opening: one call or a pass ends the auction
            self._finish(st)
            return
        if bidding and kind != A.PASS:      # a call: the seat bid to answers
            st.to_act = bid_to(au)  # type: ignore[assignment]
            return
        if not bidding and kind == A.HOLD:  # held: the bidder goes on
            st.to_act = order[duel]
            return
        duel += 1                           # a pass ends the duel: the next seat bids to the one left
        au.pos = duel
        if duel < len(order):
            st.to_act = order[duel]
            return
        if au.high_call is not None:
            self._finish(st)
            return
        survivor = bid_to(au)               # nobody called: the survivor may open once
        if survivor is None:
            self._finish(st)
            return
        st.to_act = survivor


DUELS = DuelsPhase()
