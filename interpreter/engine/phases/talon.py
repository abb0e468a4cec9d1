"""The talon after the auction: which procedure applies, taking it up, and the declarer's discards.

Kinds (a procedure's `kind`):

    exchange     take `take` cards (all by default), then discard `discard` (as many by default)
    halves       the talon is split into `packets` packets as dealt (top cards first) and shown when
                 `exposed`; the declarer may give up (`give_up`), else takes one packet and discards;
                 the packets left go to `rest` (their points count for that side)
    aside        set aside: nobody's cards
    defenders    unseen to the defenders, whose side counts them; with `called_packet = declarer` the
                 packet that held the called card counts for the declarer's side instead
    into_tricks  stays face down; its cards go one each, in order, into the first `tricks` tricks and
                 belong to the trick's winner (engine/phases/play.py)

Discards: `never` cards may not be discarded. With `last_resort` the discards go card by card, and
the last-resort cards may go only while the hand holds nothing but them and `never` cards (then face
up, seen by everyone, when `face_up`); a halves buy discards card by card too. An exchange without
`last_resort` discards all its cards in one action, as a set, unless `card_by_card` asks for one card per action.

`requires`, judged once the talon is dealt with: if it fails the game is lost at once (`given_up`),
as it is when the declarer gives up.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine import sides
from interpreter.engine.cards import bits, combinations_of, mask_of
from interpreter.engine.context import Ctx
from interpreter.engine.given import has_talon, talon_name
from interpreter.engine.phases.base import Phase, own_part

if TYPE_CHECKING:
    from collections.abc import Mapping

    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.expression import Expression
    from interpreter.model.phases import Talon
    from interpreter.model.ruleset import Ruleset


@dataclass(frozen=True)
class TalonProc:
    name: str
    kind: str                   # exchange | halves | aside | defenders | into_tricks
    take: int | None            # None: the whole talon
    discard: int | None         # None: as many as taken
    exposed: bool
    never: int                  # cards that may not be discarded
    packets: int = 2            # halves: how many packets the talon is split into
    last_resort: int = 0        # cards discarded only when nothing else may go
    face_up: bool = False       # … and then shown to everyone
    discards_to: str = "declarer"
    rest_to: str | None = None  # whose side counts the packets not taken
    who: Any = None             # who handles the talon (default: the declarer)
    give_up: Any = None         # when the declarer may give up once the talon is shown
    requires: Any = None        # a condition after the talon; false: the game is lost at once
    tricks: int = 0             # into_tricks: how many first tricks get a talon card
    called_packet: str | None = None   # defenders: the packet holding the called card goes to this side
    called_rest: bool = False   # the talon left goes to the declarer's side once the called card, from it, wins a trick
    keep_taken: bool = False    # exchange: the cards taken may not be discarded again
    one_by_one: bool = False    # `card_by_card`: an exchange's discards one card per action

    @property
    def card_by_card(self) -> bool:
        return self.kind == "halves" or bool(self.last_resort) or self.one_by_one


def settings(talons: Mapping[str, Talon], rs: Ruleset, comp: Compiler) -> dict[str, TalonProc]:
    out = {}
    x = comp.text
    for name, t in talons.items():
        def expr(e: Expression | None) -> Any:
            return x(e) if e is not None else None
        out[name] = TalonProc(name=name, kind=t.kind, take=t.take, discard=t.discard, exposed=t.exposed,
                              never=rs.mask(t.never) if t.never else 0, packets=t.packets,
                              last_resort=rs.mask(t.last_resort) if t.last_resort else 0,
                              face_up=t.face_up, discards_to=t.discards_to, rest_to=t.rest_to, who=expr(t.who),
                              give_up=expr(t.give_up), requires=expr(t.requires), tricks=t.tricks,
                              called_packet=t.called_packet, called_rest=t.called_rest == "declarer",
                              keep_taken=t.keep_taken, one_by_one=t.card_by_card)
    return out


@dataclass
class TalonState:
    exposed: bool = False
    shown: tuple = ()            # the cards shown to everyone when the talon is exposed
    discard_count: int = 0
    stage: str = ""              # give_up | choose | discard while the phase asks
    packets: tuple = ()          # halves: the packets as masks, top of the talon first
    taken: int = -1              # the packet the declarer took
    face_up: int = 0             # discards shown to everyone
    to_declarers: int = 0        # talon cards whose points count for the declaring side
    to_defenders: int = 0        # … for the defenders
    into: int = 0                # into_tricks: the first tricks that get a talon card
    discards_to: str = "declarer"   # whose side counts the discards (declarer | defenders | aside)
    proc: TalonProc | None = None   # the deal's procedure, found once when the talon is taken up (procedure())
    kept: int = 0                # exchange with `keep_taken`: the cards taken, which may not be discarded

    def copy(self) -> TalonState:
        new = _new(TalonState)
        new.exposed = self.exposed
        new.shown = self.shown
        new.discard_count = self.discard_count
        new.stage = self.stage
        new.packets = self.packets
        new.taken = self.taken
        new.face_up = self.face_up
        new.to_declarers = self.to_declarers
        new.to_defenders = self.to_defenders
        new.into = self.into
        new.discards_to = self.discards_to
        new.proc = self.proc
        new.kept = self.kept
        return new


_new = object.__new__


def fresh_state(n: int) -> TalonState:
    """The talon state as a new deal has it: nothing set on it, its attributes read their defaults from the
    class (every default of TalonState is a class attribute: no field(default_factory=…))."""
    return _new(TalonState)


def procedure(st: State) -> TalonProc | None:
    """The talon procedure of this deal: the final call's, else the contract's."""
    return procedure_under(st, st._con)


def procedure_under(st: State, con: Any) -> TalonProc | None:
    """The talon procedure this deal would have under `con`: the final call's, else the contract's."""
    name = None
    final = st.final_call
    if final is not None and has_talon(final):
        name = talon_name(st, final)
    elif con is not None:
        name = talon_name(st, con)
    return st.R.talons.get(name) if name else None


def _split(cards: list[int], n: int) -> tuple[int, ...]:
    """The first n packets of len(cards) // n cards each, top of the talon first, as masks."""
    size = len(cards) // n if n else len(cards)
    if not size:
        return ()
    out = []
    for start in range(0, n * size, size):
        m = 0
        for c in cards[start:start + size]:
            m |= 1 << c
        out.append(m)
    return tuple(out)


