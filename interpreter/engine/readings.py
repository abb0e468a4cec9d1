"""What rule expressions and phases read off a game state: the sides' seats, tricks, points, cards
held and won, the auction's calls, the accounts. A mixin of engine/state.State, kept apart from the
machine that moves the state on; every method only reads."""
from __future__ import annotations

from fractions import Fraction
from operator import getitem
from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.registry import reads

if TYPE_CHECKING:
    from interpreter.engine.phases.announce_state import AnnounceState
    from interpreter.engine.phases.auction_state import AuctionState
    from interpreter.engine.phases.play import PlayState
    from interpreter.engine.phases.talon import TalonState
    from interpreter.engine.rules import ContractRT, Rules
    from interpreter.engine.state import State


class Readings:
    """The reading half of a State (engine/state.py)."""

    if TYPE_CHECKING:
        R: Rules
        n: int
        active: tuple[int, ...]
        accounts: dict
        teams: dict
        seat_player: tuple[int, ...]
        hands: list[int]
        dealt_hands: tuple[int, ...]
        declarers: tuple[int, ...]
        defenders: tuple[int, ...]
        final_call: Any
        auction: AuctionState
        announce: AnnounceState
        play: PlayState
        talon_state: TalonState
        discards: int
        con: ContractRT | None
        declarer: int | None
        _con: ContractRT | None
        _seat_ring: tuple
        _declarer: int | None

    def _me(self) -> State:
        return self  # type: ignore[return-value]     # a Readings is always the State it is mixed into

    # ---- what the phases read --------------------------------------------------------------------
    def call_contracts(self, call: Any, seat: int | None) -> list[str]:
        """The contracts a call's winner may choose from: its list, or its `contracts` expression judged for `seat`."""
        if call.contracts_expr is None:
            return list(call.contracts)
        value = call.contracts_expr(Ctx(self._me(), seat, call.ref))
        items = (value,) if isinstance(value, str) else tuple(value or ())
        return [str(x) for x in items if str(x) in self.R.contracts]

    @reads("_con", "_declarer", "cache", "bool", "goal", "get", mirrors=("HOISTED",))
    def made_in(self, c: Ctx) -> bool:
        """The declaring side has made its contract (memoised while settlement rows are evaluated)."""
        con = self._con
        if con is None or self._declarer is None:
            return False
        cache = c.cache
        if cache is None:
            return bool(con.goal(c))
        made = cache.get("made")
        if made is None:
            made = cache["made"] = bool(con.goal(c))
        return made

    @property
    def made(self) -> bool:
        return self.made_in(Ctx(self._me()))

    @property
    def contract(self) -> Any:
        con = self._con
        return con.ref if con is not None else None

    @property
    @reads("final_call.ref", mirrors=("_CALLS",))
    def final(self) -> Any:
        final = self.final_call
        return final.ref if final is not None else None

    @property
    @reads("auction.high_call.ref", mirrors=("_CALLS",))
    def high(self) -> Any:
        high = self.auction.high_call
        return high.ref if high is not None else None

    @property
    def trump(self) -> str | None:
        con = self._con
        if con is None or con.trump < 0:
            return None
        return self.R.suit_names[con.trump]

    # ---- functions of the expression language (engine/builtins.py) --------------------------------
    def _ring(self) -> tuple:
        """(active seats, each seat's next active seat, each seat's previous one), kept for `self.active`."""
        ring = self._seat_ring
        if ring[0] is self.active:
            return ring
        n, active = self.n, self.active
        rings = self.R.memos.seat_rings
        tables = rings.get((n, active))
        if tables is None:
            tables = rings[(n, active)] = tuple(tuple(self._step(s, d) for s in range(n)) for d in (1, -1))
        ring = self._seat_ring = (active, *tables)
        return ring

    @reads("_seat_ring", "active", "_ring", "n", "_step", mirrors=("READING_INLINE",))
    def next(self, s: int | None) -> int | None:
        if s is None:
            return None
        ring = self._seat_ring
        if ring[0] is not self.active:
            ring = self._ring()
        return ring[1][s] if 0 <= s < self.n else self._step(s, 1)

    def seat_after(self, s: int) -> int:
        """The next seat taking part after `s` (for the phases, where `s` is always a seat)."""
        ring = self._seat_ring
        if ring[0] is not self.active:
            ring = self._ring()
        return ring[1][s] if 0 <= s < self.n else self._step(s, 1)

    @reads("_seat_ring", "active", "_ring", "n", "_step", mirrors=("READING_INLINE",))
    def prev(self, s: int | None) -> int | None:
        if s is None:
            return None
        ring = self._seat_ring
        if ring[0] is not self.active:
            ring = self._ring()
        return ring[2][s] if 0 <= s < self.n else self._step(s, -1)

    def _step(self, s: int, d: int) -> int:
        for k in range(1, self.n + 1):
            t = (s + d * k) % self.n
            if t in self.active:
                return t
        return s

    def order_of(self, s: int | None) -> int:
        order = self.auction.bid_order
        return order.index(s) if s in order else -1

    def opponents_of(self, s: int | None) -> tuple[int, ...]:
        if s in self.declarers:
            return self.defenders
        return self.declarers

    def _seats_of(self, x: Any) -> tuple:
        if type(x) is tuple:
            return x
        if x is None:
            return ()
        if isinstance(x, int):
            return (x,)
        return tuple(x)

    @reads("play.tricks_won", "type", "int", "tuple", "isinstance", mirrors=("READING_INLINE",))
    def tricks(self, x: Any) -> int:
        won = self.play.tricks_won
        if type(x) is int:
            return won[x]
        if type(x) is tuple:            # a side (as below, without the checks)
            total = 0
            for s in x:
                total += won[s]
            return total
        if x is None:
            return 0
        if isinstance(x, int):
            return won[x]
        total = 0
        for s in x:
            total += won[s]
        return total

    def points(self, x: Any) -> Any:
        given = self.announce.given
        if given is not None and "points" in given:     # an outcome-only deal states each seat's points
            total = sum((Fraction(given["points"].get(s, 0)) for s in self._seats_of(x)), Fraction(0))
            return int(total) if total.denominator == 1 else total
        seats = x if type(x) is tuple else self._seats_of(x)
        cards = share(self, seats)  # type: ignore[arg-type]   # the side's talon share (engine/phases/talon.py)
        won = self.play.won_cards
        for s in seats:
            cards |= won[s]
        return mask_points(self.R, cards)

    def point_units(self, x: Any) -> Any:
        """points(x) in the rule set's point units (point_tables: its cards' points times their common
        denominator): a whole number, exact, that compares as points(x) does once the other side is in the
        same units; an outcome-only deal's stated points times that denominator."""
        given = self.announce.given
        if given is not None and "points" in given:
            return self.points(x) * point_tables(self.R)[1]
        won = self.play.won_cards
        tl = self.talon_state       # talon cards counted for a side (share: none while these are empty)
        talon = tl.to_declarers or tl.to_defenders or self.discards
        if type(x) is int:          # a seat (the common case, as below)
            cards = won[x] | share(self, (x,)) if talon else won[x]  # type: ignore[arg-type]
        else:
            seats = x if type(x) is tuple else self._seats_of(x)
            cards = share(self, seats) if talon else 0  # type: ignore[arg-type]   # as points() counts them
            for s in seats:
                cards |= won[s]
        planes = self.R.memos.point_planes
        if planes is None:
            planes = point_planes(self.R)
        if len(planes) == 4:        # units under 16: each card's units a sum of its bits (a count each, in C)
            p0, p1, p2, p3 = planes
            return (cards & p0).bit_count() + 2 * (cards & p1).bit_count() + 4 * (cards & p2).bit_count() \
                + 8 * (cards & p3).bit_count()
        if planes:
            total = 0
            for k, p in enumerate(planes):
                total += (cards & p).bit_count() << k
            return total
        rows, size = point_rows(self.R)     # (a card of negative points: no planes)
        try:        # the cards a byte at a time, each byte's units looked up in its row (all in C)
            return sum(map(getitem, rows, cards.to_bytes(size, "little")))
        except OverflowError:       # cards beyond the rule set's (never dealt): as mask_points, not counted
            return sum(map(getitem, rows, (cards & ((1 << 8 * size) - 1)).to_bytes(size, "little")))

    def captured(self, x: Any, cards: int) -> bool:
        won = 0
        won_cards = self.play.won_cards
        for s in x if type(x) is tuple else self._seats_of(x):     # a tuple is its own seats
            won |= won_cards[s]
        return cards & won == cards

    def holds(self, s: int | None, cards: Any) -> bool:
        if isinstance(cards, int) and s is not None:
            return bool(self.hands[s] & (cards if cards > 0 else 0))
        return False

    def dealt(self, x: Any, cards: int) -> int:
        hands = self.dealt_hands
        n = 0
        for s in x if type(x) is tuple else self._seats_of(x):     # a tuple is its own seats
            n += (hands[s] & cards).bit_count()
        return n

    def count_in(self, cards: int, s: int | None) -> int:
        return bin(self.hands[s] & cards).count("1") if s is not None else 0

    def first_call(self, s: int | None) -> Any:
        return self.auction.first_call[s] if s is not None else None

    def first_bid(self, s: int | None) -> Any:
        return self.auction.first_bid[s] if s is not None else None

    def latest(self, s: int | None) -> Any:
        return self.auction.latest[s] if s is not None else None

    def has_bid(self, s: int | None) -> bool:
        return s is not None and self.auction.first_bid[s] is not None

    def spoke(self, s: int | None) -> bool:
        return s is not None and self.auction.first_call[s] is not None

    def account_keys(self, name: str, keys: tuple) -> tuple:
        """The stored keys of account(name, s…): a seat's partnership for `per = team`, the person sitting
        there for `per = player`, else the seats themselves."""
        spec = self.R.accounts.get(name)
        if spec is None or len(keys) != 1 or not isinstance(keys[0], int):
            return keys
        per = spec.per
        if per == "team":
            return self.teams.get(keys[0], (keys[0],))
        if per == "player":
            return (self.seat_player[keys[0]],)
        return keys

    def account(self, name: Any, *keys: Any) -> Any:
        if type(name) is not str:
            name = str(name)
        v = self.accounts.get(name, 0)
        if not keys:
            return v
        if len(keys) == 1 and type(seat := keys[0]) is int:     # one seat: account_keys, without the call
            spec = self.R.accounts.get(name)
            per = spec.per if spec is not None else None
            if per == "team":
                keys = self.teams.get(seat, (seat,))
            elif per == "player":
                keys = (self.seat_player[seat],)
        else:
            keys = self.account_keys(name, keys)
        if isinstance(v, list) and len(keys) == 1 and isinstance(keys[0], int):
            return v[keys[0]]
        if isinstance(v, dict):
            return v.get(tuple(keys), 0)
        return 0

    def won_trick(self, x: Any, n: int) -> bool:
        history = self.play.history
        idx = n - 1 if n > 0 else len(history) + n
        return 0 <= idx < len(history) and history[idx][1] in self._seats_of(x)

    def trick_winner(self, n: int) -> int | None:
        history = self.play.history
        idx = n - 1 if n > 0 else len(history) + n
        return history[idx][1] if 0 <= idx < len(history) else None


