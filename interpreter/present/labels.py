"""What a player reads: every action, contract, call, figure, suit and card by its display name from the
rule file, for the terminal and the web table alike.

The action texts of the engine (`state.action_text`) are what is typed, logged and sent; they name
calls, contracts and figures by their words or names and cards by their codes. A *label* says the same
for a reader: a contract by its `words` entry or `title`, a figure by its `title`, a suit by the deck's
display name, the trump of a contract named beside it. Cards stay codes inside a label, written
`{KH}`, so that each reader draws them its own way (the terminal with suit symbols, the page as small
cards) and a label never names a card that its text does not. Another seat's discard is a count of
cards, whatever the reader.

The table's language is the rule file's own: its `words`, titles and, for cards and suits, the deck's
display names in English (`deck.names.en`; another language the deck names only where it gives no
English), never a mixture of two.
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from interpreter.engine import actions as A
from interpreter.engine.phases.announce_plans import BY_OWNER, DONE, FIGURE_CODE, OPEN, PASS, unpack

# the card notation's French suits (DESIGN: suits C D H S): their symbols
SUIT_SYMBOLS = {"C": "\u2663", "S": "\u2660", "H": "\u2665", "D": "\u2666"}
CARD = re.compile(r"\{([A-Za-z0-9]+)\}")
LANGUAGE = "en"


def _text(v: Any) -> str | None:
    return str(v) if isinstance(v, (str, int)) and str(v) else None


def display_names(deck: Any) -> dict:
    """The deck's display names in the table's language: English, else the first language it names."""
    by_lang = (deck or {}).get("names") or {}
    lang = LANGUAGE if LANGUAGE in by_lang else next(iter(by_lang), None)
    return dict(by_lang.get(lang) or {}) if lang is not None else {}


class Names:
    """The display names of one rule set (made once per rule set: `names_of`)."""

    def __init__(self, R: Any):
        doc = R.rs.document()
        self.R = R
        deck = doc.get("deck") or {}
        self._deck = display_names(deck)
        self._suits = deck.get("suit") or {}
        self._contracts = doc.get("contract") or {}
        self._figures = doc.get("figure") or {}

    def _deck_name(self, key: str) -> str | None:
        return _text(self._deck.get(key))

    def suit(self, suit: str) -> str:
        """A suit's display name: the deck's name for it, else its `title`, else its code."""
        own = self._suits.get(suit) or {}
        return self._deck_name(suit) or _text(own.get("title")) or suit

    def card(self, code: str) -> str:
        """A card's display name where the deck gives one (`Mond`), else its code."""
        return self._deck_name(code) or code

    def contract(self, name: str | None) -> str:
        """A contract as the table shows it: its `title`, else its spoken word, else its name."""
        if name is None:
            return ""
        rec = self._contracts.get(name) or {}
        return _text(rec.get("title")) or self.R.contract_words.get(name) or name

    def spoken(self, name: str) -> str:
        """A contract as it is said: its `words` entry, else its `title`, else its name."""
        return self.R.contract_words.get(name) or self.contract(name)

    def call(self, name: str) -> str:
        """A call as it is said: its word (`words` or the call's `word`), else its name."""
        rt = self.R.call_by_name.get(name)
        return rt.word if rt is not None and rt.word else name

    def figure(self, name: str) -> str:
        rec = self._figures.get(name) or {}
        return _text(rec.get("title")) or name

    def trump(self, con: Any) -> str:
        """The trump of a contract as played in this deal: the suit's name, or "no trumps"."""
        if con is None:
            return ""
        return self.suit(self.R.suit_names[con.trump]) if con.trump >= 0 else "no trumps"

    def item(self, st: Any, code: int) -> str:
        """An item of the declaration round (a figure or a game) by its display name."""
        if code >= FIGURE_CODE:
            return self.figure(self.R.announce.figures[code - FIGURE_CODE].name)
        for c, _owner, name, _ref, _plan, _opening in st.announce.games:
            if c == code:
                return self.contract(name)
        return self.contract(st.con.name) if st.con is not None else "game"


def names_of(R: Any) -> Names:
    """The display names of a rule set, made on first use and kept with it."""
    got = R.__dict__.get("_display_names")
    if got is None:
        got = R.__dict__["_display_names"] = Names(R)
    return got


