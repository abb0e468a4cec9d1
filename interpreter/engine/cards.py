"""Card sets as int bitmasks: the cards of a mask, a mask from card indices, and the subsets of a given size."""
from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations


def bits(mask: int) -> list[int]:
    """The card indices in `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def combinations_of(mask: int, k: int) -> list[int]:
    """Every subset of `mask` with exactly k cards, as masks (the legal discards), in the order of
    itertools.combinations over the cards lowest first. The cards' bits are distinct, so their sum is
    their union, taken in C."""
    return [sum(combo) for combo in combinations([1 << i for i in bits(mask)], k)]
