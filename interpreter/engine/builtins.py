"""The implementation of every built-in name a rule expression may use, in one table per kind.

The vocabulary registry (interpreter/model/vocabulary.py) declares each name with its type, doc and
example; this module says how the engine computes it. The compiler (engine/compile.py) resolves a
name through these tables once, when a rule file is compiled. `interpreter.engine.implemented()` lists
what the engine implements from these tables and the phases' (values, functions, comprehensions, phases
and play obligations), so that a test can hold the registry and the engine in step both ways.

Values and functions take the activation `c` (engine/context.py) first: `c.st` is the game state,
`c.me`, `c.this` and `c.vars` the names bound for this evaluation.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import Any

from interpreter.engine import card_values, deals, figures, sides
from interpreter.registry import declare, reads


def num(v: Any) -> Any:
    """A value in arithmetic: none and false count 0, true 1."""
    if v is None or v is False:
        return 0
    if v is True:
        return 1
    return v


def mask_bits(mask: int) -> Iterator[int]:
    """The cards of a card mask, lowest first, each as a card (card_value): what a comprehension over a set of
    cards binds, so that `holds(me, c)` reads the card, not the bits of its index."""
    i = 0
    while mask:
        if mask & 1:
            yield card_value(i)
        mask >>= 1
        i += 1


@reads("isinstance", "int", "bool", "bin", "count", "len", mirrors=("SIZE_OF_TUPLE", "SIZE_ANY"))
def size(v: Any) -> int:
    if v is None:
        return 0
    if isinstance(v, int) and not isinstance(v, bool):
        return bin(v).count("1")
    return len(v)


@reads("min", "num", mirrors=("_of_nums",))
def _min(c: Any, *args: Any) -> Any:
    return min((num(a) for a in args), default=0)


@reads("max", "num", mirrors=("_of_nums",))
def _max(c: Any, *args: Any) -> Any:
    return max((num(a) for a in args), default=0)


@reads("int", "num")
def _floor(c: Any, x: Any) -> int:
    return int(num(x) // 1)


@reads("int", "num")
def _ceil(c: Any, x: Any) -> int:
    return -int(-num(x) // 1)


class CardValue(int):
    """One card as a value (its index) where a function may also take a set of cards as a mask, so that
    `dealt(active, called_card)` reads the card, not the bits of its index."""
    __slots__ = ()


# the values of the first cards, made once: a card value is a number like any other (never told apart by
# identity), so every reading of a card shares one
_CARD_VALUES = tuple(CardValue(i) for i in range(128))
_N_CARD_VALUES = len(_CARD_VALUES)


def card_value(card: int) -> CardValue:
    """The card (an index) as a value: one card, not a bitmask (a card code in an expression)."""
    return _CARD_VALUES[card] if 0 <= card < _N_CARD_VALUES else CardValue(card)


def as_mask(cards: Any) -> int:
    """A card set as a bitmask: a mask stays; one card (CardValue) or a list of card indices becomes one."""
    if cards is None or cards is False:
        return 0
    if isinstance(cards, CardValue):
        return 1 << int(cards)
    if isinstance(cards, int):
        return cards
    m = 0
    for c in cards:
        if isinstance(c, int) and not isinstance(c, bool) and c >= 0:
            m |= 1 << c
    return m


def _card_or_none(card: int | None) -> CardValue | None:
    if card is None:
        return None
    return _CARD_VALUES[card] if 0 <= card < _N_CARD_VALUES else CardValue(card)


def _trick_at(st: Any, n: Any) -> tuple | None:
    """Trick n of the deal (negative: from the end) as the play keeps it, (trick, winner); none if that
    trick was not played or n is no trick's number (a whole number, not a truth value)."""
    if type(n) is not int and (not isinstance(n, int) or isinstance(n, bool)):     # (an int: one test)
        return None
    history = st.play.history
    idx = n - 1 if n > 0 else len(history) + n
    return history[idx] if 0 <= idx < len(history) else None


def played_card(st: Any, seat: Any, n: Any) -> CardValue | None:
    """The card `seat` played to trick n (negative: from the end), none if it has not."""
    if type(n) is int:                  # _trick_at, without the call for a whole number
        history = st.play.history
        idx = n - 1 if n > 0 else len(history) + n
        if not 0 <= idx < len(history):
            return None
        played = history[idx]
    else:
        played = _trick_at(st, n)
        if played is None:
            return None
    for s, card in played[0]:
        if s == seat:
            return _CARD_VALUES[card] if 0 <= card < _N_CARD_VALUES else CardValue(card)
    return None


