"""Card faces for the browser, read off the deck's data: each card's suit, the label printed in its
corner, the suit's title and a colour. Nothing here knows a game.

The project's card notation (DESIGN: rank then suit, suits `C D H S` for French-suited cards) gives the
four French pips their usual symbol and colour; any other suit of a deck (a suit of named cards, a
suit letter of a house deck) is drawn with its own letter and a colour of its own from a small palette,
and a card of a suit given as a list of named cards shows its code without the suit letter prefix.
"""
from __future__ import annotations

import re
from typing import Any

# the notation's French suits: symbol and colour (the pips, not any game's names for them)
NOTATION_PIPS = {"C": ("\u2663", "black"), "S": ("\u2660", "black"), "H": ("\u2665", "red"), "D": ("\u2666", "red")}
PALETTE = ("#7a4b00", "#1d4f91", "#2e7d32", "#6a1b9a", "#00695c", "#8d6e63")


def _suit_title(deck: dict, suit: str) -> str:
    own = (deck.get("suit") or {}).get(suit) or {}
    if own.get("title"):
        return str(own["title"])
    names = deck.get("names") or {}
    for lang in ("en", *names):
        title = (names.get(lang) or {}).get(suit)
        if title:
            return str(title)
    return suit


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
        if "cards" in own:
            for code in own["cards"]:
                out[str(code)] = {"suit": suit, "label": _short(str(code), str(suit)), "symbol": symbol,
                                  "colour": colour, "title": f"{code} ({title})", "named": True}
        else:
            for rank in own.get("ranks", default_ranks):
                code = f"{rank}{suit}"
                out[code] = {"suit": suit, "label": str(rank), "symbol": symbol, "colour": colour,
                             "title": f"{rank} {title}", "named": False}
    return out


def sort_key(R: Any):
    """A key that sorts card codes as the terminal shows a hand: by suit, then by rank within the suit."""
    index = {code: i for i, code in enumerate(R.codes)}

    def key(code: str) -> tuple[int, int]:
        c = index.get(code, -1)
        return (R.suit_of[c], R.order_of[c]) if c >= 0 else (1 << 30, 0)
    return key
