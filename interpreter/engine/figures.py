"""Figures: side goals besides the game, made silently or declared in the declaration round
(engine/phases/announce.py), each with its own kontra chain, and the questions settlement asks of
them (`declared`, `declared_by`, `achieved`, `attempted`, `kontras`, …).

A figure's `goal` and `attempt` are expressions judged with `side` bound to the seats being judged.
A figure counts only in a contract that lists it in its `figures` and, when it has one, under its
own `allowed`. What the declaration round recorded lives in `st.announce` (declared figures by seat,
kontra chains by item); an outcome-only deal may state which side made or attempted a figure
instead of playing it out (`st.announce.given`). A figure's `card` is a card, or an expression that
gives it in each deal (`card = called_card`, worked out by `card_of`).
"""
from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.registry import reads

if TYPE_CHECKING:
    from interpreter.engine.state import State
    from interpreter.model.game import Figure

Fn = Callable[[Any], Any]

GAME = "@game"      # the chain key of the game of the declarer when chains are side-wide


@dataclass(frozen=True)
class FigureRT:
    name: str
    index: int
    ref: Any                    # a Ref carrying the figure's record (`.silent`, `.declared`, …)
    goal: Fn
    attempt: Fn | None
    allowed: Fn | None
    card: int                   # the card the figure is made with, -1 if none
    trick: int                  # the trick it must be made in (negative: from the end), 0 if none
    multiplier: bool            # multiplies the game instead of being paid apart
    by_holder: bool = False     # `by = holder`: only a seat holding the figure's card may declare it
    card_expr: Fn | None = None  # `card = EXPR` (`called_card`): the card, worked out in the deal (card_of)
    decides: bool = False       # `decides`: declared, the figure decides whether the game is made (game_made)


def refs(figures: tuple[Figure, ...], make_ref: Callable[[str, Any, str], Any]) -> dict[str, Any]:
    """The figures' names as symbols of the expression language, each carrying its record."""
    return {f.name: make_ref(f.name, f.fields, "figure") for f in figures}


def compile_figures(figures: tuple[Figure, ...], x: Callable[[Any], Fn], figure_refs: dict[str, Any],
                    card_index: dict[str, int]) -> dict[str, FigureRT]:
    """The figures compiled for play, each expression by `x` (the compiler's `text`)."""
    out: dict[str, FigureRT] = {}
    for i, f in enumerate(figures):
        card = f.card
        out[f.name] = FigureRT(
            name=f.name, index=i, ref=figure_refs[f.name], goal=x(f.goal),
            attempt=x(f.attempt) if f.attempt is not None else None,
            allowed=x(f.allowed) if f.allowed is not None else None,
            card=card_index.get(str(card), -1) if card is not None else -1,
            trick=f.trick, multiplier=f.multiplier, by_holder=f.by_holder,
            card_expr=x(card) if isinstance(card, str) and str(card) not in card_index else None,
            decides=f.decides)
    return out


def game_made(goal: Fn, deciders: tuple[FigureRT, ...], can_give_up: bool) -> Fn:
    """Whether the declaring side has made its game: the one reading of `made` that the settlement, the
    result and every table read. A game given up (or lost at once by a talon's `requires`) is lost; a
    declared figure that `decides` the game decides it: declared by the declaring side, the game is made
    exactly when the figure is; declared by the other side, exactly when that side fails to make it
    (a declared valat). Otherwise the contract's `goal` decides. `goal` itself where nothing can change it."""
    if not deciders and not can_give_up:
        return goal

    def made(c: Ctx) -> Any:
        st = c.st
        if st.given_up:
            return False
        declared = st.announce.declared
        if declared:
            for fig in deciders:
                seat = declared.get(fig.name)
                if seat is None:
                    continue
                if seat in st.declarers:
                    return achieved(c, fig.name, tuple(st.declarers))
                return not achieved(c, fig.name, tuple(st.defenders))
        return goal(c)
    return made


