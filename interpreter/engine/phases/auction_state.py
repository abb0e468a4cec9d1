"""The state of one deal's auction (phases/auction.py runs it)."""
from __future__ import annotations

from dataclasses import InitVar, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.engine.rules import CallRT
    from interpreter.engine.state import State


@dataclass(slots=True)
class AuctionState:
    """The auction of one deal. Its lists and dict are never changed in place: a change puts a new one in
    their place (AuctionPhase.apply), so a copy shares them and copy() is one copy of the attributes. Where
    the steps are kept (AuctionSettings.steps) the state a step leads to is kept, and shared with every deal
    that takes the same step: one with a position (key) may be one kept, which nothing writes (a step worked
    out writes a copy); one without is the state's own."""
    n: InitVar[int]                                    # the seats: the length of the per-seat lists
    calls: list = field(default_factory=list)          # (seat, label) in order
    bid_order: list[int] = field(default_factory=list)
    pos: int = 0
    high_call: CallRT | None = None
    holder: int | None = None
    contest: list[int] = field(default_factory=list)   # seats of sealed bidders in the current contest
    reveals: dict = field(default_factory=dict)        # seat -> contract name
    best: tuple | None = None                          # (seat, contract name) best revealed
    passes: int = 0                                    # seats that passed or are excluded
    passed: list[bool] = field(default_factory=list)
    excluded: list[bool] = field(default_factory=list)
    first_call: list = field(default_factory=list)
    first_bid: list = field(default_factory=list)
    latest: list = field(default_factory=list)
    base: tuple | None = None                          # (seat, call name) the highest call joins
    doubled: int = 0                                   # calls on the highest bid (auction.doubles) standing
    doubler: int | None = None                         # … the seat that made the last of them
    # the position: where the auction started (dealer, seats taking part, bid order) and every action since,
    # numbered (AuctionSettings.positions); a seat excluded is one more step. The calls allowed are a
    # function of it where the rules' conditions read nothing else (AuctionSettings.positional); else None
    key: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self, n: int) -> None:
        if not self.passed:
            self.passed, self.excluded = [False] * n, [False] * n
            self.first_call, self.first_bid, self.latest = [None] * n, [None] * n, [None] * n

    def copy(self) -> AuctionState:
        new = _new(AuctionState)
        new.calls = self.calls
        new.bid_order = self.bid_order
        new.pos = self.pos
        new.high_call = self.high_call
        new.holder = self.holder
        new.contest = self.contest
        new.reveals = self.reveals
        new.best = self.best
        new.passes = self.passes
        new.passed = self.passed
        new.excluded = self.excluded
        new.first_call = self.first_call
        new.first_bid = self.first_bid
        new.latest = self.latest
        new.base = self.base
        new.doubled = self.doubled
        new.doubler = self.doubler
        new.key = self.key
        return new


_new = object.__new__


def own_auction(st: State) -> AuctionState:
    """The auction's state to write from outside its own steps (a scenario's stated outcome, a test): a copy
    that is the state's own, at no position its actions made (AuctionState.key None: nothing kept applies)."""
    au = st.auction = st.auction.copy()
    au.key = None
    return au
