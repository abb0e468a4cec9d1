"""Sits and rubbers: who sits where, when a sit ends, and who moves where after it.

A partnership game is played in sits (deals without changing seats) grouped in rubbers. The rule
file's `session.sit` says when a sit ends (`ends`), what is booked then (`reckoning`), how many sits
make a rubber (`per_rubber`) and how the players move afterwards: either rows of `reseat` (the players
of two seats change places, when a condition holds) or, with `seating.sit_out = rotation`, the schedule
`seating.rotation` (one row of player numbers per sit; whoever is missing waits on the bench).

The engine's seats are the chairs; `Table` keeps which player sits in each (`seat_player`), so that
`per = player` accounts follow the players, and which pairs of players have partnered in the current
rubber (`partnered(a, b)`). The turn to deal stays with the seat; its new occupant takes it over.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from interpreter.engine import seating
from interpreter.engine.context import Ctx
from interpreter.engine.errors import RuleRuntimeError
from interpreter.engine.phases import settle


@dataclass(frozen=True)
class ReseatRow:
    after: int | None
    when: Any
    swap: tuple[Any, ...]
    note: str


@dataclass(frozen=True)
class SitSettings:
    present: bool
    ends: Any
    per_rubber: int
    reckoning: settle.Rows
    reseat: list[ReseatRow]
    rotation: list[tuple[int, ...]]
    new_rubber: Any


def settings(R: Any) -> SitSettings:
    """The compiled `session.sit` of a rule set (compiled once, kept on the rules)."""
    cached = R.memos.sit_settings
    if cached is not None:
        return cached
    comp = R.compiler
    sit = R.rs.game.sit
    rows = [ReseatRow(after=r.after, when=comp.text(r.when) if r.when is not None else None,
                      swap=tuple(comp.text(x) for x in r.swap), note=r.note) for r in sit.reseat]
    out = SitSettings(
        present=sit.present, ends=comp.text(sit.ends) if sit.ends is not None else None,
        per_rubber=sit.per_rubber,
        reckoning=settle.Rows("reckoning", tuple(settle.row(comp, r) for r in sit.reckoning)),
        reseat=rows, rotation=list(R.rs.game.seating.rotation),
        new_rubber=comp.text(sit.new_rubber) if sit.new_rubber is not None else None)
    R.memos.sit_settings = out
    return out


@dataclass
class Table:
    """The session's seating: the player in each seat, the bench, the sit and rubber, the partners so far."""
    seat_player: tuple[int, ...]
    people: int
    sit: int = 1                    # the current sit of the rubber, from 1
    rubber: int = 1
    partners: set[frozenset[int]] = field(default_factory=set)   # pairs that partnered in this rubber
    sat_out: list[int] = field(default_factory=list)             # sits each player spent on the bench
    sits: list[dict] = field(default_factory=list)               # one record per finished sit

    @property
    def bench(self) -> tuple[int, ...]:
        return tuple(p for p in range(self.people) if p not in self.seat_player)

    def partnered(self, a: int, b: int) -> bool:
        return frozenset((a, b)) in self.partners

    def partnered_seats(self, st: Any, a: Any, b: Any) -> bool:
        if not isinstance(a, int) or not isinstance(b, int) or a == b:
            return False
        return self.partnered(st.seat_player[a], st.seat_player[b])

    def seat_of(self, player: int) -> int | None:
        return self.seat_player.index(player) if player in self.seat_player else None

    def copy(self) -> Table:
        return Table(self.seat_player, self.people, self.sit, self.rubber, set(self.partners),
                     list(self.sat_out), [dict(s) for s in self.sits])


def new_table(R: Any) -> Table:
    """The seating of the first sit: the rotation's first row, or player p in seat p."""
    S = settings(R)
    n, people = R.n_seats, seating.people(R.rs)
    seat_player = _rotation_row(S, 0, n) if S.rotation else tuple(range(n))
    return Table(seat_player=seat_player, people=people, sat_out=[0] * people)


