"""Calling a partner by naming a card: its holder plays with the declarer, hidden until revealed.

    partner {
      when = contract.side == called     # whether the declarer calls in this deal
      group = kings                      # the cards one of which is called
      self = true                        # he may call a card he holds himself (and so play alone)
      by_count = count_in(kings, declarer) == 3   # he may call "the fourth" without naming it
    }

The declarer calls one card of the group (`PARTNER_CALL` with the card's index), or, when `by_count`
holds, the one card of the group he does not hold without naming it (`PARTNER_CALL` with FOURTH).
The call sets `called_card`, and the sides are formed again (engine/sides.py, kind `called`): the
holder of the card is the partner; the declarer plays alone when he holds it himself or it lies in
the talon. Which seat that is stays hidden from the others until the card is played or revealed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine import sides
from interpreter.engine.builtins import card_value
from interpreter.engine.cards import bits
from interpreter.engine.context import Ctx
from interpreter.engine.errors import RuleRuntimeError
from interpreter.engine.phases.base import NEVER, Phase

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.phases import Partner
    from interpreter.model.ruleset import Ruleset

FOURTH = 1 << 20            # the argument of "call the one card of the group I do not hold"


@dataclass(frozen=True)
class PartnerSettings:
    present: bool
    when: Any
    group: int                  # mask of the cards one of which is called
    self_call: bool
    by_count: Any
    allowed: Any = None         # which cards of the group may be called (`this` the card offered), None: all


def absent() -> PartnerSettings:
    """The settings of a rule file without a partner call."""
    return PartnerSettings(False, NEVER, 0, False, NEVER)


def settings(p: Partner, comp: Compiler, rs: Ruleset) -> PartnerSettings:
    if not p.present:
        return absent()
    group = p.group
    mask = rs.mask([group]) if group else 0
    return PartnerSettings(True, comp.text(p.when) if p.when is not None else (lambda c: True), mask,
                           p.self_call, comp.text(p.by_count) if p.by_count is not None else NEVER,
                           comp.text(p.allowed) if p.allowed is not None else None)


def callable_cards(st: State) -> int:
    """The cards the declarer may name: the group, less his own unless he may call himself; when he
    holds the whole group he must call one of his own."""
    S = st.R.partner
    declarer = st._declarer         # (behind the property `declarer`)
    own = st.hands[declarer] & S.group if declarer is not None else 0
    cards = S.group if S.self_call or own == S.group else S.group & ~own
    if S.allowed is None:
        return cards
    c = Ctx(st, declarer)
    for card in bits(cards):            # `allowed`, judged for each card with `this` the card offered
        c.this = card_value(card)
        if not S.allowed(c):
            cards &= ~(1 << card)
    return cards


def fourth(st: State) -> int | None:
    """The one card of the group the declarer does not hold, when he may call it by count."""
    S = st.R.partner
    declarer = st._declarer
    if declarer is None:
        return None
    missing = S.group & ~st.hands[declarer]
    if missing.bit_count() != 1 or not S.by_count(Ctx(st, declarer)):
        return None
    card = missing.bit_length() - 1
    if S.allowed is not None and not S.allowed(Ctx(st, declarer, card_value(card))):
        return None
    return card


# the most tables of calls kept (Memos.partner_calls): a rule file's group of many cards has many subsets
_KEPT = 4096
_FOURTH = A.make(A.PARTNER_CALL, FOURTH)


class PartnerPhase(Phase):
    name = "partner"

    def start(self, st: State) -> bool:
        S = st.R.partner
        declarer = st._declarer         # (the values behind the properties `declarer` and `con`)
        if not S.present or declarer is None or st._con is None:
            return False
        when = S.when
        on_state = getattr(when, "on_state", None)      # the backend's, reading the state alone (engine/backend.py)
        if not (on_state(st) if on_state is not None else when(Ctx(st, declarer))):
            return False
        st.to_act = declarer
        return True

    def legal(self, st: State) -> list[int]:
        cards = callable_cards(st)
        kept = st.R.memos.partner_calls
        calls = kept.get(cards)
        if calls is None:
            calls = tuple(A.make(A.PARTNER_CALL, c) for c in bits(cards))
            if len(kept) < _KEPT:
                kept[cards] = calls
        if fourth(st) is not None:
            return [*calls, _FOURTH]
        if not calls:
            raise RuleRuntimeError("the declarer may call no card of the partner's group (`partner.allowed` is "
                                   "false for each)")
        return [*calls]

    def apply(self, st: State, action: int) -> None:
        arg = action & A.ARG
        card = fourth(st) if arg == FOURTH else arg
        st.called_card = card
        st.called_by_count = arg == FOURTH
        sides.form(st)
        st.to_act = -1
        st._advance()


def text(st: State, action: int) -> str:
    """`call KH`, or `call the fourth` (the words `call` and `fourth` may be renamed in `words`)."""
    W = st.R.words
    arg = A.arg_of(action)
    word = W["call"]
    if arg == FOURTH:
        return f"{word} {W['fourth']}"
    return f"{word} {st.R.codes[arg]}"
