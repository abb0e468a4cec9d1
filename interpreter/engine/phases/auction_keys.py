"""The key of the calls allowed in a positional auction (AuctionSettings.positional): the parts of the auction's
state that its conditions and AuctionPhase.legal read, so that auctions reaching the same such parts by
different calls share one answer (AuctionSettings.legal_memo).

The position (AuctionState.key: where the auction started and every call since) decides the calls allowed,
but it tells apart auctions that differ only in what nothing reads: in a random auction of a dozen calls most
positions are met once, while the few things the conditions read (the highest call, the holder, how many
have passed, whether the seat to call has spoken) take few values. Each built-in a positional condition may
read (auction_plans.POSITION_VALUES, POSITION_FUNCTIONS) is mapped here to what it reads of the auction's
state; a condition that reads the built-in, itself or through its lets, puts that part in the key. The seat
to call, the dealer (the seats taking part, their order and roles follow from it), the highest call, the
holder and the calls on the highest bid are always in it (legal() reads them itself; the calls and refs
by identity: they live as long as the compiled rules that keep the memo). Sealed calls (a
contest) read more: an auction with any keeps the position as its key."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import repeat
from operator import attrgetter, is_not
from typing import TYPE_CHECKING, Any

from interpreter.engine.phases.conditions import reads

if TYPE_CHECKING:
    from interpreter.engine.phases.auction_state import AuctionState
    from interpreter.engine.state import State
    from interpreter.model.nodes import Node


def _spoken(calls: list) -> tuple:
    """Per seat, whether it has a call there (`x is not None` of each, in one map)."""
    return tuple(map(is_not, calls, _NONE))


_NONE = repeat(None)


def _ids(calls: list) -> tuple:
    """The calls (refs, or None) by identity: a call's ref and a contract's of the same name are equal strings."""
    return tuple(map(id, calls))


# what each built-in reads of the auction's state: a part of the key, or None where the seat to call and the
# dealer decide it (they are always in the key) or nothing of the auction's state does
_PARTS: dict[str, Callable[[AuctionState], Any] | None] = {
    # values
    "dealer": None, "me": None, "this": None, "side": None, "item": None, "seats": None, "players": None,
    "active": None, "pass": None, "high": None, "holder": None, "double_level": None,
    "turn": lambda au: len(au.calls),
    "passes": attrgetter("passes"),
    "bids": lambda au: tuple(au.calls),        # (seat, label) pairs
    "last_call": lambda au: tuple(au.calls),
    # functions
    "next": None, "prev": None, "order": None, "min": None, "max": None, "abs": None, "floor": None,
    "ceil": None, "size": None, "suit_of": None,
    "first_call": lambda au: _ids(au.first_call),
    "first_bid": lambda au: _ids(au.first_bid),
    "latest": lambda au: _ids(au.latest),
    "has_bid": lambda au: _spoken(au.first_bid),
    "spoke": lambda au: _spoken(au.first_call),
}


def legal_key(trees: list[Node], bodies: Mapping[str, Node], values: frozenset, functions: frozenset,
              contest: bool) -> Callable[[State], tuple] | None:
    """The key function of the calls allowed, for an auction whose conditions (`trees`; `bodies`: the lets'
    bodies, compile.Compiler.let_bodies) read no more than the built-in `values` and `functions`; None where
    there is none (a sealed call, or a built-in this module does not know)."""
    if contest or not set(values) | set(functions) <= set(_PARTS):
        return None
    getters = tuple(dict.fromkeys(g for name, g in _PARTS.items()
                                  if g is not None and any(reads(tree, name, bodies) for tree in trees)))

    # (one key function per number of parts: no loop over them on every call)
    if not getters:
        def key(st: State) -> tuple:
            au = st.auction
            return (st.to_act, st.dealer, id(au.high_call), au.holder, au.doubled, au.doubler)
    elif len(getters) == 1:
        (g1,) = getters

        def key(st: State) -> tuple:
            au = st.auction
            return (st.to_act, st.dealer, id(au.high_call), au.holder, au.doubled, au.doubler, g1(au))
    elif len(getters) == 2:
        g1, g2 = getters

        def key(st: State) -> tuple:
            au = st.auction
            return (st.to_act, st.dealer, id(au.high_call), au.holder, au.doubled, au.doubler, g1(au), g2(au))
    else:
        def key(st: State) -> tuple:
            au = st.auction
            return (st.to_act, st.dealer, id(au.high_call), au.holder, au.doubled, au.doubler,
                    *[g(au) for g in getters])
    return key
