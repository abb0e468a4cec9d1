"""The implementation of every built-in name a rule expression may use, in one table per kind.

The vocabulary registry (interpreter/model/vocabulary.py) declares each name with its type, doc and
example; this module says how the engine computes it. The compiler (engine/compile.py) resolves a
name through these tables once, when a rule file is compiled. `implemented()` lists what the engine
implements — values, functions, comprehensions, phases and play obligations — read from the real
dispatch tables, so that a test can hold the registry and the engine in step both ways.

Values and functions take the activation `c` (engine/context.py) first: `c.st` is the game state,
`c.me`, `c.this` and `c.vars` the names bound for this evaluation.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import Any


def num(v: Any) -> Any:
    """A value in arithmetic: none and false count 0, true 1."""
    if v is None or v is False:
        return 0
    if v is True:
        return 1
    return v


def mask_bits(mask: int) -> Iterator[int]:
    i = 0
    while mask:
        if mask & 1:
            yield i
        mask >>= 1
        i += 1


def size(v: Any) -> int:
    if v is None:
        return 0
    if isinstance(v, int) and not isinstance(v, bool):
        return bin(v).count("1")
    return len(v)


def _min(c: Any, *args: Any) -> Any:
    return min((num(a) for a in args), default=0)


def _max(c: Any, *args: Any) -> Any:
    return max((num(a) for a in args), default=0)


def _floor(c: Any, x: Any) -> int:
    return int(num(x) // 1)


def _ceil(c: Any, x: Any) -> int:
    return -int(-num(x) // 1)


Value = Callable[[Any], Any]

# name -> value, read from the activation
VALUES: dict[str, Value] = {
    "dealer": lambda c: c.st.dealer,
    "declarer": lambda c: c.st.declarer,
    "me": lambda c: c.me,
    "this": lambda c: c.this,
    "side": lambda c: c.vars.get("side", ()),
    "holder": lambda c: c.st.auction.holder,
    "leader": lambda c: c.st.play.leader,
    "host": lambda c: c.st.defence.host,
    "guest": lambda c: c.st.defence.guest,
    "seats": lambda c: tuple(range(c.st.n)),
    "players": lambda c: c.st.R.players,
    "active": lambda c: c.st.active,
    "defenders": lambda c: c.st.defenders,
    "declarers": lambda c: c.st.declarers,
    "playing": lambda c: c.st.playing,
    "pot": lambda c: c.st.accounts.get("pot", 0),
    "tricks_played": lambda c: len(c.st.play.history),
    "trick_number": lambda c: len(c.st.play.history) + 1,
    "tricks_total": lambda c: c.st.R.rs.hand_size,
    "team_tricks": lambda c: sum(c.st.play.tricks_won[s] for s in c.st.defenders),
    "turn": lambda c: len(c.st.auction.calls),
    "passes": lambda c: c.st.auction.passes,
    "bids": lambda c: sum(1 for _, call in c.st.auction.calls if call != "pass"),
    "kontra_level": lambda c: c.st.kontra.level,
    "deal_number": lambda c: c.st.deal_number,
    "made": lambda c: c.st.made_in(c),
    "invited": lambda c: c.st.defence.invited,
    "compulsory": lambda c: c.st.defence.compulsory,
    "all_passed": lambda c: c.st.all_passed,
    "high": lambda c: c.st.high,
    "final": lambda c: c.st.final,
    "contract": lambda c: c.st.contract,
    "trump": lambda c: c.st.trump,
    "pass": lambda c: c.st.R.auction.pass_ref,
}

# name -> function of (activation, arguments…)
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "next": lambda c, s: c.st.next(s),
    "prev": lambda c, s: c.st.prev(s),
    "order": lambda c, s: c.st.order_of(s),
    "partner_of": lambda c, s: None,
    "opponents_of": lambda c, s: c.st.opponents_of(s),
    "tricks": lambda c, x: c.st.tricks(x),
    "points": lambda c, x: c.st.points(x),
    "captured": lambda c, x, cards: c.st.captured(x, cards),
    "holds": lambda c, s, cards: c.st.holds(s, cards),
    "dealt": lambda c, x, cards: c.st.dealt(x, cards),
    "count_in": lambda c, cards, s: c.st.count_in(cards, s),
    "won_trick": lambda c, x, n: c.st.won_trick(x, n),
    "trick_winner": lambda c, n: c.st.trick_winner(n),
    "first_call": lambda c, s: c.st.first_call(s),
    "first_bid": lambda c, s: c.st.first_bid(s),
    "latest": lambda c, s: c.st.latest(s),
    "has_bid": lambda c, s: c.st.has_bid(s),
    "spoke": lambda c, s: c.st.spoke(s),
    "went_along": lambda c, s: s in c.st.playing,
    "account": lambda c, name, *keys: c.st.account(name, *keys),
    "min": _min,
    "max": _max,
    "abs": lambda c, x: abs(num(x)),
    "floor": _floor,
    "ceil": _ceil,
    "size": lambda c, x: size(x),
}

# comprehension form -> reduction of the (member, body value) pairs of the members that pass the filter
COMPREHENSIONS: dict[str, Callable[[Iterable[tuple[Any, Any]]], Any]] = {
    "sum": lambda pairs: sum((num(v) for _, v in pairs), 0),
    "count": lambda pairs: sum(1 for _, v in pairs if v),
    "any": lambda pairs: any(v for _, v in pairs),
    "all": lambda pairs: all(v for _, v in pairs),
    "min": lambda pairs: min((num(v) for _, v in pairs), default=0),
    "max": lambda pairs: max((num(v) for _, v in pairs), default=0),
    "set": lambda pairs: tuple(m for m, v in pairs if v),
}


def implemented() -> dict[str, set[str]]:
    """What the engine implements, by kind: read from the dispatch tables the engine really uses."""
    from interpreter.engine.phases import PHASES
    from interpreter.engine.phases.play import OBLIGATIONS

    return {
        "value": set(VALUES),
        "function": set(FUNCTIONS),
        "comprehension": set(COMPREHENSIONS),
        "phase": set(PHASES),
        "obligation": set(OBLIGATIONS),
    }


__all__ = ["VALUES", "FUNCTIONS", "COMPREHENSIONS", "implemented", "num", "size", "mask_bits", "Fraction"]
