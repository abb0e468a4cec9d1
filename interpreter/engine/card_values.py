"""Values from the cards, for rule expressions: the cards dealt and the talon as dealt (its cards and their
order), the card points of any cards, the unbroken run of top trumps (matadors, runners), the cards of a suit
under a ranking, whether a suit was led, and the union of two sets of cards (`+`). Registered in engine/builtins.py's tables.

The functions that take cards are given them as a mask (engine/builtins.py converts). Suits are read as the contract's ranking sees them (engine/ranking.py): a card listed among the trumps
belongs to the trump suit only, and where the trumps have no suit (a grand) they are the suit `none`, the
value of `trump` there.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from interpreter.engine.cards import bits
from interpreter.engine.ranking import order_for, trump_of
from interpreter.model.nodes import Bin, Call, If, ListOf, Name, Node
from interpreter.model.vocabulary import FUNCTIONS, VALUES
from interpreter.registry import reads


@reads("st.dealt_hands", "_seats_of", "isinstance", "int", "len")
def dealt_cards(c: Any, x: Any) -> int:
    """The cards dealt to a seat or a set of seats, as dealt."""
    st = c.st
    hands = st.dealt_hands
    cards = 0
    for s in st._seats_of(x):
        if isinstance(s, int) and 0 <= s < len(hands):
            cards |= hands[s]
    return cards


@reads("st.dealt_talon")
def talon_cards(c: Any) -> int:
    """The talon as dealt, wherever its cards went since."""
    return c.st.dealt_talon


@reads("isinstance", "int", "bool", "st.dealt_talon_order", "index")
def talon_place(c: Any, card: Any) -> int:
    """The card's place in the talon as dealt, from 1; 0 when it was not dealt to the talon (or is none)."""
    if not isinstance(card, int) or isinstance(card, bool):
        return 0
    order = c.st.dealt_talon_order
    return order.index(card) + 1 if card in order else 0


def points_of(c: Any, cards: int) -> Any:
    """The card points of the cards, exact (a whole number where they add up to one)."""
    R = c.st.R
    deck = R.cards
    total = sum((deck[i].points for i in bits(cards & R.full_mask)), Fraction(0))
    return int(total) if total.denominator == 1 else total


def _trump_sequence(con: Any) -> list[int]:
    """The contract's trumps, highest first (kept on the contract, which is only read)."""
    got = con.trump_sequence
    if got is None:
        mask, strength = con.trump_mask, con.strength
        got = con.trump_sequence = sorted((i for i in range(len(strength)) if mask >> i & 1),
                                                       key=strength.__getitem__, reverse=True)
    return got


def top_run(c: Any, held: int) -> int:
    """The unbroken run of the contract's trumps from the highest down that `cards` hold each of — or, when
    they lack the highest, lack each of; 0 without trumps."""
    con = c.st.con
    if con is None or con.trump_class < 0:
        return 0
    sequence = _trump_sequence(con)
    if not sequence:
        return 0
    having = bool(held >> sequence[0] & 1)
    run = 0
    for card in sequence:
        if bool(held >> card & 1) != having:
            break
        run += 1
    return run


def _class_of(R: Any, trump_class: int, suit: Any) -> int:
    """The index of `suit` among the suits as a ranking sees them: none is the trumps' own suit."""
    if suit is None:
        return trump_class
    names = R.suit_names
    return names.index(suit) if isinstance(suit, str) and suit in names else -2


@reads("st.R", "isinstance", "str", "card_orders.get", "con", "order_for", "trump_of", "trump", "_class_of", "trump_class", "len", "suit_masks")
def in_suit(c: Any, suit: Any, name: Any) -> int:
    """The cards that follow `suit` under the ranking `name`, with the contract's trump suit (`none`: the
    ranking's trumps)."""
    st = c.st
    R = st.R
    spec = R.card_orders.get(name) if isinstance(name, str) else None
    if spec is None:
        return 0
    con = st.con
    order = order_for(R, spec, trump_of(spec, con.trump if con is not None else -1), False)
    k = _class_of(R, order.trump_class, suit)
    return order.suit_masks[k] if 0 <= k < len(order.suit_masks) else 0


@reads("st.con", "_class_of", "R", "trump_class", "suit_of", "any", "play.history")
def led_before(c: Any, suit: Any) -> bool:
    """A completed trick of this deal was led with a card of `suit` as the contract's ranking sees it."""
    st = c.st
    con = st.con
    if con is None:
        return False
    k = _class_of(st.R, con.trump_class, suit)
    if k < 0:
        return False
    suit_of = con.suit_of
    return any(trick and suit_of[trick[0][1]] == k for trick, _winner in st.play.history)


@reads("st.R", "isinstance", "int", "bool", "len", "suit_of", "st._con", "suit_names")
def suit_of(c: Any, card: Any) -> Any:
    """The suit of a card as the contract's ranking sees it (none for none, and for a trump of a grand)."""
    st = c.st
    R = st.R
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < len(R.suit_of):
        return None
    con = st._con
    k = (con.suit_of if con is not None and con.suit_of else R.suit_of)[card]
    return R.suit_names[k] if k < len(R.suit_names) else None



# ---- `+` of two sets of cards ---------------------------------------------------------------------------
# `+` adds numbers, or joins two sets of cards (the checks type it: checks/typecheck.py `_plus`). Card sets
# and numbers are both ints when played, so the compilers tell the two apart from the tree, as the checks
# did: a `+` with an operand that gives cards (a card, a group, a list of cards, a built-in that gives
# cards, a let of such a value) is the union of its operands.

_CARD_TYPES = ("card", "cards")


def gives_cards(comp: Any, node: Node, scope: frozenset = frozenset(), seen: tuple = ()) -> bool:
    """The tree gives a card or a set of cards, as far as its form tells (a name bound in `scope` does not)."""
    match node:
        case Name(ident=n):
            if n in scope or n in ("s", "t"):
                return False
            if n in comp.lets:
                tree = comp.let_trees.get(n)
                return tree is not None and n not in seen and gives_cards(comp, tree, frozenset(), seen + (n,))
            if n in comp.symbols:
                return n in comp.card_sets or type(comp.symbols[n]).__name__ == "CardValue"
            return n in VALUES and VALUES[n][0] in _CARD_TYPES
        case Call(fname=name):
            if name in comp.let_functions:
                params, body = comp.let_functions[name]
                return name not in seen and gives_cards(comp, body, frozenset(params), seen + (name,))
            return name in FUNCTIONS and FUNCTIONS[name][1] in _CARD_TYPES
        case ListOf(items=items):
            return any(gives_cards(comp, x, scope, seen) for x in items)
        case If(then=a, other=b) | Bin(op="+", a=a, b=b):
            return gives_cards(comp, a, scope, seen) or gives_cards(comp, b, scope, seen)
    return False
