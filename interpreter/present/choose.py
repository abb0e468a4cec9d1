"""Long choices at the `play` prompt: a discard of several cards offers tens of combinations, so it is
not listed; the player names the cards one at a time and each card narrows the choice, until one
legal discard is left."""
from __future__ import annotations

from interpreter.engine import actions as A

LONG = 12   # more discards than this are entered card by card


def discards(state, legal: list[int]) -> list[int]:
    return [a for a in legal if A.kind_of(a) == A.DISCARD]


def is_long(state, legal: list[int]) -> bool:
    return len(discards(state, legal)) > LONG


def cards_of(state, action: int) -> set[str]:
    return set(state.R.rs.codes(A.arg_of(action)))


def size(state, legal: list[int]) -> int:
    found = discards(state, legal)
    return len(cards_of(state, found[0])) if found else 0


def hint(state, legal: list[int], chosen: list[str]) -> str:
    """The prompt line: how many cards, which are chosen, and which may still be named."""
    left = narrow(state, legal, chosen)
    possible = sorted({c for a in left for c in cards_of(state, a)} - set(chosen),
                      key=lambda c: state.R.codes.index(c))
    from interpreter.present.labels import with_symbols

    word = state.R.words["discard"]
    show = lambda codes: " ".join(with_symbols(state.R, c) for c in codes)
    done = f" (so far: {show(chosen)})" if chosen else ""
    return f"{word} {size(state, legal)} cards, one at a time{done}; possible: {show(possible)}"


def narrow(state, legal: list[int], chosen: list[str]) -> list[int]:
    """The discards that hold every chosen card."""
    return [a for a in discards(state, legal) if set(chosen) <= cards_of(state, a)]


def step(state, legal: list[int], chosen: list[str], text: str) -> tuple[list[str], int | None, str | None]:
    """One typed card: the chosen cards after it, the action once only one discard is left, or a message
    when the card cannot be part of any legal discard."""
    card = text.strip().upper()
    if card not in state.R.codes:
        return chosen, None, f"'{text.strip()}' is not a card"
    if card in chosen:
        return chosen, None, f"{card} is chosen already"
    after = chosen + [card]
    left = narrow(state, legal, after)
    if not left:
        return chosen, None, f"{card} cannot be discarded together with {' '.join(chosen) or 'anything'} here"
    if len(left) == 1 and len(after) == len(cards_of(state, left[0])):
        return after, left[0], None
    return after, None, None
