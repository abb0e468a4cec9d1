"""Sides: who plays with whom in one deal.

A contract's `side` names how the declaring side is formed once the declarer and the contract are
known. Every kind is one function here, registered in SIDE_KINDS; `form(st)` is the one entry point
the phases call, and it sets `st.declarers`, `st.defenders` and `st.partner` (seat → partner seat or
None). Kinds:

    alone        the declarer against every other seat taking part
    nobody       no declaring side: every seat for itself (all against all)
    partnership  the declarer with his fixed partner from `seating.teams`, against the other partnership
    no_declarer  nobody declares, even when a seat's call led to the contract (`declarer` reads none);
                 fixed partnerships still play together
    called       the declarer and the holder of the card he called (`st.called_card`, set by the
                 partner phase); alone when he holds it himself or it lies in the talon. The
                 partnership is state that other seats do not see until it is revealed (`reveal`).

Further kinds are added here as functions of the same shape, never as special cases in the phases.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interpreter.engine.state import State


def _alone(st: State, declarer: int) -> tuple[tuple[int, ...], dict[int, int]]:
    return (declarer,), {}


def _nobody(st: State, declarer: int) -> tuple[tuple[int, ...], dict[int, int]]:
    # the seat that named the contract keeps the declarer's name; nobody partners anybody
    return (declarer,), {}


def _called(st: State, declarer: int) -> tuple[tuple[int, ...], dict[int, int]]:
    card = st.called_card
    if card is None:
        return (declarer,), {}
    bit = 1 << card
    dealt = st.dealt_hands
    for holder in st.active:
        if dealt[holder] & bit:
            if holder == declarer:
                break
            return (declarer, holder), {declarer: holder, holder: declarer}
    return (declarer,), {}


def fixed_partners(st: State) -> dict[int, int]:
    """The fixed partnerships of `seating.teams` as partner pairs both ways (empty without teams)."""
    out: dict[int, int] = {}
    for seat, team in st.teams.items():
        mates = [t for t in team if t != seat]
        if len(mates) == 1:
            out[seat] = mates[0]
    return out


def _partnership(st: State, declarer: int) -> tuple[tuple[int, ...], dict[int, int]]:
    # the declarer and his fixed partner (seating.teams) against the other partnership
    partner = fixed_partners(st)
    mate = partner.get(declarer)
    return ((declarer,) if mate is None else (declarer, mate)), partner


def _no_declarer(st: State, declarer: int) -> tuple[tuple[int, ...], dict[int, int]]:
    # nobody declares, whoever's call led to the contract: no declaring side; fixed partners still play
    # together (form() clears the declarer when a kind gives no declaring seats)
    return (), fixed_partners(st)


# kind -> f(state, declarer) -> (declaring seats, partner pairs both ways)
SIDE_KINDS: dict[str, Callable[[State, int], tuple[tuple[int, ...], dict[int, int]]]] = {
    "alone": _alone,
    "nobody": _nobody,
    "called": _called,
    "partnership": _partnership,
    "no_declarer": _no_declarer,
}


def form(st: State) -> None:
    """Set the declaring side and the defenders from the declarer and the contract's side kind."""
    seat = st._declarer             # the values behind the properties `declarer` and `con` (engine/state.py)
    if seat is None:
        st.declarers, st.defenders, st.partner = (), tuple(st.active), fixed_partners(st)
        return
    con = st._con
    kind = con.side if con is not None else "alone"
    if kind in _BY_SEAT or kind == "called" and st.called_card is None:     # read from the table, made on first need
        key = (kind, seat, st.active)
        table = st.R.memos.sides_formed
        formed = table.get(key)
        if formed is None:
            declarers, partner = SIDE_KINDS[kind](st, seat)
            formed = table[key] = (declarers, _defenders(st, declarers), partner)
        st.declarers, st.defenders, st.partner = formed
        return
    declarers, partner = SIDE_KINDS[kind](st, seat)
    if not declarers:           # a kind without a declaring side leaves no declarer (no_declarer)
        st._declarer = None
    st.declarers = declarers
    st.defenders = _defenders(st, declarers)
    st.partner = partner


def _defenders(st: State, declarers: tuple[int, ...]) -> tuple[int, ...]:
    """The seats taking part that do not declare (a table per compiled game: a deal forms its sides more than
    once)."""
    active = st.active
    key = (active, declarers)
    table = st.R.memos.defenders
    defenders = table.get(key)
    if defenders is None:
        defenders = table[key] = tuple(s for s in active if s not in declarers)
    return defenders


# the kinds whose sides follow from the declarer and the seats taking part alone (a declaring seat each,
# no partner pairs; so do `called` ones before a card is called): their sides kept (Memos.sides_formed)
_BY_SEAT = frozenset({"alone", "nobody"})


def partner_of(st: State, seat: int | None) -> int | None:
    """The seat's partner in this deal, or None when it plays alone."""
    if seat is None:
        return None
    return st.partner.get(seat)


def hidden(st: State) -> bool:
    """The declaring side is not yet known to the whole table: a called card not yet played, declared or
    otherwise revealed."""
    return st.called_card is not None and not st.revealed


def reveal(st: State) -> None:
    """Make the declaring side public: the called card was played, or a declaration or kontra showed
    which side a seat is on (the declaration round calls this)."""
    st.revealed = True


def known_to(st: State, seat: int) -> tuple[int, ...]:
    """The declaring side as `seat` knows it: all of it once public; before that the partner knows
    himself and the declarer, and every other seat knows only the declarer."""
    if not hidden(st) or seat in st.partner and seat != st.declarer:
        return st.declarers
    return (st.declarer,) if st.declarer is not None else ()


def observe(st: State, seat: int, obs: dict) -> None:
    """What `seat` sees of the sides: the called card, and the declaring side as far as it knows it."""
    if st.called_card is None:
        return
    card = st.called_card
    # called by count ("the fourth"), the card is named only to the declarer and to its holder until
    # the partnership is public
    knows = not st.called_by_count or not hidden(st) or seat == st.declarer or bool(st.hands[seat] >> card & 1)
    obs["called_card"] = st.R.codes[card] if knows else None
    if st.called_by_count:
        obs["called_by_count"] = True
    obs["declarers"] = list(known_to(st, seat))
    obs["partner_revealed"] = not hidden(st)