def _judge(f: Any, st: State, me: int | None = None) -> Any:
    """f(Ctx(st, me)), through the generated function of the state alone when f has one (a backend's
    `on_state`: it reads nothing of its activation, so needs none made)."""
    on_state = getattr(f, "on_state", None)
    return on_state(st) if on_state is not None else f(Ctx(st, me))


def _handler(st: State, proc: TalonProc) -> int:
    if proc.who is not None:
        seat = _judge(proc.who, st)
        if isinstance(seat, int) and seat in st.active:
            return seat
    declarer = st._declarer         # (behind the property `declarer`)
    assert declarer is not None
    return declarer


def _give_rest(st: State, proc: TalonProc) -> None:
    """The talon cards nobody took go to the side `rest` names (counted in its points), else aside."""
    tl = st.talon_state
    rest = mask_of(st.talon)
    if proc.rest_to == "defenders":
        tl.to_defenders |= rest
    elif proc.rest_to == "declarer":
        tl.to_declarers |= rest


def _check_requires(st: State, proc: TalonProc) -> None:
    if proc.requires is not None and not st.given_up and not _judge(proc.requires, st, st._declarer):
        st.given_up = True


_GIVE_UP, _PLAY_ON = A.make(A.GIVE_UP, 1), A.make(A.GIVE_UP, 0)


