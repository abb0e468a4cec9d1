"""Play obligations that bind particular cards (a called card's duties): `play_when_led`, `lead_with` and
`no_discard`, filters of the obligation chain (engine/phases/play.py) like the others.

Their `cards` may name a card value (`called_card`, a `let` giving a card) as well as cards and groups: such
an entry is worked out when the filter is asked (`cards_of`); a value that gives none adds no card. Suits are
the suits as the contract's ranking sees them (`con.suit_of`, `con.suit_masks`): a card listed among the
trumps belongs to the trump suit only.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.builtins import as_mask
from interpreter.engine.cards import bits
from interpreter.engine.context import Ctx

if TYPE_CHECKING:
    from interpreter.engine.phases.play import Obligation
    from interpreter.engine.rules import ContractRT
    from interpreter.engine.state import State


def cards_of(st: State, ob: Obligation) -> int:
    """The obligation's cards in this state: its cards and groups, and what its card values give now."""
    cards = ob.cards
    if ob.cards_expr:
        c = Ctx(st)
        for f in ob.cards_expr:
            v = f(c)
            if v is not None and v is not False:
                cards |= as_mask(v)
    return cards


def _play_when_led(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int,
                   con: ContractRT) -> int:
    # a card of `cards` of the led suit in hand must be played to the trick
    if led < 0:
        return -1
    due = cands & cards_of(st, ob) & con.suit_masks[led]
    return due if due else -1


def _lead_with(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int,
               con: ContractRT) -> int:
    # at the lead: a suit holding a card of `cards` is led with that card only
    if led >= 0:
        return -1
    held = hand & cards_of(st, ob)
    if not held:
        return -1
    suit_of, suit_masks = con.suit_of, con.suit_masks
    barred = 0
    for c in bits(held):
        barred |= suit_masks[suit_of[c]] & ~held
    return cands & ~barred


def _no_discard(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int,
                con: ContractRT) -> int:
    # in a trick: a card of `cards` goes only to a trick led in its suit
    if led < 0:
        return -1
    held = cands & cards_of(st, ob) & ~con.suit_masks[led]
    return cands & ~held if held else -1


FILTERS: dict[str, Any] = {"play_when_led": _play_when_led, "lead_with": _lead_with, "no_discard": _no_discard}
AT_LEAD = ("lead_with",)


def card_entries(comp: Any, cards: Any, rs: Any) -> tuple[int, tuple]:
    """An obligation's `cards` as (the mask of its cards and groups, the compiled card values among them)."""
    if not cards:
        return 0, ()
    items = [cards] if isinstance(cards, str) else list(cards)
    fixed = [str(x) for x in items if str(x) in rs.card_index or str(x) in rs.groups]
    values = tuple(comp.text(str(x)) for x in items if str(x) not in rs.card_index and str(x) not in rs.groups)
    return rs.mask(fixed), values
