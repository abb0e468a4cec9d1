"""Dealing the cards, and checking an explicit deal before play.

`deal_cards` shuffles with a seeded random.Random and deals by the packet schedule. When the rule file
gives `deal.hand` (the cards each player receives in this deal, an expression over `deal_number`,
`dealer`, `players` and the options), every `each` packet is cut short once a player holds that many
and the cards left over go to the talon, in order; with `deal.turn_up` the first of them is turned face
up for everyone to see (`turned_up`).

`validate_deal` checks an explicit deal: every card known, dealt once, and every hand and the talon of
the size the rules give. `new_game(deal=…)` calls it, so a tampered log or save cannot start a deal the
rules could never have dealt."""
from __future__ import annotations

import functools
import random
from operator import itemgetter
from typing import Any

from interpreter.engine.errors import RuleRuntimeError
from interpreter.registry import reads


class DealError(ValueError):
    """A stated deal that the rules could not have dealt."""


class _BeforeTheDeal:
    """What `deal.hand` may read: no card is dealt yet, so only the deal's number, the dealer, the table
    (players, seats) and the accounts carried from earlier deals."""

    def __init__(self, rules, dealer: int, deal_number: int, accounts: dict | None):
        self.R = rules
        self.n = rules.n_seats
        self.dealer = dealer
        self.deal_number = deal_number
        self.accounts = dict(accounts or {})
        self.active = tuple(s for s in range(self.n) if not (self.n > rules.players and s == dealer))

    def account(self, name: Any, *keys: Any) -> Any:
        v = self.accounts.get(str(name), 0)
        if keys and isinstance(v, list) and isinstance(keys[0], int):
            return v[keys[0]]
        return v if not keys else 0


def cards_each(rules, dealer: int = 0, deal_number: int = 0, accounts: dict | None = None) -> int:
    """How many cards each player receives in this deal: `deal.hand`, else the packet schedule's count."""
    if rules.deal_hand is None:
        return int(rules.rs.hand_size)
    from interpreter.engine.context import Ctx

    try:
        value = rules.deal_hand(Ctx(_BeforeTheDeal(rules, dealer, deal_number, accounts)))  # type: ignore[arg-type]
    except AttributeError as err:
        raise RuleRuntimeError(f"deal.hand reads something that is not known before the cards are dealt ({err}); "
                               "it may use deal_number, dealer, players, seats, accounts and options") from None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= rules.rs.hand_size:
        raise RuleRuntimeError(f"deal.hand gives {value!r} for deal {deal_number}; it must be a whole number from 0 "
                               f"to {rules.rs.hand_size}, the hand the packets deal")
    return value


def deal_cards(rules, rng: random.Random, dealer: int, deal_number: int = 0,
               accounts: dict | None = None) -> tuple[list[int], list[int]]:
    """Shuffle with `rng` and deal by the packet schedule: (hands by seat, talon list)."""
    size = len(rules.cards)
    deck = list(range(size))
    shuffle(rng, deck)
    each = cards_each(rules, dealer, deal_number, accounts)
    plans = rules.memos.deal_plans    # worked out once per rule set, dealer and hand
    plan = plans.get((dealer, each))
    if plan is None:
        plan = plans[(dealer, each)] = _plan(rules, dealer, each)
    seats, talon_of = plan
    bit = _bits(size).__getitem__
    # the cards' bits are distinct: their sum is their mask
    hands = [sum(map(bit, take(deck))) if take is not None else 0 for take in seats]
    return hands, talon_of(deck)


def _plan(rules, dealer: int, each: int) -> tuple[list[Any], Any]:
    """Where each place of the shuffled deck goes, by the packet schedule (engine/rules.py works out the
    packets' sizes for the table options): for each seat a getter of its cards' places (None: no cards),
    and the talon's places in the order dealt, a packet at a time, then what a shorter hand leaves over."""
    n = rules.n_seats
    out = dealer if n > rules.players else -1          # the dealer sits out at a table of more seats
    order = [s for s in (*range(dealer + 1, n), *range(dealer + 1)) if s != out]   # from the dealer's left
    places: list[list[int]] = [[] for _ in range(n)]
    talon: list[int] = []
    pos = 0
    for p in rules.packets:
        cards = p.cards
        to_each = p.to == "each"
        for _ in range(p.repeat):
            if to_each:
                for s in order:
                    k = max(0, min(cards, each - len(places[s])))
                    places[s] += range(pos, pos + k)
                    pos += k
            else:
                talon += range(pos, min(pos + cards, len(rules.cards)))
                pos += cards
    talon += range(pos, len(rules.cards))
    return [_getter(x, tuple) for x in places], _getter(talon, list)