def card_of(st: State, fig: FigureRT) -> int:
    """The card the figure is made with in this deal: its `card`, or what `card = EXPR` gives now
    (the called king for kung ultimo); -1 if none."""
    if fig.card >= 0 or fig.card_expr is None:
        return fig.card
    value = fig.card_expr(Ctx(st))
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else -1


def allowed(c: Ctx, fig: FigureRT) -> bool:
    """The contract being played lists the figure, and the figure's own `allowed` holds."""
    con = c.st._con
    if con is None or fig.name not in con.figures:
        return False
    check = fig.allowed
    return check is None or bool(check(c))


def _judge(c: Ctx, fn: Fn, side: tuple[int, ...]) -> bool:
    env = c.vars
    if not env:     # nothing else bound: the activation itself, rebound, reads exactly what a new one would
        env["side"] = side
        try:
            return bool(fn(c))
        finally:
            env.clear()
    sub = Ctx(c.st, c.me, c.this, c.cache)
    sub.vars["side"] = side
    return bool(fn(sub))


@reads("allowed", "getattr", "bool", "vars", "_judge", "clear", mirrors=("figure_question",))
def _made(c: Ctx, fig: FigureRT, fn: Fn, side: tuple[int, ...]) -> bool:
    """The figure's own `allowed` holds and `fn` holds for the side (the contract lists the figure: asked
    before): achieved's and attempted's judgement. No memo: a settlement asks each figure once for a side
    (its rows read the lets that ask through locals or the lets' memo), so a key made and looked up at
    every question found nothing."""
    check = fig.allowed
    if check is not None and not check(c):
        return False
    of_side = getattr(fn, "of_side", None)
    if of_side is not None:         # the backend's, given the side (engine/backend.py)
        made = of_side(c, side)
        return made if made is True or made is False else bool(made)
    env = c.vars
    if env:
        return _judge(c, fn, side)
    env["side"] = side              # _judge, without the call
    try:
        return bool(fn(c))
    finally:
        env.clear()


def _side(st: State, x: Any) -> tuple[int, ...]:
    """The seat or side `x` as the figures are judged for it: a tuple of seats, in order."""
    t = type(x)
    if t is int:
        return (x,)
    if t is tuple:
        n = len(x)
        if n < 2:
            return x
        if n == 2:
            a, b = x
            return x if a < b else (b, a)
        if n == 3:
            a, b, d = x
            if a < b < d:
                return x
    return tuple(sorted(st._seats_of(x)))


def _figure(con: Any, f: Any) -> FigureRT | None:
    """The figure `f` among those the contract lists: looked up as its name (a figure's Ref is a string)."""
    return con.figures.get(f if isinstance(f, str) else str(f))


@reads("st._con", "figures.get", "isinstance", "str", "_figure", "type", "tuple", "len", "_side", "announce.given", "get", "name", "allowed", "bool", "set", "_made", "goal", mirrors=("figure_question",))
def achieved(c: Ctx, f: Any, x: Any) -> bool:
    """The figure is allowed in this contract and its goal holds for the seat or side `x`."""
    st = c.st
    con = st._con                   # the figure, among those the contract lists (allowed)
    if con is None or f is None:
        return False
    # a figure's name or Ref (a string) is its key; anything else is looked up as its text (_figure)
    fig = con.figures.get(f)
    if fig is None and (isinstance(f, str) or (fig := _figure(con, f)) is None):
        return False                # not a figure the contract lists (or no contract): not made (nothing
        #                             to judge or keep)
    # _side, without the call for a side of up to three seats in order (the common case)
    side = x if type(x) is tuple and ((n := len(x)) < 2 or (x[0] < x[1] if n == 2 else n == 3 and x[0] < x[1] < x[2])) \
        else _side(st, x)
    given = st.announce.given
    if given is not None:
        made = given.get("made", {}).get(fig.name)
        return allowed(c, fig) and made is not None and bool(set(made) & set(side))
    return _made(c, fig, fig.goal, side)