def _draw(R: Any, table: Table, next_dealer: int, rng: random.Random) -> tuple[int, ...]:
    """Seats by a fresh draw (`seating.draw`): every player draws a card from a shuffled pack; the places
    are steps from the seat that deals next, so the card that deals first deals there."""
    deck = list(R.rs.card_index)
    rng.shuffle(deck)
    drawn = {p: deck[p] for p in range(table.people)}
    placed = seating.seats_by_draw(R.rs, drawn) if R.rs.game.seating.draw.places else {}
    if len(placed) < R.n_seats:                     # no places given: in the order of the cards
        order = seating.draw_order(R.rs, drawn)
        placed = dict(enumerate(order[:R.n_seats]))
    seats = [0] * R.n_seats
    for step, player in placed.items():
        seats[(next_dealer + step) % R.n_seats] = player
    return tuple(seats)


def _rotation_row(S: SitSettings, index: int, n: int) -> tuple[int, ...]:
    row = S.rotation[index % len(S.rotation)]
    return tuple(p - 1 for p in row[:n])


def sit_over(st: Any) -> bool:
    """The sit ends after this deal (its `ends`)."""
    S = settings(st.R)
    return S.present and S.ends is not None and bool(S.ends(Ctx(st)))


def close_sit(st: Any, table: Table) -> dict:
    """Book the sit's end on the deal's state (the `reckoning` rows) and note who partnered whom."""
    S = settings(st.R)
    before = {p: _player_value(st, p) for p in range(table.people)}
    settle.apply_rows(st, S.reckoning, record=True)
    for team in {t for t in st.teams.values() if len(t) == 2}:
        a, b = (st.seat_player[s] for s in team)
        table.partners.add(frozenset((a, b)))
    for p in table.bench:
        table.sat_out[p] += 1
    record = {"rubber": table.rubber, "sit": table.sit, "seats": list(table.seat_player),
              "bench": list(table.bench), "teams": sorted({tuple(st.seat_player[s] for s in t) for t in st.teams.values()}),
              "rows": {p: _player_value(st, p) for p in range(table.people)}, "before": before}
    table.sits.append(record)
    return record


def _player_value(st: Any, player: int) -> dict:
    """The `per = player` accounts of one player."""
    out = {}
    for name, spec in st.R.accounts.items():
        if spec.per == "player":
            vals = st.accounts.get(name) or []
            out[name] = vals[player] if player < len(vals) else 0
    return out


def next_sit(R: Any, table: Table, next_dealer: int, accounts: dict, deal_number: int) -> list[str]:
    """Move the players for the next sit; returns the moves, in words, for the record."""
    from interpreter.engine.state import State

    S = settings(R)
    n = R.n_seats
    table.sit += 1
    rubber_over = S.per_rubber and table.sit > S.per_rubber
    moves: list[str] = []
    if rubber_over:
        table.sit = 1
        table.rubber += 1
        table.partners = set()
        choice = "stay"
        if S.new_rubber is not None:
            probe = State(R, next_dealer, [0] * n, [], accounts=accounts, deal_number=deal_number,
                          seat_player=table.seat_player, table=table)
            choice = str(S.new_rubber(Ctx(probe)))
            if choice not in ("stay", "draw"):
                raise RuleRuntimeError(f"session.sit.new_rubber gives {choice!r}; it must be stay or draw")
        if choice == "draw" and not S.rotation:
            table.seat_player = _draw(R, table, next_dealer, random.Random(f"draw:{table.rubber}:{deal_number}"))
            moves.append("seats drawn again for the new rubber")
            return moves
        if S.rotation:
            table.seat_player = _rotation_row(S, 0, n)
        return moves
    if S.rotation:
        table.seat_player = _rotation_row(S, table.sit - 1, n)
        return moves
    done = table.sit - 1
    probe = State(R, next_dealer, [0] * n, [], accounts=accounts, deal_number=deal_number,
                  seat_player=table.seat_player, table=table)
    c = Ctx(probe)
    swaps = []
    for row in S.reseat:
        if row.after is not None and row.after != done:
            continue
        if row.when is not None and not row.when(c):
            continue
        seats = tuple(f(c) for f in row.swap)
        if len(seats) == 1 and isinstance(seats[0], tuple):
            seats = seats[0]
        swaps.append((seats, row.note))
    order = list(table.seat_player)
    for seats, note in swaps:
        if len(seats) != 2 or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in seats):
            raise RuleRuntimeError(f"a reseat row's swap gives {seats!r}; it must give two seats")
        a, b = seats
        order[a], order[b] = order[b], order[a]
        moves.append(f"seats {a} and {b} change places ({note})" if note else f"seats {a} and {b} change places")
    table.seat_player = tuple(order)
    return moves
