"""Stage 6: a checked rules document → an immutable, indexed Ruleset.

Cards become indices 0..n-1 so that a hand is an int bitmask; suits and groups become masks;
card points become exact fractions. Each expression of the model (model/expression.Expression) carries
its typed node (model/nodes.py), parsed once by the front end (model/expression.py).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from interpreter.model import record_numbers
from interpreter.model.deck import card_codes, card_points, resolved_packets, schedule_counts
from interpreter.model.family import with_ladder_calls
from interpreter.model.game import Game, game_of


def freeze(value):
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value):
    if isinstance(value, (dict, MappingProxyType)):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class Card:
    index: int
    code: str
    suit: str
    rank: str
    order: int          # position within its suit, 0 = lowest
    points: Fraction


@dataclass(frozen=True, eq=False)
class Ruleset:
    name: str
    path: str
    chain: tuple
    doc: MappingProxyType
    title: str
    players: int
    seats: int
    direction: str
    roles: MappingProxyType
    suits: tuple
    cards: tuple                      # Card, by index
    card_index: MappingProxyType      # code → index
    suit_mask: MappingProxyType       # suit → bitmask of its cards
    trump_suit: str | None
    groups: MappingProxyType          # group → bitmask
    hand_size: int
    talon_size: int
    contracts: tuple                  # names, lowest rank first
    calls: tuple                      # names, lowest rank first
    options: MappingProxyType         # option → default value
    # what the rule set was made from (its name and the text of each file of its extends chain): two
    # rule sets with the same digest are the same rules, so they share one compiled form (compile_rules)
    digest: str = ""
    # the sections the engine reads, as typed objects (model/game.py)
    game: Game = field(default_factory=lambda: game_of({}))

    @property
    def deck_size(self) -> int:
        return len(self.cards)

    def document(self) -> dict:
        """The checked document as plain dicts and lists, a copy (for what presents the rules as written)."""
        return thaw(self.doc)

    def contract(self, name: str):
        return self.doc["contract"][name]

    def call(self, name: str):
        return self.doc["call"][name]

    def mask(self, codes) -> int:
        m = 0
        for c in codes:
            if c in self.groups:
                m |= self.groups[c]
            else:
                m |= 1 << self.card_index[c]
        return m

    def codes(self, mask: int) -> list[str]:
        out, i = [], 0
        while mask:
            if mask & 1:
                out.append(self.cards[i].code)
            mask >>= 1
            i += 1
        return out

    def total_points(self) -> Fraction:
        return sum((c.points for c in self.cards), Fraction(0))


def compile_ruleset(loaded) -> Ruleset:
    doc = with_ladder_calls(loaded.doc)     # a ladder's steps are calls from here on (model/family.py)
    deck = doc["deck"]
    codes = card_codes(deck)
    points = card_points(deck, codes)
    cards, suit_mask = [], {}
    i = 0
    for suit in deck["suits"]:
        own = (deck.get("suit") or {}).get(suit, {})
        if "cards" in own:
            entries = [(str(c), str(c)) for c in own["cards"]]
        else:
            entries = [(f"{r}{suit}", str(r)) for r in own.get("ranks", deck.get("ranks", []))]
        mask = 0
        for order, (code, rank) in enumerate(entries):
            cards.append(Card(i, code, suit, rank, order, points[code]))
            mask |= 1 << i
            i += 1
        suit_mask[suit] = mask
    index = {c.code: c.index for c in cards}
    groups = {}
    for gname, members in (deck.get("group") or {}).items():
        m = 0
        for code in members:
            m |= 1 << index[code]
        groups[gname] = m
    players = doc["players"]
    per, talon, _ = schedule_counts(resolved_packets(doc), players)   # packet sizes by option: the defaults
    seating = doc["seating"]
    contracts = sorted(doc.get("contract", {}), key=lambda n: (doc["contract"][n].get("rank", 0)))
    calls = sorted(doc.get("call", {}), key=lambda n: (doc["call"][n].get("rank", 0)))
    options = {k: v.get("default") for k, v in (doc.get("option") or {}).items()}
    numbers_read = record_numbers.normalised(doc)     # the document and the model alike hold the records' numbers
    return Ruleset(
        name=loaded.name, path=loaded.path, chain=tuple(loaded.chain), doc=freeze(numbers_read),
        title=doc["title"], players=players, seats=seating.get("seats", players),
        direction=seating["direction"], roles=MappingProxyType(dict(seating.get("roles", {}))),
        suits=tuple(deck["suits"]), cards=tuple(cards), card_index=MappingProxyType(index),
        suit_mask=MappingProxyType(suit_mask), trump_suit=deck.get("trump_suit"),
        groups=MappingProxyType(groups), hand_size=per, talon_size=talon,
        contracts=tuple(contracts), calls=tuple(calls), options=MappingProxyType(options),
        digest=source_digest(loaded.name, loaded.path, loaded.chain, loaded.sources),
        game=game_of(numbers_read),
    )


def source_digest(name: str, path: str, chain, sources: dict) -> str:
    """SHA-256 over the rule set's name, its path and each file of its extends chain with its text."""
    h = hashlib.sha256()
    for part in (name, path, *(f"{p}\0{sources.get(p, '')}" for p in chain)):
        h.update(part.encode("utf-8"))
        h.update(b"\0\1")
    return h.hexdigest()