def _getter(places: list[int], kind: type) -> Any:
    """The cards at `places` of a deck, as `kind` (a tuple or a list): one itemgetter call (which gives
    the card alone for a single place, and cannot be made for none)."""
    if not places:
        return None if kind is tuple else lambda deck: []
    if len(places) == 1:
        only = places[0]
        return lambda deck: kind((deck[only],))
    get = itemgetter(*places)
    return get if kind is tuple else lambda deck: list(get(deck))


@functools.cache
def _bits(size: int) -> list[int]:
    """Each card's bit, for a deck of `size` (a list: its __getitem__ is called without an argument tuple)."""
    return [1 << c for c in range(size)]


def shuffle(rng: random.Random, deck: list[int]) -> None:
    """`rng.shuffle(deck)`. For a random.Random itself, its draws are made here as random.Random makes
    them (`_randbelow` by `getrandbits`: the same calls in the same order, so the same deck and the same
    state after), without a call of `_randbelow` per card; any other generator shuffles itself."""
    if type(rng) is not random.Random or _RANDBELOW is None or getattr(random.Random, "_randbelow", None) is not _RANDBELOW:
        rng.shuffle(deck)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _draws(len(deck)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)
@functools.cache
def _draws(size: int) -> tuple[tuple[int, int, int], ...]:
    """random.Random.shuffle's draws for a list of `size`: the place, the bound and its bits."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, size)))


@reads("R.deal_hand", "int", "R.rs.hand_size", "max", "active", "dealt_hands", "bit_count")
def tricks_total(st) -> int:
    """The tricks of this deal: the cards each player was dealt."""
    if st.R.deal_hand is None:
        return int(st.R.rs.hand_size)
    return max([st.dealt_hands[s].bit_count() for s in st.active], default=0)


def turned_up(st) -> int | None:
    """The card turned face up after the deal (`deal.turn_up`): the first card left over, or none; the same
    card when a talon procedure has taken it up since."""
    order = st.dealt_talon_order
    return order[0] if st.R.turn_up and order else None


def validate_deal(rules, hands, talon, dealer: int | None = None, deal_number: int = 0,
                  accounts: dict | None = None) -> tuple[list[int], list[int]]:
    """Card codes by seat and for the talon → (hand masks, talon card indices); raises DealError."""
    rs = rules.rs
    index = rs.card_index
    n = rules.n_seats
    if not isinstance(hands, (list, tuple)) or len(hands) != n:
        raise DealError(f"the deal must give {n} hands, one per seat")
    if not isinstance(talon, (list, tuple)):
        raise DealError("the talon must be a list of cards")
    masks = [0] * n
    seen: dict[str, str] = {}

    def take(code, where: str) -> int:
        if not isinstance(code, str) or code not in index:
            raise DealError(f"{where} holds an unknown card {code!r}")
        if code in seen:
            raise DealError(f"the card {code} is dealt twice ({seen[code]} and {where})")
        seen[code] = where
        return int(index[code])

    for s, hand in enumerate(hands):
        if not isinstance(hand, (list, tuple)):
            raise DealError(f"the hand of seat {s} must be a list of cards")
        for code in hand:
            masks[s] |= 1 << take(code, f"seat {s}")
    talon_cards = [take(code, "the talon") for code in talon]
    sizes = [len(h) for h in hands]
    try:
        each = cards_each(rules, dealer or 0, deal_number, accounts)
    except RuleRuntimeError as err:
        raise DealError(str(err)) from None
    in_deal = f" in deal {deal_number + 1}" if rules.deal_hand is not None else ""
    for s, size in enumerate(sizes):
        if size == 0 and (n > rules.players or each == 0):  # a seat that sits out this deal (the seating says which)
            continue
        if size != each:
            raise DealError(f"seat {s} holds {size} cards, the rules deal {each}{in_deal}")
    if each and sum(1 for size in sizes if size) != rules.players:
        raise DealError(f"the deal must give cards to {rules.players} seats, not {sum(1 for x in sizes if x)}")
    talon_size = rs.talon_size + (rs.hand_size - each) * rules.players
    if len(talon_cards) != talon_size:
        raise DealError(f"the talon holds {len(talon_cards)} cards, the rules put {talon_size} there{in_deal}")
    if len(seen) != rs.deck_size:
        raise DealError(f"the deal holds {len(seen)} cards, the deck has {rs.deck_size}")
    return masks, talon_cards