_DISCARD = A.make(A.DISCARD)
_SHIFT, _ARG, _K_DISCARD, _K_GIVE_UP = A.SHIFT, A.ARG, A.DISCARD, A.GIVE_UP     # read by apply
@functools.cache
def _take(n: int) -> tuple[int, ...]:
    """The actions choosing one of n packets."""
    return tuple(A.make(A.PACKET, i) for i in range(n))


_ROWS = 32      # the pair tables are made for the cards in blocks of this many (a deck needs one or a few)


@functools.cache
def _pair_rows(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """For the cards 0..size-1: per card i, per card j, the DISCARD action of cards i and j (of card i alone
    when j == i), and per card its own DISCARD action: a discard list of one or two cards is made of
    look-ups, not of big-int sums made afresh."""
    pairs = tuple(tuple(_DISCARD | 1 << i | 1 << j for j in range(size)) for i in range(size))
    return pairs, tuple(pairs[i][i] for i in range(size))


def _pairs(top: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The pair tables (_pair_rows) for the cards 0..top at least."""
    return _pair_rows((top // _ROWS + 1) * _ROWS)


def discard_actions(mask: int, k: int) -> list[int]:
    """A DISCARD action for every set of k cards of `mask`, in the order of cards.combinations_of. For the
    usual two cards each action is read from a table by its two card indices (_PAIRS)."""
    if k == 2:
        b = bits(mask)
        if len(b) < 2:
            return []
        rows = _pairs(b[-1])[0]
        return [rows[i][j] for i, j in combinations(b, 2)]
    return [_DISCARD | m for m in combinations_of(mask, k)]


class TalonPhase(Phase):
    name = "talon"

    def start(self, st: State) -> bool:
        # a talon nobody takes up is left where it is: the talon's state is made only when written
        proc = procedure_under(st, st._con)
        if proc is None:
            return False
        kind = proc.kind
        if kind == "into_tricks":
            n = len(st.peek("talon"))       # only read
            own_part(st, "talon_state", TalonState).into = min(proc.tricks or n, n)
            return False
        declarer = st._declarer         # (behind the property `declarer`)
        if declarer is None:
            return False
        if kind == "aside" or kind == "defenders":
            if kind == "defenders":
                self._give_away(st, proc)
            if proc.requires is not None:
                _check_requires(st, proc)
            return False
        tl = own_part(st, "talon_state", TalonState)
        tl.proc = proc
        tl.discards_to = proc.discards_to
        talon = st.peek("talon")     # only read: the rest replaces it
        if kind == "halves":
            return self._show_halves(st, tl, talon, proc, declarer)
        take = proc.take if proc.take is not None else len(talon)
        taken = talon[:take]
        st.talon = talon[take:]           # the state's own from now on
        if proc.rest_to is not None:
            _give_rest(st, proc)
        tl.exposed = proc.exposed
        tl.shown = tuple(taken) if tl.exposed else ()
        st.to_act = _handler(st, proc) if proc.who is not None else declarer
        st.hands[st.to_act] |= mask_of(taken)
        if proc.keep_taken:
            tl.kept = mask_of(taken)
        tl.discard_count = proc.discard if proc.discard is not None else len(taken)
        tl.stage = "discard"
        if tl.discard_count > 0:
            return True
        _check_requires(st, proc)
        return False

    def _give_away(self, st: State, proc: TalonProc) -> None:
        """The talon counts for the defenders, but for the packet holding the called card where that goes to
        the declarer (`called_packet`)."""
        tl = own_part(st, "talon_state", TalonState)
        talon = st.peek("talon")        # only read
        cards = mask_of(talon)
        tl.to_defenders = cards
        card = st.called_card
        if proc.called_packet == "declarer" and card is not None and card in talon:
            held = next((p for p in _split(talon, proc.packets) if p >> card & 1), 0)
            tl.to_declarers, tl.to_defenders = held, cards & ~held

    def _show_halves(self, st: State, tl: TalonState, talon: list[int], proc: TalonProc, declarer: int) -> bool:
        """The packets laid out (and shown when `exposed`); the handler gives up or chooses one."""
        tl.packets = _split(talon, proc.packets)
        tl.exposed = exposed = proc.exposed
        tl.shown = tuple(talon) if exposed else ()
        if exposed:
            card = st.called_card
            if card is not None and card in talon:
                sides.reveal(st)        # the called card is seen in the talon: the declarer is alone
        st.to_act = _handler(st, proc) if proc.who is not None else declarer
        tl.stage = "give_up" if proc.give_up is not None and _judge(proc.give_up, st, declarer) else "choose"
        return True

    def legal(self, st: State) -> list[int]:
        tl = st.talon_state
        stage = tl.stage
        if stage == "give_up":
            return [_GIVE_UP, _PLAY_ON]
        if stage == "choose":
            return [*_take(len(tl.packets))]
        hand = st.hands[st.to_act]
        proc = tl.proc
        if proc is None:
            proc = procedure(st)
        if proc is None:
            return discard_actions(hand, tl.discard_count)
        allowed = hand & ~proc.never & ~tl.kept
        if not proc.card_by_card:
            return discard_actions(allowed, tl.discard_count)
        free = allowed & ~proc.last_resort
        cards = bits(free or allowed or hand)
        if not cards:
            return []
        return [*map(_pairs(cards[-1])[1].__getitem__, cards)]      # (one card's DISCARD action each)

    def apply(self, st: State, action: int) -> None:
        tl = st.talon_state
        proc = tl.proc
        if proc is None:
            proc = procedure(st)
        assert proc is not None
        kind, arg = action >> _SHIFT, action & _ARG
        if kind == _K_DISCARD:          # (the usual step first)
            st.hands[st.to_act] &= ~arg
            st.discards |= arg
            if proc.face_up and arg & proc.last_resort:
                tl.face_up |= arg & proc.last_resort
            left = tl.discard_count = tl.discard_count - arg.bit_count()
            if left > 0:
                return
            self._finish(st, proc)
            return
        if kind == _K_GIVE_UP:
            if arg:
                st.given_up = True
                tl.stage = ""
                st.to_act = -1
                st._advance()
                return
            tl.stage = "choose"
            return
        # a packet taken
        tl.taken = arg
        taken = tl.packets[arg]
        st.hands[st.to_act] |= taken
        st.talon = [c for c in st.talon if not taken >> c & 1]
        if proc.keep_taken:
            tl.kept = taken
        _give_rest(st, proc)
        tl.discard_count = proc.discard if proc.discard is not None else taken.bit_count()
        tl.stage = "discard"
        if tl.discard_count > 0:
            return
        self._finish(st, proc)

    def _finish(self, st: State, proc: TalonProc) -> None:
        st.talon_state.stage = ""
        if proc.requires is not None:
            _check_requires(st, proc)
        st.to_act = -1
        st._advance()


def text(st: State, action: int) -> str:
    """`give up`, `play on`, `take 1` (packets numbered from 1, top of the talon first)."""
    W = st.R.words
    kind, arg = A.kind_of(action), A.arg_of(action)
    if kind == A.GIVE_UP:
        return W["give_up"] if arg else W["play_on"]
    return f"{W['take']} {arg + 1}"


def observe(st: State, seat: int, obs: dict) -> None:
    """What the talon shows `seat`: the packets of an exposed halves talon, the packet taken, discards
    laid face up, and the talon cards dealt face up into tricks (trick number, card)."""
    tl = st.talon_state
    codes = st.R.rs.codes
    if tl.exposed and tl.packets:
        obs["packets"] = [codes(p) for p in tl.packets]
        if tl.taken >= 0:
            obs["packet_taken"] = tl.taken + 1
    if tl.face_up:
        obs["face_up_discards"] = codes(tl.face_up)
    if st.play.talon_cards:
        obs["talon_in_tricks"] = [(n, st.R.codes[c]) for n, c in st.play.talon_cards]