def holder_of(st: Any, card: Any) -> int | None:
    """The seat whose hand holds the card now (the first, for a group: any of its cards), none if no hand does."""
    mask = as_mask(card)
    if not isinstance(mask, int) or mask <= 0:
        return None
    for s, hand in enumerate(st.hands):
        if hand & mask:
            return s
    return None


def winning_card(st: Any, n: Any) -> CardValue | None:
    """The card that won trick n (negative: from the end), none if that trick was not played."""
    if type(n) is int:                  # as in played_card
        history = st.play.history
        idx = n - 1 if n > 0 else len(history) + n
        if not 0 <= idx < len(history):
            return None
        played = history[idx]
    else:
        played = _trick_at(st, n)
        if played is None:
            return None
    trick, winner = played
    for s, card in trick:
        if s == winner:
            return _CARD_VALUES[card] if 0 <= card < _N_CARD_VALUES else CardValue(card)
    return None


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
    "tricks_total": lambda c: deals.tricks_total(c.st),
    "team_tricks": lambda c: sum(c.st.play.tricks_won[s] for s in c.st.defenders),
    "turn": lambda c: len(c.st.auction.calls),
    "passes": lambda c: c.st.auction.passes,
    "bids": lambda c: sum(1 for _, call in c.st.auction.calls if call != "pass" and call not in c.st.R.auction.doubles),
    "kontra_level": lambda c: c.st.kontra.level,
    "double_level": lambda c: c.st.auction.doubled,
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
    "honours": lambda c: c.st.con.honours if c.st.con is not None else 0,
    # sides, the partner call, joining calls and the talon (engine/sides.py, engine/phases/*)
    "called_card": lambda c: _card_or_none(c.st.called_card),
    "base_bidder": lambda c: c.st.base_bidder,
    "base_contract": lambda c: c.st.base_con.ref if c.st.base_con is not None else None,
    "given_up": lambda c: c.st.given_up,
    # the declaration round (engine/phases/announce.py, engine/figures.py)
    "item": lambda c: c.vars.get("item"),
    # number bids and a card turned up after the deal (engine/phases/number_bids.py, engine/deals.py)
    "number_bid_total": lambda c: sum(v for v in c.st.number_bids if v is not None),
    "turned_up": lambda c: _card_or_none(deals.turned_up(c.st)),
    "talon_cards": card_values.talon_cards,
    "last_call": lambda c: _last_call(c.st.auction),
}


# What each value above written here reads of its activation `c` (interpreter/registry.Reads), declared beside
# it; the generator writes its template (the generator's VALUE_SOURCE entry of the same name) in its place only
# where the template reads the same. A value defined elsewhere (card_values.talon_cards) declares it there.
VALUE_READS: dict[str, tuple[str, ...]] = {
    "dealer": ("st.dealer",), "declarer": ("st.declarer",), "me": ("me",), "this": ("this",), "side": ("vars.get",),
    "holder": ("st.auction.holder",), "leader": ("st.play.leader",), "host": ("st.defence.host",),
    "guest": ("st.defence.guest",), "seats": ("tuple", "range", "st.n"), "players": ("st.R.players",),
    "active": ("st.active",), "defenders": ("st.defenders",), "declarers": ("st.declarers",),
    "playing": ("st.playing",), "pot": ("st.accounts.get",), "tricks_played": ("len", "st.play.history"),
    "trick_number": ("len", "st.play.history"), "tricks_total": ("deals.tricks_total", "st"),
    "team_tricks": ("sum", "st.defenders", "st.play.tricks_won"), "turn": ("len", "st.auction.calls"),
    "passes": ("st.auction.passes",), "bids": ("sum", "st.auction.calls", "st.R.auction.doubles"),
    "kontra_level": ("st.kontra.level",), "double_level": ("st.auction.doubled",),
    "deal_number": ("st.deal_number",), "made": ("st.made_in",), "invited": ("st.defence.invited",),
    "compulsory": ("st.defence.compulsory",), "all_passed": ("st.all_passed",), "high": ("st.high",),
    "final": ("st.final",), "contract": ("st.contract",), "trump": ("st.trump",), "pass": ("st.R.auction.pass_ref",),
    "honours": ("st.con.honours",), "called_card": ("_card_or_none", "st.called_card"),
    "base_bidder": ("st.base_bidder",), "base_contract": ("st.base_con.ref",),
    "given_up": ("st.given_up",), "item": ("vars.get",), "number_bid_total": ("sum", "st.number_bids"),
    "turned_up": ("_card_or_none", "deals.turned_up", "st"), "last_call": ("_last_call", "st.auction"),
}
for _name, _paths in VALUE_READS.items():
    declare(VALUES[_name], *_paths)


