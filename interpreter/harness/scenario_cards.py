"""The cards of a deal written out (`hands`, `talon`): every card of the deck exactly once, each in a seat that
plays the deal; a talon ending in `...` is completed in deck order. Shared by the runner and by the check of
scenario files whose game is in development (harness/waiting.py)."""
from __future__ import annotations

from interpreter.diagnostics import best_matches
from interpreter.harness.scenario_input import span_of as _span


def explicit_cards(rs, deal: dict, seats: list[str], here: list[str], shown: str, _err) -> dict:
    """{"hands": [cards per seat in `here`], "talon": [cards]}, or an E501 (raised through `_err`) at its line."""
    hands = deal["hands"]
    if not isinstance(hands, dict):
        raise _err(shown, "'hands' must map seats to card lists", _span(deal, "hands"))
    for s in hands:
        if str(s) in seats and str(s) not in here and hands[s]:
            raise _err(shown, f"'{s}' sits out this deal and is dealt no cards", _span(hands, s))
    cards = []
    for s in here:
        lst = hands.get(s, [])
        for i, code in enumerate(lst or []):
            if str(code) not in rs.card_index:
                raise _err(shown, f"unknown card '{code}'", _span(lst, index=i),
                           suggestions=best_matches(str(code), rs.card_index))
        cards.append([str(c) for c in (lst or [])])
    for s in hands:
        if str(s) not in seats:
            raise _err(shown, f"unknown seat '{s}'", _span(hands, s), suggestions=best_matches(str(s), seats))
    talon = [str(c) for c in (deal.get("talon") or [])]
    if talon and talon[-1] in ("...", "…"):         # the rest of the deck, in deck order
        placed = {str(c) for h in cards for c in h} | set(talon[:-1])
        talon = talon[:-1] + [c.code for c in rs.cards if c.code not in placed]
    for i, code in enumerate(talon):
        if code not in rs.card_index:
            raise _err(shown, f"unknown card '{code}'", _span(deal.get("talon"), index=i),
                       suggestions=best_matches(code, rs.card_index))
    every = [c for h in cards for c in h] + talon
    if len(every) != len(set(every)):
        dup = sorted({c for c in every if every.count(c) > 1})
        raise _err(shown, f"a card is dealt twice: {', '.join(dup)}", _span(deal, "hands"))
    if len(every) != rs.deck_size:
        missing = sorted(set(rs.card_index) - set(every))
        raise _err(shown, f"the hands and talon hold {len(every)} cards, not {rs.deck_size}"
                   + (f" (missing {', '.join(missing[:8])})" if missing else ""), _span(deal, "hands"))
    return {"hands": cards, "talon": talon}
