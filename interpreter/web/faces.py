"""Card faces for the browser, read off the deck's data: each card's suit, the label printed in its
corner (a suit's own `labels`, numerals printed on named cards, where the deck gives them), its
display name (`deck.names`), the suit's title and a colour. Nothing here knows a game.

The project's card notation (DESIGN: rank then suit, suits `C D H S` for French-suited cards) gives the
four French pips their usual symbol and colour; any other suit of a deck (a suit of named cards, a
suit letter of a house deck) is drawn with its own letter and a colour of its own from a small palette,
and a card of a suit given as a list of named cards shows its code without the suit letter prefix.
"""
from __future__ import annotations

import re
from typing import Any

from interpreter.present.labels import SUIT_SYMBOLS, display_names

# the notation's French suits: symbol and colour (the pips, not any game's names for them)
NOTATION_PIPS = {s: (SUIT_SYMBOLS[s], "red" if s in "HD" else "black") for s in "CSHD"}
PALETTE = ("#7a4b00", "#1d4f91", "#2e7d32", "#6a1b9a", "#00695c", "#8d6e63")


def _display(deck: dict, key: str) -> str | None:
    """The deck's display name of a suit, rank or card in the table's language (present.labels)."""
    title = display_names(deck).get(key)
    return str(title) if title else None


def _suit_title(deck: dict, suit: str) -> str:
    own = (deck.get("suit") or {}).get(suit) or {}
    return _display(deck, suit) or (str(own["title"]) if own.get("title") else suit)


def _short(code: str, suit: str) -> str:
    """The corner label of a named card: its code without a leading suit letter (T21 → 21), or the code."""
    m = re.fullmatch(re.escape(suit) + r"(\d+)", code)
    return m.group(1) if m else code


def faces(deck: dict) -> dict[str, dict[str, Any]]:
    """code → {suit, label, symbol, colour, title, named} for every card of the deck."""
    out: dict[str, dict[str, Any]] = {}
    default_ranks = deck.get("ranks", [])
    others = 0
    for suit in deck.get("suits", []):
        own = (deck.get("suit") or {}).get(suit) or {}
        title = _suit_title(deck, suit)
        if suit in NOTATION_PIPS:
            symbol, colour = NOTATION_PIPS[suit]
        else:
            symbol, colour = str(suit), PALETTE[others % len(PALETTE)]
            others += 1
        symbol, colour = str(own.get("symbol") or symbol), str(own.get("colour") or colour)   # as the deck draws it
        if "cards" in own:
            labels = list(own.get("labels") or [])
            for i, code in enumerate(own["cards"]):
                label = str(labels[i]) if i < len(labels) else _short(str(code), str(suit))
                name = _display(deck, str(code)) or label
                out[str(code)] = {"suit": suit, "label": label, "symbol": symbol, "colour": colour, "name": name,
                                  "title": f"{name} ({title})" if name != label else f"{label} ({title})",
                                  "named": True}
        else:
            for rank in own.get("ranks", default_ranks):
                code = f"{rank}{suit}"
                name = _display(deck, code) or f"{_display(deck, str(rank)) or rank} of {title}"
                out[code] = {"suit": suit, "label": str(rank), "symbol": symbol, "colour": colour, "name": name,
                             "title": f"{name} ({code})", "named": False}
    return out


def sort_key(R: Any, con: Any = None):
    """A key that sorts card codes as the terminal shows a hand: by suit, then by rank within the suit; once
    the contract is known, by its suits and order (a ranking's trumps together, lowest first)."""
    index = {code: i for i, code in enumerate(R.codes)}
    suit_of, order = (con.suit_of, con.strength) if con is not None and con.suit_of else (R.suit_of, R.order_of)

    def key(code: str) -> tuple[Any, Any]:
        c = index.get(code, -1)
        return (suit_of[c], order[c]) if c >= 0 else (1 << 30, 0)
    return key
