"""Pass: the deck is well formed — card codes are unique, every suit has cards, and the stated
point total matches the points of the cards."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from interpreter.checks.context import Context
from interpreter.language.document import escape
from interpreter.model.deck import card_points
from interpreter.model.values import constant


def _card_source(deck: dict, code: str) -> str:
    """Pointer to the list that gives card `code` a second time: a suit's `cards` or `ranks`, or the deck's `ranks`."""
    found = []
    for suit in deck.get("suits", []):
        own = (deck.get("suit") or {}).get(suit, {})
        if "cards" in own:
            if code in map(str, own["cards"]):
                found.append(f"/deck/suit/{escape(str(suit))}/cards")
        elif "ranks" in own:
            if code in (f"{r}{suit}" for r in own["ranks"]):
                found.append(f"/deck/suit/{escape(str(suit))}/ranks")
        elif code in (f"{r}{suit}" for r in deck.get("ranks", [])):
            found.append("/deck/ranks")
    return found[-1] if found else "/deck"


def check(ctx: Context) -> None:
    deck = ctx.doc.get("deck")
    if not isinstance(deck, dict):
        return
    dupes = [c for c, n in Counter(ctx.cards).items() if n > 1]
    if dupes:
        ctx.error("E302", "the deck has the same card more than once: " + ", ".join(sorted(dupes)[:8]),
                  _card_source(deck, dupes[0]), help="every card of the deck must have its own code")
    dup_suits = [s for s, n in Counter(ctx.suits).items() if n > 1]
    if dup_suits:
        ctx.error("E302", "a suit is listed twice: " + ", ".join(dup_suits), "/deck/suits")
    for suit in ctx.suits:
        own = (deck.get("suit") or {}).get(suit, {})
        if not own.get("cards") and not own.get("ranks", deck.get("ranks")):
            ctx.error("E302", f"suit '{suit}' has no cards", "/deck/suits",
                      help="give the deck `ranks`, or the suit its own `ranks` or `cards`")
    for suit, own in (deck.get("suit") or {}).items():
        labels = own.get("labels") if isinstance(own, dict) else None
        if labels is not None and len(labels) != len(own.get("cards") or []):
            ctx.error("E302", f"suit '{suit}' has {len(labels)} labels for {len(own.get('cards') or [])} cards",
                      f"/deck/suit/{escape(str(suit))}/labels", help="give one label per card of the suit's `cards`, in their order")
    total = (deck.get("points") or {}).get("total")
    if total is not None:
        want = constant(total)
        got = sum(card_points(deck, ctx.cards).values(), Fraction(0))
        if want is not None and got != want:
            ctx.error("E302", f"the cards' points add up to {got}, not the stated total {want}", "/deck/points/total",
                      help="a card is worth its `card` points, else its `rank` points, plus `each`; "
                           "correct the points or the total")
