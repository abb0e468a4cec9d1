"""Calls on the highest bid inside the auction, and the declarer named by a field of the calls.

`auction.doubles = [double, redouble]` gives calls that are made on the highest bid, in the auction's own
rotation: the first (`double`) by an opponent of the seat that made the bid, each later one by an opponent
of the seat that made the one before (`redouble`: the bidder's side answers), each only while the bid
stands with the one before it and nothing after (a new bid makes them void). `double_level` reads how many
stand on the bid: 0 none, 1 doubled, 2 redoubled. Opponents are seats of different partnerships
(`seating.teams`); without teams every other seat is an opponent.

`auction.declarer_by = strain` names the declarer by a field of the calls: of the side of the seat holding
the final bid, the first seat whose bid had the final bid's value of that field (a strain ladder: the first
player of the side to name the final strain). Without it the seat holding the final bid declares.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A

if TYPE_CHECKING:
    from interpreter.engine.phases.auction_state import AuctionState
    from interpreter.engine.state import State

__all__ = ["legal", "apply", "declarer_by", "opponents"]


def opponents(st: State, a: int, b: int) -> bool:
    """Seats a and b are on different sides: different partnerships, or any two seats without teams."""
    if a == b:
        return False
    team = st.teams.get(a)
    return team is None or b not in team


def legal(st: State, me: int) -> list[int]:
    """The calls on the highest bid `me` may make now (none without `auction.doubles`)."""
    names = st.R.auction.doubles
    au = st.auction
    if not names or au.high_call is None or au.doubled >= len(names):
        return []
    last = au.doubler if au.doubled else au.holder
    if last is None or not opponents(st, me, last):
        return []
    return [A.make(A.DOUBLE, au.doubled + 1)]


def apply(au: AuctionState, me: int, level: int, ref: Any) -> None:
    """`me` made the call of this level on the highest bid (the auction's state is the step's own copy;
    its lists are replaced, never written in place)."""
    au.doubled = level
    au.doubler = me
    latest = au.latest = au.latest.copy()
    latest[me] = ref
    if au.first_call[me] is None:
        first = au.first_call = au.first_call.copy()
        first[me] = ref


def declarer_by(st: State, field: str) -> int | None:
    """Of the side holding the final bid, the first seat whose bid had the final bid's value of `field`."""
    au = st.auction
    high, holder = au.high_call, au.holder
    if high is None or holder is None:
        return holder
    from interpreter.engine.compile import attr

    want = attr(high.ref, field)
    side = st.teams.get(holder, (holder,))
    by_name = st.R.call_by_name
    for seat, label in au.calls:
        if seat in side:
            call = by_name.get(label)
            if call is not None and attr(call.ref, field) == want:
                return seat
    return holder
