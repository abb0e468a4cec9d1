"""The rule bot's calls in an auction of level-and-strain bids (a `ladder` with `strains`, 1C …
7NT): a simple point count.

The hand's points are its high-card points (the deck's four highest ranks count 4, 3, 2, 1) and one for each card
beyond four in a suit. The strain it would play: a suit its partner bid where it holds three of it, else no trump
with a balanced hand (no suit shorter than two) of 15 or more, else its longest suit (the higher of equal lengths).
The side's points are its own and what its partner has shown, counted two above its floor (a hand known to hold at
least 13 holds about 15.5): a bid at level L by this count shows the points of L less what the bidder then counted
for his partner (read the same way from the partner's bids), 13 for an opening bid. Their sum gives the highest
level the side should reach — 13: 1, 20: 2, 23: 3, 26: 4 (3 in no trump), 29: 5, 33: 6, 37: 7 — and the bot makes
the cheapest legal bid in its strain up to that level, else passes; with a known fit (the partner's suit where it
holds three, or his no trump) and a slam in reach it bids the slam (6 or 7) at once. It never doubles or redoubles.
A strain that is not a suit (no trump) is read as `NT`-like: any strain name that is not one of the deck's suits.
"""
from __future__ import annotations

from typing import Any

from interpreter.engine import actions as A

__all__ = ["applies", "choose"]

_LEVEL_AT = ((37, 7), (33, 6), (29, 5), (26, 4), (23, 3), (20, 2), (13, 1))
_ABOVE_FLOOR = 2     # a hand of at least 13 points holds 15.5 on average (measured over 12,000 dealt hands)


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


def _credit(shown: int) -> int:
    """What a partner who has shown `shown` points is counted for: a little above the floor, 0 if he has not bid."""
    return shown + _ABOVE_FLOOR if shown else 0


def _need(level: int) -> int:
    return min(need for need, lv in _LEVEL_AT if lv == level)


def _partner_shown(state: Any, me: int) -> tuple[list[str], int]:
    """The partner's strains in order and the points his bids showed (0 when he has not bid): each bid at level
    L by this count shows the points of L less what the bidder credited his side's other seats at that time."""
    teams = state.teams
    by_name = state.R.call_by_name
    out: list[str] = []
    shown: dict[int, int] = {}
    for seat, label in state.auction.calls:
        if label not in by_name:
            continue
        rec = by_name[label].ref.rec
        credited = _credit(max((shown.get(m, 0) for m in teams.get(seat, ()) if m != seat), default=0))
        shown[seat] = max(shown.get(seat, 0), _need(int(rec["level"])) - credited)
        if seat != me and seat in teams.get(me, ()):
            out.append(str(rec["strain"]))
    mates = [m for m in teams.get(me, ()) if m != me]
    return out, max((shown.get(m, 0) for m in mates), default=0)


def choose(bot: Any, state: Any, legal: list[int]) -> int | None:
    """The call by the point count, or None where this auction is not one of levels and strains."""
    if not applies(state):
        return None
    R = state.R
    me = state.to_act
    points, lengths = _points(R, state.hands[me])
    shown, partner_points = _partner_shown(state, me)
    suits = set(R.suit_names)
    strain = None
    fit = False
    for s in reversed(shown):                       # the partner's last suit where we fit
        if s in suits and lengths.get(s, 0) >= 3:
            strain = s
            fit = True
            break
    strains = [str(c.ref.rec["strain"]) for c in R.calls]
    no_trump = next((s for s in strains if s not in suits), None)
    if strain is None:
        if no_trump is not None and points >= 15 and min(lengths.values()) >= 2 or (shown and shown[-1] == no_trump):
            strain = no_trump
            fit = bool(shown) and shown[-1] == no_trump
        else:
            strain = max(R.suit_names, key=lambda s: (lengths[s], R.suit_names.index(s)))
    side = points + _credit(partner_points)
    level = next((lv for need, lv in _LEVEL_AT if side >= need), 0)
    if strain == no_trump and level == 4:
        level = 3
    bids = [(a, R.calls[A.arg_of(a)].ref.rec) for a in legal if A.kind_of(a) == A.BID]
    ours = [(int(rec["level"]), a) for a, rec in bids if str(rec["strain"]) == strain and rec["level"] <= level]
    if ours:
        return max(ours)[1] if fit and level >= 6 else min(ours)[1]
    passes = [a for a in legal if A.kind_of(a) == A.PASS]
    return passes[0] if passes else None
