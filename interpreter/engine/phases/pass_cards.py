"""Passing cards before the play: every seat chooses a number of cards from its hand and passes them face
down to another seat; the cards change hands only once every seat has passed, so that what a seat
receives cannot guide what it passes (simultaneous in effect, though the choices are made in turn).

Settings (the rule file's `pass_cards` section): `cards` (how many each seat passes, an expression; 0:
none), `to` (the seat receiving what `me` passes, an expression over `deal_number`, the options, …; a
seat that would pass to itself passes nothing), `first` (who passes first; the others follow in order of
play, each choosing all his cards in turn) and `when` (whether the cards are passed in this deal).

A seat chooses its cards one at a time (`pass QS`, three times): each leaves its hand at once and is
kept aside, seen by the passer alone, until the exchange. The state keeps, per seat, the cards it has set
aside (`passed`, card masks), the seat it passes to (`pass_to`, None for a seat that passes nothing) and
how many it passes (`pass_count`: `cards`, or all it holds when it holds fewer); they stay on the state
after the exchange, for the views and the rule bot.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine.cards import bits
from interpreter.engine.context import Ctx
from interpreter.engine.errors import RuleRuntimeError
from interpreter.engine.phases.base import Phase
from interpreter.engine.views import received  # noqa: F401  (the cards a seat received: the views read it)

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.phases import PassCards

Fn = Any


@dataclass(frozen=True)
class PassSettings:
    cards: Fn | None
    to: Fn | None
    first: Fn | None
    when: Fn | None


def settings(sec: PassCards | None, comp: Compiler) -> PassSettings | None:
    if sec is None:
        return None
    x = lambda e: comp.text(e) if e is not None else None
    return PassSettings(cards=x(sec.cards), to=x(sec.to), first=x(sec.first), when=x(sec.when))


def _settings(st: State) -> PassSettings:
    S = st.R.pass_cards
    assert S is not None
    return S


def count(st: State) -> int:
    """How many cards each seat passes in this deal."""
    S = _settings(st)
    if S.cards is None:
        return 0
    value = S.cards(Ctx(st))
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleRuntimeError(f"pass_cards.cards gives {value!r}; it must give a whole number of cards")
    return value


def _receivers(st: State) -> tuple:
    """Per seat, the seat it passes to (None: it passes nothing, it takes no part or would pass to itself)."""
    S = _settings(st)
    out: list[int | None] = [None] * st.n
    if S.to is None:
        return tuple(out)
    for s in st.active:
        to = S.to(Ctx(st, s))
        if to is not None and to not in st.active:
            raise RuleRuntimeError(f"pass_cards.to gives {to!r} for seat {s}; it must give a seat taking part")
        out[s] = None if to == s else to
    return tuple(out)


_PASS_CARD = A.make(A.PASS_CARD)


def _next_passer(st: State, after: int) -> int:
    """The next seat in order of play after `after` that still has cards to pass, or -1."""
    s = after
    for _ in range(st.n):
        s = st.seat_after(s)
        if st.pass_to[s] is not None and bin(st.passed[s]).count("1") < st.pass_count[s]:
            return s
    return -1


class PassCardsPhase(Phase):
    name = "pass_cards"

    def start(self, st: State) -> bool:
        S = _settings(st)
        if S.when is not None and not S.when(Ctx(st)):
            return False
        k = count(st)
        to = _receivers(st)
        quota = tuple(min(k, bin(st.hands[s]).count("1")) if to[s] is not None else 0 for s in range(st.n))
        passers = [s for s in st.active if quota[s]]
        if not passers:
            return False
        st.pass_to = to
        st.pass_count = quota
        st.passed = (0,) * st.n
        first = S.first(Ctx(st)) if S.first is not None else None
        if first not in passers:
            first = _next_passer(st, st.dealer if first is None else first)
        st.to_act = first
        return True

    def legal(self, st: State) -> list[int]:
        return [*map(_PASS_CARD.__or__, bits(st.hands[st.to_act]))]     # A.make(A.PASS_CARD, c) of each

    def apply(self, st: State, action: int) -> None:
        me = st.to_act
        card = A.arg_of(action)
        st.hands[me] &= ~(1 << card)
        passed = list(st.passed)
        passed[me] |= 1 << card
        st.passed = tuple(passed)               # a tuple: clones share it safely
        if bin(passed[me]).count("1") < st.pass_count[me]:
            return
        nxt = _next_passer(st, me)
        if nxt >= 0:
            st.to_act = nxt
            return
        for s, to in enumerate(st.pass_to):     # every seat has passed: the cards change hands
            if to is not None:
                st.hands[to] |= passed[s]
        st.to_act = -1
        st._advance()


def aside(st: State) -> int:
    """The cards set aside by their passers and not yet exchanged (a mask; 0 outside the pass)."""
    out = 0
    if st.phase == "pass_cards":
        for m in st.passed:
            out |= m
    return out