def _last_call(au: Any) -> Any:
    """The call just made in the auction, pass included: the latest call of the seat that spoke last."""
    return au.latest[au.calls[-1][0]] if au.calls else None


def _in_trick(st: Any, cards: Any) -> bool:
    """Every given card lies in the current trick (the one being played)."""
    want = as_mask(cards)
    if not want:
        return False
    m = 0
    for _, card in st.trick or ():
        m |= 1 << card
    return m & want == want


def _trick_of(st: Any, card: Any) -> int | None:
    """The number of the complete trick the card was played to, none if it has not been."""
    if not isinstance(card, int) or isinstance(card, bool):
        return None
    for n, (trick, _) in enumerate(st.play.history, 1):
        for _, c in trick:
            if c == card:
                return n
    return None

def _points(c: Any, x: Any) -> Any:
    """The card points of a seat or side; while settlement rows are evaluated (the state does not change
    then) each seat's or side's once, in the rows' memo: the rows and the figures' goals ask again."""
    cache = c.cache
    if cache is None or not (type(x) is int or type(x) is tuple):
        return c.st.points(x)
    key = ("points", x)
    if key in cache:
        return cache[key]
    value = cache[key] = c.st.points(x)
    return value


def _punits(c: Any, x: Any) -> Any:
    """points(x) in the rule set's point units (readings.point_units), as generated comparisons of points
    read it; while settlement rows are evaluated each seat's or side's once, in the rows' memo, under the
    seat or side itself (the memo's other keys are strings and tuples that start with one)."""
    cache = c.cache
    if cache is None or not (type(x) is int or type(x) is tuple):
        return c.st.point_units(x)
    got = cache.get(x)
    if got is None:
        got = cache[x] = c.st.point_units(x)
    return got


# name -> function of (activation, arguments…)
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "next": lambda c, s: c.st.next(s),
    "prev": lambda c, s: c.st.prev(s),
    "order": lambda c, s: c.st.order_of(s),
    "partner_of": lambda c, s: sides.partner_of(c.st, s),
    "opponents_of": lambda c, s: c.st.opponents_of(s),
    "tricks": lambda c, x: c.st.tricks(x),
    "points": lambda c, x: _points(c, x),
    "captured": lambda c, x, cards: c.st.captured(x, as_mask(cards)),
    "holds": lambda c, s, cards: c.st.holds(s, as_mask(cards)),
    "dealt": lambda c, x, cards: c.st.dealt(x, as_mask(cards)),
    "count_in": lambda c, cards, s: c.st.count_in(as_mask(cards), s),
    "holder_of": lambda c, card: holder_of(c.st, card),
    "played_card": lambda c, s, n: played_card(c.st, s, n),
    "winning_card": lambda c, n: winning_card(c.st, n),
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
    "partnered": lambda c, a, b: c.st.table is not None and c.st.table.partnered_seats(c.st, a, b),
    "number_bid": lambda c, s: c.st.number_bids[s] if isinstance(s, int) and s < len(c.st.number_bids) else None,
    # values from the cards, suits as the contract's ranking sees them (engine/card_values.py)
    "suit_of": card_values.suit_of,
    "dealt_cards": card_values.dealt_cards,
    "talon_place": card_values.talon_place,
    "points_of": lambda c, cards: card_values.points_of(c, as_mask(cards)),
    "top_run": lambda c, cards: card_values.top_run(c, as_mask(cards)),
    "in_suit": card_values.in_suit,
    "led_before": card_values.led_before,
    # figures and the kontra chains of the declaration round (engine/figures.py)
    "declared": lambda c, f: figures.declared(c.st, f),
    "declared_by": lambda c, f, x: figures.declared_by(c.st, f, x),
    "declarations": lambda c, s: figures.declarations(c.st, s),
    "achieved": figures.achieved,
    "attempted": figures.attempted,
    "kontras": lambda c, item: figures.kontras(c.st, item),
    "kontras_between": lambda c, p, s: figures.kontras_between(c.st, p, s),
    "kontras_by": lambda c, s: figures.kontras_by(c.st, s),
    "passed": lambda c, s: figures.passed(c.st, s),
    # decisions (engine/phases/choice.py)
    "chose": lambda c, name: c.st.chosen.get(name),
    "in_trick": lambda c, cards: _in_trick(c.st, cards),
    "trick_of": lambda c, card: _trick_of(c.st, card),
}

