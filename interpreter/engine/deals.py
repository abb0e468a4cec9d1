"""An explicit deal checked before play: every card known, dealt once, and every hand and the talon of
the size the rule file's packets give. `new_game(deal=…)` calls it, so a tampered log or save cannot
start a deal the rules could never have dealt."""
from __future__ import annotations


class DealError(ValueError):
    """A stated deal that the rules could not have dealt."""


def validate_deal(rules, hands, talon, dealer: int | None = None) -> tuple[list[int], list[int]]:
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
    for s, size in enumerate(sizes):
        if size == 0 and n > rules.players:       # a seat that sits out this deal (which one, the seating says)
            continue
        if size != rs.hand_size:
            raise DealError(f"seat {s} holds {size} cards, the rules deal {rs.hand_size}")
    if sum(1 for size in sizes if size) != rules.players:
        raise DealError(f"the deal must give cards to {rules.players} seats, not {sum(1 for x in sizes if x)}")
    if len(talon_cards) != rs.talon_size:
        raise DealError(f"the talon holds {len(talon_cards)} cards, the rules put {rs.talon_size} there")
    if len(seen) != rs.deck_size:
        raise DealError(f"the deal holds {len(seen)} cards, the deck has {rs.deck_size}")
    return masks, talon_cards