def cards(codes: Any) -> str:
    return " ".join("{" + str(c) + "}" for c in codes)


def _count(word: str, n: int) -> str:
    return f"{word} ({n} card{'s' if n != 1 else ''})"


def label(st: Any, action: int, seat: int | None = None, who: int | None = None) -> str:
    """The action as `seat` reads it (None: a reader who sees everything); `who` is the seat acting."""
    R = st.R
    N = names_of(R)
    W = R.words
    kind, arg = A.kind_of(action), A.arg_of(action)
    if kind == A.PLAY:
        return f"{W['play']} {{{R.codes[arg]}}}"
    if kind == A.DISCARD:
        codes = R.rs.codes(arg)
        if seat is not None and who is not None and who != seat:
            return _count(W["discard"], len(codes))
        return f"{W['discard']} {cards(codes)}"
    if kind == A.BID:
        return f"{W['bid']} {N.call(R.calls[arg].name)}"
    if kind in (A.DECLARE, A.REVEAL):
        name = R.contract_names[arg]
        con = R.in_deal(st, R.contracts[name])
        return f"{W['declare']} {N.spoken(name)} ({trump_phrase(N, con)})"
    if kind == A.TRUMP:
        return f"{W['trump']} {N.suit(R.suit_names[arg])}"
    if kind == A.PARTNER_CALL and arg < len(R.codes):
        return f"{W.get('call', 'call')} {{{R.codes[arg]}}}"
    if kind == A.PACKET:
        packets = getattr(st.talon_state, "packets", None) or []
        if st.talon_state.exposed and arg < len(packets):
            return f"{W.get('take', 'take')} {cards(R.rs.codes(packets[arg]))}"
    if kind == A.ANNOUNCE and arg not in (OPEN, DONE, PASS):
        return f"{W['declare']} {N.figure(R.announce.figures[arg - 1].name)}"
    if kind == A.ITEM_KONTRA:
        return _item_kontra(st, arg, N)
    return st.action_text(action)


def _item_kontra(st: Any, arg: int, N: Names) -> str:
    S = st.R.announce
    code, level, other = unpack(arg)
    word = S.levels[level - 1] if level <= len(S.levels) else f"{S.levels[-1]} {level}"
    out = f"{word} {N.item(st, code)}"
    return out + (f" (to seat {other})" if other >= 0 and arg & BY_OWNER else "")


def trump_phrase(N: Names, con: Any) -> str:
    """`trumps: clubs` or `no trumps`."""
    return f"trumps: {N.trump(con)}" if con.trump >= 0 else N.trump(con)


def number(v: Any) -> str:
    """A number as a card player writes it: whole, or whole and a fraction (35 2/3)."""
    if isinstance(v, Fraction) and v.denominator != 1:
        whole, rest = divmod(v.numerator, v.denominator)
        if v < 0:
            return "-" + number(-v)
        return f"{whole} {rest}/{v.denominator}" if whole else f"{rest}/{v.denominator}"
    if isinstance(v, Fraction):
        return str(v.numerator)
    return str(v)


def plain(text: str, show=lambda code: code) -> str:
    """A label with its cards written out by `show` (their codes by default)."""
    return CARD.sub(lambda m: show(m.group(1)), text)


def suit_symbols(R: Any) -> dict[str, str]:
    """Each suit's symbol: the deck's own (`suit S { symbol = … }`), else the notation's French pip."""
    own = (R.rs.document().get("deck") or {}).get("suit") or {}
    out = {s: str((own.get(s) or {}).get("symbol") or SUIT_SYMBOLS.get(s, "")) for s in R.rs.suits}
    return {s: x for s, x in out.items() if x}


def with_symbols(R: Any, code: str) -> str:
    """A card with its suit symbol where the deck or the notation gives one (`K♥`), else its code."""
    i = R.rs.card_index.get(code)
    if i is None:
        return code
    card = R.rs.cards[i]
    symbols = R.__dict__.get("_suit_symbols")
    if symbols is None:
        symbols = R.__dict__["_suit_symbols"] = suit_symbols(R)
    symbol = symbols.get(card.suit)
    return f"{card.rank}{symbol}" if symbol and code == f"{card.rank}{card.suit}" else code
