"""Card sets as int bitmasks: the cards of a mask, a mask from card indices, and the subsets of a given size."""
from __future__ import annotations

import functools
from collections.abc import Iterable
from itertools import combinations


@functools.cache
def _byte_table(k: int) -> tuple[tuple[int, ...], ...]:
    """Per byte value b, the card indices of the bits set in b at byte k of a mask."""
    base = 8 * k
    return tuple(tuple(base + i for i in range(8) if b >> i & 1) for b in range(256))


# _BYTES[k]: _byte_table(k) for the first 8 bytes of a mask, made at once (a longer mask asks for the rest)
_BYTES = tuple(_byte_table(k) for k in range(8))


def _chunk_table(base: int, width: int = 11) -> tuple[tuple[int, ...], ...]:
    """The card indices of the bits set in each `width`-bit value v at bits base… of a mask, lowest first."""
    table: list[tuple[int, ...]] = [()]
    for v in range(1, 1 << width):
        table.append((base + (v & -v).bit_length() - 1, *table[v & (v - 1)]))
    return tuple(table)


# _Ck[v]: the cards of the 11-bit value v at bits 11k… of a mask
_C0, _C1, _C2, _C3, _C4, _C5 = (_chunk_table(11 * k) for k in range(6))
_NARROW = 1 << 33
_WIDE = 1 << 66
# _Tk[v]: the cards of the 10-bit value v at bits 10k… of a mask, for masks of 33 to 60 bits: cut in two
# halves of 30 bits, each a one-digit Python int (below 2^30), whose shifts and ands are the cheap ones
_T0, _T1, _T2, _T3, _T4, _T5 = (_chunk_table(10 * k, 10) for k in range(6))
_HALF = (1 << 30) - 1
_SPLIT = 1 << 60


# 1 << i and ~(1 << i) of the card indices below 256, read from a table: no int is made for them (an int
# of more than 30 bits is a new object on each shift); a larger index goes without (IndexError)
BIT = tuple(1 << i for i in range(256))
CLEAR = tuple(~b for b in BIT)


def bits(mask: int) -> list[int]:
    """The card indices in `mask`, lowest first: 11 bits at a time through a table, unrolled for masks
    below 2^66 (a byte at a time above); from 2^33 to 2^60 in two halves of 30 bits, the lower one skipped
    when it is empty (a mask of the high cards only)."""
    if mask < _NARROW:
        return [*_C0[mask & 2047], *_C1[mask >> 11 & 2047], *_C2[mask >> 22]]
    if mask < _SPLIT:
        hi = mask >> 30
        lo = mask & _HALF
        if lo:
            return [*_T0[lo & 1023], *_T1[lo >> 10 & 1023], *_T2[lo >> 20],
                    *_T3[hi & 1023], *_T4[hi >> 10 & 1023], *_T5[hi >> 20]]
        return [*_T3[hi & 1023], *_T4[hi >> 10 & 1023], *_T5[hi >> 20]]
    if mask < _WIDE:
        return [*_C0[mask & 2047], *_C1[mask >> 11 & 2047], *_C2[mask >> 22 & 2047], *_C3[mask >> 33 & 2047],
                *_C4[mask >> 44 & 2047], *_C5[mask >> 55]]
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