def point_tables(R: Any) -> tuple:
    """The rule set's tables of card points (mask_points builds them once): the byte-wide
    rows of point units, the denominator of a unit (the lowest common one of the cards' points), and the
    values made so far by total."""
    table = R.memos.point_tables
    if table is None:
        mask_points(R, 0)
        table = R.memos.point_tables
    return table


def point_planes(R: Any) -> tuple:
    """The rule set's cards by the bits of their point units (point_tables), made once per rule set: per
    bit, low first, the set of cards whose units have it, as many as the largest units need and at least 4
    (0 beyond); a set of cards has the units sum(count(cards & plane) << bit). Empty when a card has
    negative units (point_rows is read then). What point_units reads."""
    planes = R.memos.point_planes
    if planes is None:
        rows = point_tables(R)[0]
        units = [rows[c >> 3][1 << (c & 7)] for c in range(8 * len(rows))]   # (0 beyond the deck)
        if min(units, default=0) < 0:
            planes = ()
        else:
            top = max(4, max(units, default=0).bit_length())
            planes = tuple(sum(1 << c for c, u in enumerate(units) if u >> k & 1) for k in range(top))
        R.memos.point_planes = planes
    return planes


def point_rows(R: Any) -> tuple:
    """The rows of point_tables as a tuple, with their number (the bytes of a set of cards they read), made
    once per rule set: what point_units reads."""
    rows = R.memos.point_rows
    if rows is None:
        table = point_tables(R)[0]
        rows = R.memos.point_rows = (tuple(table), len(table))
    return rows


