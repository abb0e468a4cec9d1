"""Per-contract trumps and card order (`ranking NAME { trumps ranks }`), compiled for play.

A ranking is read once per rule set (`specs`), and made into an `Order` once per (ranking, trump suit,
winner rule) (`order_for`, kept on the rules): per card its suit *as the play sees it* — a card listed
among the trumps belongs to the trump suit and to no other — the cards of each such suit, the trumps, and
each card's strength and the cards that beat it in a trick. Every filter, the trick's winner, `suit_of`,
`in_suit` and the bots read these tables instead of the deck's suits, so a contract with a ranking costs
nothing more per card than one without.

Suits as the play sees them are numbered as the deck's suits; when the trumps have no suit of their own
(a group such as four jacks alone) they form one more suit, numbered after the deck's (`trump_class`), which
expressions read as `none` — the value of `trump` in such a contract.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine.cards import bits

if TYPE_CHECKING:
    from interpreter.model.game import Ranking


@dataclass(frozen=True)
class Spec:
    """A ranking as written: its trump entries lowest first (each a tuple of card indices, in order),
    the suit entry (a suit's index, -2 for `trump`: the contract's, None: none), and the ranks' order."""
    name: str
    listed: tuple[tuple[int, ...], ...]
    suit: int | None
    ranks: tuple[str, ...]


@dataclass(frozen=True)
class Order:
    """A ranking under one trump suit, as the play reads it."""
    name: str
    trump: int                  # the trump suit named (a deck suit's index), -1: none
    trump_class: int            # the trumps' suit as the play sees it, -1: no trumps
    trump_mask: int             # every trump
    suit_of: list[int]          # per card, its suit as the play sees it
    suit_masks: list[int]       # per suit as the play sees it, its cards
    strength: list[tuple[int, int]]     # per card: (1 for a trump, its place) — comparable within a trick
    beaters: list[int]          # per card winning a trick, the cards that take the lead from it


def specs(rankings: Mapping[str, Ranking], groups: Mapping[str, tuple[str, ...]], rs: Any) -> dict[str, Spec]:
    """The rule set's rankings (model/game.Ranking), by name, over the deck's groups in the order written
    (the checks have refused anything malformed)."""
    suits = list(rs.suits)
    out = {}
    for name, spec in rankings.items():
        listed: list[tuple[int, ...]] = []
        suit: int | None = None
        for entry in spec.trumps:
            if entry == "trump":
                suit = -2
            elif entry in suits:
                suit = suits.index(entry)
            elif entry in rs.card_index:
                listed.append((rs.card_index[entry],))
            elif entry in groups:
                listed.append(tuple(rs.card_index[c] for c in groups[entry] if c in rs.card_index))
        out[name] = Spec(name, tuple(listed), suit, spec.ranks)
    return out


def trump_of(spec: Spec, contract_trump: int) -> int:
    """The trump suit a contract plays under the ranking: its fixed suit, the contract's own (`trump`), or none."""
    if spec.suit is None:
        return -1
    return contract_trump if spec.suit == -2 else spec.suit


def order_for(R: Any, spec: Spec, trump: int, led_only: bool) -> Order:
    """The ranking under the trump suit `trump` (-1: none), made once per rule set and kept there. With
    `led_only` (winner `led`) the trumps still form their own suit but take no trick they were not led to."""
    memo = R.memos.card_orders
    key = (spec.name, trump, led_only)
    got = memo.get(key)
    if got is None:
        got = memo[key] = _make(R, spec, trump, led_only)
    return got


def _make(R: Any, spec: Spec, trump: int, led_only: bool) -> Order:
    cards = R.cards
    n_suits = len(R.suit_names)
    sequence: list[int] = []            # the trumps, lowest first
    listed = [c for group in spec.listed for c in group]
    place = {r: i for i, r in enumerate(spec.ranks)}       # a plain card's place in its suit
    if trump >= 0:          # the trump suit's cards not listed, lowest first, below the listed ones
        plain = [c for c in bits(R.suit_masks[trump]) if c not in listed]
        plain.sort(key=lambda c: (place.get(cards[c].rank, -1), R.order_of[c]))
        sequence += plain
    sequence += listed
    trump_mask = 0
    for c in sequence:
        trump_mask |= 1 << c
    trump_class = trump if trump >= 0 else (n_suits if sequence else -1)
    suit_of = [trump_class if trump_mask >> c & 1 else R.suit_of[c] for c in range(len(cards))]
    suit_masks = [0] * (n_suits + (1 if trump_class == n_suits else 0))
    for c, s in enumerate(suit_of):
        suit_masks[s] |= 1 << c
    strength = [(0, place[cards[c].rank] if cards[c].rank in place else R.order_of[c]) for c in range(len(cards))]
    for i, c in enumerate(sequence):
        strength[c] = (1, i)
    beaters = []
    for c in range(len(cards)):
        higher = 0
        for o in bits(suit_masks[suit_of[c]]):
            if strength[o] > strength[c]:
                higher |= 1 << o
        beaters.append(higher if led_only or trump_mask >> c & 1 else higher | trump_mask)
    if led_only:
        trump_class, trump_mask = -1, 0
    return Order(spec.name, trump, trump_class, trump_mask, suit_of, suit_masks, strength, beaters)
