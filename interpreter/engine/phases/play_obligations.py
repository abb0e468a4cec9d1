"""The play's obligations: filters over the cards a seat may play (follow suit, must trump, must beat, …),
the declared figures a seat keeps for a trick of their own, and the compiled obligations of a contract.
engine/phases/play.playable applies them in order; the code generator writes the known ones out per contract."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine import deals
from interpreter.engine.cards import bits
from interpreter.engine.errors import RuleRuntimeError
from interpreter.engine.figures import card_of
from interpreter.engine.phases import duties
from interpreter.engine.phases.card_obligations import FILTERS as CARD_FILTERS

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.rules import ContractRT
    from interpreter.engine.state import State
    from interpreter.model.game import Obligation as ObligationRule

# ---- play obligations: filters over the cards a seat may play ----------------------------------------
# Each takes (state, obligation, seat, hand, candidates so far, led suit, winning card, contract) and gives
# the cards it allows, or -1 when it does not apply. At the lead the led suit and winning card are -1.

Filter = Callable[["State", "Obligation", int, int, int, int, int, "ContractRT"], int]


def _follow_suit(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int, con: ContractRT) -> int:
    return cands & con.suit_masks[led] if led >= 0 else -1


def _must_trump(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int, con: ContractRT) -> int:
    if led < 0 or hand & con.suit_masks[led]:
        return -1
    return cands & (con.suit_masks[ob.suit] if ob.suit is not None else con.trump_mask)


def _must_beat(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int, con: ContractRT) -> int:
    return cands & con.beaters[win] if led >= 0 else -1


def _lowest_winner(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int, con: ContractRT) -> int:
    if led < 0:
        return -1
    winners = cands & con.beaters[win]
    if not winners:
        return -1
    return 1 << min(bits(winners), key=lambda i: con.strength[i])


def _hold_back(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int, con: ContractRT) -> int:
    # neither led nor played while another card of their suit is in hand
    held = cands & ob.cards
    if not held:
        return -1
    suit_masks, suit_of = con.suit_masks, con.suit_of
    same = 0
    for i in bits(held):
        same |= suit_masks[suit_of[i]]
    return cands & ~ob.cards if hand & same & ~ob.cards else cands


def _no_lead(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int, con: ContractRT) -> int:
    if led >= 0 or ob.suit is None:
        return -1
    return cands & ~con.suit_masks[ob.suit]


def trick_figures(R: Any) -> tuple[int, dict]:
    """The figures kept for a trick, by name, and the mask of their cards (-1: a card is worked out in the
    deal), once per rule set."""
    memos = R.memos
    memo = memos.figure_trick
    if memo is None:
        kept = {name: f for name, f in R.figures.items() if f.trick}
        tied = -1 if any(f.card_expr is not None for f in kept.values()) else sum(1 << f.card for f in kept.values() if f.card >= 0)
        memo = memos.figure_trick = (tied, kept)
    return memo


def _declared(st: State, me: int) -> list[tuple[int, int]]:
    """(card, trick number) of each figure `me` declared himself whose card he holds and must keep for a
    trick of its own (the figure's `card` and `trick`; a negative trick counts from the end). A figure
    his partner declared binds the partner's play, not his."""
    declared = st.announce.declared
    if not declared:
        return []
    hand = st.hands[me]
    tied, kept = trick_figures(st.R)
    if not hand & tied:
        return []
    out = []
    names = []
    for name, f in kept.items():    # fewer than the declarations, as a rule
        if name not in declared:
            continue
        who = declared[name]
        if not (me in who if isinstance(who, tuple) else who == me):
            continue
        card = f.card
        if card < 0 and f.card_expr is not None:
            card = card_of(st, f)
        if card >= 0 and hand >> card & 1:
            out.append((card, f.trick if f.trick > 0 else deals.tricks_total(st) + f.trick + 1))
            names.append(name)
    if len(out) > 1:                # in the order of the declarations
        said = list(declared)
        out = [x for _, x in sorted(zip([said.index(n) for n in names], out))]
    return out


def _held_by_order(st: State, me: int, card: int, con: ContractRT) -> bool:
    """A `birds_in_order` obligation keeps `card` back: a higher declared card of its list is still in hand."""
    for ob in con.obligations:
        if ob.rule == "birds_in_order" and ob.cards >> card & 1:
            order = st.R.order_of
            if any(c != card and ob.cards >> c & 1 and order[c] > order[card] for c, _ in _declared(st, me)):
                return True
    return False


def _declared_cards(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int,
                    con: ContractRT) -> int:
    # a declared card waits for its trick; at its trick, or as soon as possible after it, it must go
    # unless the earlier obligations or the order of `birds_in_order` keep it back
    tied = _declared(st, me)
    if not tied:
        return -1
    now = len(st.play.history) + 1
    keep, due = cands, 0
    for card, trick in tied:
        bit = 1 << card
        if now < trick:
            keep &= ~bit
        elif cands & bit and not _held_by_order(st, me, card, con):
            due |= bit
    return due if due else keep


def _birds_in_order(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int,
                    con: ContractRT) -> int:
    # of the declared cards of the list in hand, only the highest may be played
    mine = [card for card, _ in _declared(st, me) if ob.cards >> card & 1]
    if len(mine) < 2:
        return -1
    order = st.R.order_of
    top = max(mine, key=lambda c: order[c])
    later = 0
    for c in mine:
        if c != top:
            later |= 1 << c
    return cands & ~later


OBLIGATIONS: dict[str, Filter] = {
    "follow_suit": _follow_suit, "must_trump": _must_trump, "must_beat": _must_beat,
    "lowest_winner": _lowest_winner, "hold_back": _hold_back, "no_lead": _no_lead,
    "declared_cards": _declared_cards, "birds_in_order": _birds_in_order, **CARD_FILTERS, **duties.FILTERS,
}
# obligations that restrict the lead too
AT_LEAD = ("no_lead", "hold_back", "declared_cards", "birds_in_order", *CARD_FILTERS, *duties.AT_LEAD)


def _unimplemented(rule: str) -> Filter:
    def fail(*args: Any) -> int:
        raise RuleRuntimeError(f"the play obligation '{rule}' is not implemented by the engine")
    return fail


@dataclass(frozen=True)
class Obligation:
    rule: str
    fn: Filter
    when: Any | None
    suit: int | None
    cards: int
    at_lead: bool                  # the obligation can restrict the lead
    cards_expr: tuple = ()         # entries of `cards` that give a card in each deal (phases/duties.py)


def obligations(comp: Compiler, chain: tuple[ObligationRule, ...], suit_names: list[str], rs: Any) -> list[Obligation]:
    out = []
    for ob in chain:
        rule = ob.rule
        cards, values = duties.card_entries(comp, ob.cards, rs)
        out.append(Obligation(rule=rule, fn=OBLIGATIONS.get(rule) or _unimplemented(rule),
                              when=comp.text(ob.when) if ob.when is not None else None,
                              suit=suit_names.index(ob.suit) if ob.suit in suit_names else None,
                              cards=cards, at_lead=rule in AT_LEAD, cards_expr=values))
    return out