def share(st: State, seats: tuple) -> int:
    """The talon cards whose points count for `seats`: the declaring side's share (the discards and any
    talon cards given to it) when the set holds the declarer, the defenders' share when it holds a
    defender. Each share counts once however many members of its side the set holds."""
    tl = st.talon_state
    if not (tl.to_declarers or tl.to_defenders or st.discards):     # nothing counts for either side
        return 0
    m = 0
    declarer = st.declarer
    if declarer is not None and declarer in seats:
        m |= tl.to_declarers | (st.discards if tl.discards_to == "declarer" else 0)
    defenders = st.defenders
    for s in seats:
        if s in defenders:
            m |= tl.to_defenders | (st.discards if tl.discards_to == "defenders" else 0)
            break
    return m


def mask_points(R: Any, cards: int) -> Any:
    """The card points of a set of cards, exact: a sum over byte-wide tables built once per rule set."""
    memos = R.memos
    table = memos.point_tables
    if table is None:
        from fractions import Fraction
        from math import lcm

        values = [Fraction(c.points) for c in R.cards]
        den = lcm(*(v.denominator for v in values)) if values else 1
        units = [int(v * den) for v in values]
        rows = []
        for base in range(0, len(units), 8):
            rows.append([sum(units[base + i] for i in range(8) if b >> i & 1 and base + i < len(units))
                         for b in range(256)])
        table = memos.point_tables = (rows, den, {})
    rows, den, values = table
    total = 0
    for row in rows:
        total += row[cards & 255]
        cards >>= 8
    # each total's value made once per rule set (a Fraction is built and reduced only the first time)
    value = values.get(total)
    if value is None:
        if total % den == 0:
            value = total // den
        else:
            from fractions import Fraction
            value = Fraction(total, den)
        values[total] = value
    return value
