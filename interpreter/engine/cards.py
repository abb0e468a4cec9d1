"""Card sets as int bitmasks: building a mask from card indices, and the subsets of a given size."""
from __future__ import annotations

from itertools import combinations

from interpreter.engine.rules import bits


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def combinations_of(mask: int, k: int) -> list[int]:
    """Every subset of `mask` with exactly k cards, as masks (the legal discards)."""
    out = []
    for combo in combinations(bits(mask), k):
        m = 0
        for i in combo:
            m |= 1 << i
        out.append(m)
    return out