@reads("st._con", "figures.get", "isinstance", "str", "_figure", "attempt", "announce.given", "announce.declared", "get", "name", "type", "tuple", "_seats_of", "len", "_side", "allowed", "bool", "set", "_made", mirrors=("figure_question",))
def attempted(c: Ctx, f: Any, x: Any) -> bool:
    """A silent attempt: the figure is allowed, `x` did not declare it, and its `attempt` holds."""
    st = c.st
    con = st._con                   # the figure, among those the contract lists (allowed)
    if con is None or f is None:
        return False
    fig = con.figures.get(f)        # as in achieved
    if fig is None and (isinstance(f, str) or (fig := _figure(con, f)) is None):
        return False                # not a figure the contract lists (or no contract): not attempted
    attempt = fig.attempt
    given = st.announce.given
    if attempt is None and given is None:       # no attempt to judge (declared_by changes nothing)
        return False
    declared = st.announce.declared
    if declared:                    # declared_by, without the call
        seat = declared.get(fig.name)
        if seat is not None and (seat in x if type(x) is tuple else seat in st._seats_of(x)):
            return False
    side = x if type(x) is tuple and ((n := len(x)) < 2 or (x[0] < x[1] if n == 2 else n == 3 and x[0] < x[1] < x[2])) \
        else _side(st, x)           # as in achieved
    if given is not None:
        tried = given.get("attempted", {}).get(fig.name)
        return allowed(c, fig) and tried is not None and bool(set(tried) & set(side))
    assert attempt is not None      # judged above: no given outcome, an attempt to judge
    return _made(c, fig, attempt, side)


_NOTHING_LISTED: Any = types.MappingProxyType({})


@reads("_con.figures", "_NOTHING_LISTED", mirrors=("figure_question",))
def listed(st: State) -> Any:
    """The figures the contract being played lists, by name (none without a contract): achieved and
    attempted of any other figure are false. A backend's figure questions read it."""
    con = st._con
    return con.figures if con is not None else _NOTHING_LISTED


def declared(st: State, f: Any) -> bool:
    return str(f) in st.announce.declared


@reads("announce.declared", "get", "isinstance", "str", "type", "tuple", "int", "_seats_of", mirrors=("INLINE", "EARLY"))
def declared_by(st: State, f: Any, x: Any) -> bool:
    declared = st.announce.declared
    if not declared:                # nothing declared (most deals)
        return False
    seat = declared.get(f if isinstance(f, str) else str(f))
    if seat is None:
        return False
    t = type(x)
    if t is tuple:
        return seat in x
    if t is int:                    # a seat (a bird's declarer among a side's members): _seats_of gives (x,)
        return seat == x
    return seat in st._seats_of(x)


def declarations(st: State, s: Any) -> int:
    declared = st.announce.declared
    return [*declared.values()].count(s) if declared else 0


@reads("announce.chains", "str", "_con.ref", "GAME", "len", "get", mirrors=("EARLY",))
def kontras(st: State, item: Any) -> int:
    """Calls in the side-wide chain on a figure or on the game (the contract)."""
    if item is None:
        return 0
    chains = st.announce.chains
    if not chains:                  # no kontra called (most deals)
        return 0
    name = str(item)
    con = st._con                   # st.contract, without the property: the contract's Ref, a string
    key = GAME if con is not None and name == con.ref else name
    return len(chains.get((key, -1, -1), ()))


def kontras_between(st: State, p: Any, s: Any) -> int:
    """Calls in the personal chain on p's game between p and s."""
    if p is None or s is None or not st.announce.chains:
        return 0
    return sum(len(seats) for (item, owner, other), seats in st.announce.chains.items()
               if owner == p and other == s)


def kontras_by(st: State, s: Any) -> int:
    n = 0
    chains = st.announce.chains
    if chains:                      # (no kontra called: most deals)
        for seats in chains.values():
            n += seats.count(s)
    return n


def passed(st: State, s: Any) -> bool:
    """The seat has passed: in the declaration round once it has begun, else in the auction."""
    if s is None:
        return False
    an = st.announce
    if an.opening or an.passed or an.chains or an.declared or st.phase == "announce":
        return s in an.passed
    flags = st.auction.passed
    return bool(flags[s]) if 0 <= s < len(flags) else False
