"""The rule bot's calls in an auction of level-and-strain bids (a `ladder` with `strains`, contract bridge's
1C … 7NT): a simple point count.

The hand's points are its high-card points (the deck's four highest ranks count 4, 3, 2, 1) and one for each
card beyond four in a suit. The strain it would play: a suit its partner bid where it holds three of it, else
no trump with a balanced hand (no suit shorter than two) of 15 or more, else its longest suit (the higher of
equal lengths). The side's points are its own and what its partner has shown: 13 once the partner has bid,
none otherwise. Their sum gives the highest level the side should reach — 13: 1, 20: 2, 23: 3, 26: 4 (3 in no
trump), 29: 5, 33: 6, 37: 7 — and the bot makes the cheapest legal bid in its strain up to that level, else
passes. It never doubles or redoubles. A strain that is not a suit (no trump) is read as `NT`-like: any strain
name that is not one of the deck's suits.
"""
from __future__ import annotations

from typing import Any

from interpreter.engine import actions as A

__all__ = ["applies", "choose"]

_LEVEL_AT = ((37, 7), (33, 6), (29, 5), (26, 4), (23, 3), (20, 2), (13, 1))


def applies(state: Any) -> bool:
    """The auction's calls carry a level and a strain (a ladder with strains)."""
    R = state.R
    got = R.__dict__.get("_strain_calls")
    if got is None:
        got = R.__dict__["_strain_calls"] = bool(R.calls) and all(
            "strain" in c.ref.rec and "level" in c.ref.rec for c in R.calls)
    return got


def _points(R: Any, hand: int) -> tuple[int, dict[str, int]]:
    lengths = dict.fromkeys(R.suit_names, 0)
    top: dict[int, int] = {}
    for card in R.cards:                            # the highest order in each suit
        top[R.suit_of[card.index]] = max(top.get(R.suit_of[card.index], 0), card.order)
    hcp = 0
    for i, card in enumerate(R.cards):
        if hand >> i & 1:
            suit = R.suit_of[i]
            lengths[R.suit_names[suit]] += 1
            hcp += max(0, card.order - top[suit] + 4)     # the four highest: 4, 3, 2, 1
    return hcp + sum(max(0, n - 4) for n in lengths.values()), lengths


def _partner_strains(state: Any, me: int) -> list[str]:
    mates = [s for s in state.teams.get(me, ()) if s != me]
    by_name = state.R.call_by_name
    out = []
    for seat, label in state.auction.calls:
        if seat in mates and label in by_name:
            out.append(str(by_name[label].ref.rec["strain"]))
    return out


def choose(bot: Any, state: Any, legal: list[int]) -> int | None:
    """The call by the point count, or None where this auction is not one of levels and strains."""
    if not applies(state):
        return None
    R = state.R
    me = state.to_act
    points, lengths = _points(R, state.hands[me])
    shown = _partner_strains(state, me)
    suits = set(R.suit_names)
    strain = None
    for s in reversed(shown):                       # the partner's last suit where we fit
        if s in suits and lengths.get(s, 0) >= 3:
            strain = s
            break
    strains = [str(c.ref.rec["strain"]) for c in R.calls]
    no_trump = next((s for s in strains if s not in suits), None)
    if strain is None:
        if no_trump is not None and points >= 15 and min(lengths.values()) >= 2 or (shown and shown[-1] == no_trump):
            strain = no_trump
        else:
            strain = max(R.suit_names, key=lambda s: (lengths[s], R.suit_names.index(s)))
    side = points + (13 if shown else 0)
    level = next((lv for need, lv in _LEVEL_AT if side >= need), 0)
    if strain == no_trump and level == 4:
        level = 3
    passes = [a for a in legal if A.kind_of(a) == A.PASS]
    for a in legal:
        if A.kind_of(a) != A.BID:
            continue
        rec = R.calls[A.arg_of(a)].ref.rec
        if str(rec["strain"]) == strain and rec["level"] <= level:
            return a
    return passes[0] if passes else None