# What each function above written here reads (interpreter/registry.Reads), declared beside it as for the
# values (VALUE_READS; its template: the generator's FUNCTION_SOURCE entry). One defined elsewhere (card_values,
# figures' questions, min and max above) declares it there.
FUNCTION_READS: dict[str, tuple[str, ...]] = {
    "next": ("st.next",), "prev": ("st.prev",), "order": ("st.order_of",), "partner_of": ("sides.partner_of", "st"),
    "opponents_of": ("st.opponents_of",), "tricks": ("st.tricks",), "points": ("_points",),
    "captured": ("st.captured", "as_mask"), "holds": ("st.holds", "as_mask"), "dealt": ("st.dealt", "as_mask"),
    "count_in": ("st.count_in", "as_mask"), "holder_of": ("holder_of", "st"), "played_card": ("played_card", "st"),
    "winning_card": ("winning_card", "st"), "won_trick": ("st.won_trick",), "trick_winner": ("st.trick_winner",),
    "first_call": ("st.first_call",), "first_bid": ("st.first_bid",), "latest": ("st.latest",),
    "has_bid": ("st.has_bid",), "spoke": ("st.spoke",), "went_along": ("st.playing",), "account": ("st.account",),
    "abs": ("abs", "num"), "size": ("size",), "partnered": ("st.table.partnered_seats", "st"),
    "number_bid": ("isinstance", "int", "len", "st.number_bids"), "points_of": ("card_values.points_of", "as_mask"),
    "top_run": ("card_values.top_run", "as_mask"), "declared": ("figures.declared", "st"),
    "declared_by": ("figures.declared_by", "st"), "declarations": ("figures.declarations", "st"),
    "kontras": ("figures.kontras", "st"), "kontras_between": ("figures.kontras_between", "st"),
    "kontras_by": ("figures.kontras_by", "st"), "passed": ("figures.passed", "st"), "chose": ("st.chosen.get",),
    "in_trick": ("_in_trick", "st"), "trick_of": ("_trick_of", "st"),
}
for _name, _paths in FUNCTION_READS.items():
    declare(FUNCTIONS[_name], *_paths)

# What each built-in reads of the activation besides the state, `me` and `this` (engine/context.Ctx), as
# it declares it: the names bound in `c.vars` it reads, or HANDS_ON where it hands the activation on to
# a compiled expression (a contract's goal, a figure's question), which reads at most TOP. A built-in not
# named here reads nothing else. The code generator (its reads module) and the auction's conditions
# (phases/conditions.py) rely on it: the generator's template tests hold it against what they give.
HANDS_ON = None
READS: dict[str, frozenset[str] | None] = {
    "side": frozenset({"side"}),
    "item": frozenset({"item"}),
    "made": HANDS_ON,
    "points": HANDS_ON,
    "achieved": HANDS_ON,
    "attempted": HANDS_ON,
}
# the names compiled code outside any scope may read from an activation: `s` and `t` (read from it
# wherever they appear) and the names the built-ins read
TOP: frozenset[str] = frozenset({"s", "t"}).union(*(r for r in READS.values() if r is not None))


def reads_state_only(name: str) -> bool:
    """True where the built-in value or function `name` reads nothing of the activation but the state, `me`
    and `this` (as READS declares it)."""
    return name not in READS


# comprehension form -> reduction of the (member, body value) pairs of the members that pass the filter
COMPREHENSIONS: dict[str, Callable[[Iterable[tuple[Any, Any]]], Any]] = {
    "sum": lambda pairs: sum((num(v) for _, v in pairs), 0),
    "count": lambda pairs: sum(1 for _, v in pairs if v),
    "any": lambda pairs: any(v for _, v in pairs),
    "all": lambda pairs: all(v for _, v in pairs),
    "min": lambda pairs: min((num(v) for _, v in pairs), default=0),
    "max": lambda pairs: max((num(v) for _, v in pairs), default=0),
    # a member is kept when the body is the member itself (seat 0 included) or a true condition
    "set": lambda pairs: tuple(m for m, v in pairs if v is m or v is True or (not isinstance(v, bool) and v)),
}
# what each reduction reads (interpreter/registry.Reads): the generator writes its loop instead
# (the generator's REDUCTIONS) where that reads the same
for _name, _paths in {"sum": ("sum", "num"), "count": ("sum",), "any": ("any",), "all": ("all",), "min": ("min", "num"),
                      "max": ("max", "num"), "set": ("tuple", "isinstance", "bool")}.items():
    declare(COMPREHENSIONS[_name], *_paths, mirrors=("REDUCTIONS",))


def card_union(a: Any, b: Any) -> int:
    """`+` of two sets of cards (a card counts as a set of one): their union, as a mask."""
    return as_mask(a) | as_mask(b)


__all__ = ["VALUES", "FUNCTIONS", "COMPREHENSIONS", "READS", "TOP", "num", "size", "mask_bits", "Fraction"]
