"""Card sets as int bitmasks: the cards of a mask, a mask from card indices, and the subsets of a given size."""
from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

# _BYTES[k][b]: the card indices of the bits set in byte value b at byte k of a mask (grown on demand)
_BYTES: list[tuple[tuple[int, ...], ...]] = []


def _byte_table(k: int) -> tuple[tuple[int, ...], ...]:
    while len(_BYTES) <= k:
        base = 8 * len(_BYTES)
        _BYTES.append(tuple(tuple(base + i for i in range(8) if b >> i & 1) for b in range(256)))
    return _BYTES[k]


_byte_table(7)


_B0, _B1, _B2, _B3, _B4, _B5, _B6, _B7 = _BYTES[:8]
_WIDE = 1 << 64


def bits(mask: int) -> list[int]:
    """The card indices in `mask`, lowest first (a byte at a time, through a table; unrolled for the
    cards of a deck of up to 64)."""
    if mask < _WIDE:
        return [*_B0[mask & 255], *_B1[mask >> 8 & 255], *_B2[mask >> 16 & 255], *_B3[mask >> 24 & 255],
                *_B4[mask >> 32 & 255], *_B5[mask >> 40 & 255], *_B6[mask >> 48 & 255], *_B7[mask >> 56]]
    out: list[int] = []
    k = 0
    table = _BYTES
    while mask:
        b = mask & 255
        if b:
            out += (table[k] if k < len(table) else _byte_table(k))[b]
        mask >>= 8
        k += 1
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
    singles = [1 << i for i in bits(mask)]
    if k == 2:                      # the usual discard
        return [a | b for a, b in combinations(singles, 2)]
    return list(map(sum, combinations(singles, k)))
