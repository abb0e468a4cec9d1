"""The game state of one deal, shaped like an OpenSpiel state:

    current_player() · legal_actions() · apply(action) · observation(seat) · is_over() · result() · clone()

The state is the cards, the accounts, the contract being settled on, and one small state per phase
component (engine/phases/: auction, talon, after-purchase, defence, kontra, play); the phase
components hold the rules. Rule expressions are evaluated in an activation (engine/context.py) that
reads this state and never writes onto it. Seats are numbered in the order of play: next(s) = s + 1.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine import seating, sides, views
from interpreter.engine.accounts import copy_accounts as _copy_accounts
from interpreter.engine.accounts import init_accounts as _init_accounts
from interpreter.engine.cards import mask_of
from interpreter.engine.context import Ctx
from interpreter.engine.readings import Readings
from interpreter.engine.views import action_text
from interpreter.registry import reads

if TYPE_CHECKING:
    from interpreter.engine.phases.after_purchase import AfterPurchaseState
    from interpreter.engine.phases.announce_state import AnnounceState
    from interpreter.engine.phases.auction_state import AuctionState
    from interpreter.engine.phases.base import Phase
    from interpreter.engine.phases.defence import DefenceState
    from interpreter.engine.phases.kontra import KontraState
    from interpreter.engine.phases.play import PlayState
    from interpreter.engine.phases.talon import TalonState
    from interpreter.engine.rules import ContractRT, Rules

__all__ = ["IllegalAction", "State", "action_text", "initial_accounts"]


class IllegalAction(Exception):
    pass


# the state's last legal_actions() answer, for apply(): (log length, seat to act, phase, its hand, the answer);
# none yet
NO_ANSWER: tuple = (-1, -1, None, None, ())


class _Part:
    """A part of the state that a clone shares with its original until either uses it: a non-data
    descriptor, so that once the state has its own copy (in its __dict__) reading it costs a dict look-up.
    The shared parts sit in `_lazy`, a dict that is never written either (clone() makes a new one when it
    hands parts over), so clones share it. The shared object is never written: whichever state uses it
    first copies it. A phase state never used is made on first use."""
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __get__(self, st: Any, owner: Any = None) -> Any:
        if st is None:
            return self
        d = st.__dict__
        name = self.name
        try:
            part = d["_lazy"][name]
        except KeyError:
            raise AttributeError(name) from None
        parts = d["R"].parts
        value = d[name] = parts.fresh[name](d["n"]) if part is None else parts.copy[name](part)
        return value


class State(Readings):
    """One deal in progress."""

    # the attributes (set from the template _BLANK, below); annotations only, no class attributes
    _base: int          # the size of the __dict__ at the last clone (_hand_over)
    _last_legal: tuple  # the last legal_actions() answer (NO_ANSWER), which apply() checks an action against
    R: Rules
    n: int
    dealer: int
    deal_number: int
    active: tuple[int, ...]
    seat_player: tuple[int, ...]
    teams: dict[int, tuple[int, ...]]
    table: Any
    hands: list[int]
    dealt_hands: tuple[int, ...]
    _tricks: int        # the deal's tricks where the hands dealt give them (deals.tricks_total), -1 until read
    dealt_talon: int
    dealt_talon_order: tuple[int, ...]
    discards: int
    phase: str
    phase_i: int
    to_act: int
    dummy: int | None               # the seat whose hand is open and played by `dummy_by` (phases/dummy.py)
    dummy_by: int | None
    _component: Phase | None
    _play_phase: Phase      # the play's component (Rules.parts.play), which legal_actions() asks first
    log: list[tuple[int, int]]
    _declarer: int | None
    defenders: tuple[int, ...]
    declarers: tuple[int, ...]
    partner: dict[int, int]
    called_card: int | None
    called_by_count: bool
    revealed: bool
    base_bidder: int | None
    base_con: ContractRT | None
    given_up: bool
    knock_state: Any
    held: tuple[int, ...]
    number_bids: tuple
    passed: tuple       # per seat, the cards it passed (engine/phases/pass_cards.py); pass_to: to whom
    pass_to: tuple
    pass_count: tuple
    final_call: Any
    _con: ContractRT | None
    trump_choice: int | None
    playing: tuple[int, ...]
    all_passed: bool
    chosen: dict[str, str]
    auction: AuctionState   # a blank shared until the auction starts; shared by clones after it (clone())
    announce: AnnounceState     # the same for the declaration round (phases/announce.py start)
    play: PlayState
    _play_own: bool     # no clone shares `play` (phases/play.own_play)
    trick: Any          # the current trick, (seat, card) in the order played: a list until the play, then a tuple
    win: tuple | None   # (seat, card) winning the current trick
    _others: tuple      # per card, the deck's other cards (phases/play.card_tables), set as the play starts
    _beats: tuple       # per winning card, per card: it takes the lead (the same), the same
    start_accounts: dict
    settled: bool
    after_stake_accounts: dict
    if TYPE_CHECKING:
        talon_state: TalonState
        after_purchase: AfterPurchaseState
        defence: DefenceState
        kontra: KontraState
        talon: list[int]
        choices: list[str]
        payments: list[tuple]
        accounts: dict
    else:       # parts shared with a clone until first used, and phase states made on first use (_Part)
        talon_state = _Part("talon_state")
        after_purchase = _Part("after_purchase")
        defence = _Part("defence")
        kontra = _Part("kontra")
        talon = _Part("talon")
        choices = _Part("choices")
        payments = _Part("payments")
        accounts = _Part("accounts")

    def __init__(self, rules: Rules, dealer: int, hands: list[int], talon: list[int],
                 accounts: dict | None = None, deal_number: int = 0, seat_player: tuple[int, ...] | None = None,
                 table: Any = None):
        n = rules.n_seats
        d = _BLANK.copy()       # the constant parts at once (a template in the order of the attributes)
        d["R"] = rules
        d["n"] = n
        d["dealer"] = dealer
        d["deal_number"] = deal_number
        d["seat_player"] = tuple(seat_player) if seat_player is not None else tuple(range(n))
        d["table"] = table
        d["hands"] = list(hands)
        d["dealt_hands"] = tuple(hands)
        d["talon"] = list(talon)
        d["dealt_talon"] = mask_of(talon)       # the talon as dealt (`talon_cards`), wherever its cards go
        d["dealt_talon_order"] = tuple(talon)   # … and its cards in the order dealt (`talon_place`)
        d["log"] = []
        d["choices"] = []
        parts = rules.parts
        d["play"] = parts.play_state(n)
        d["_play_own"] = True           # (no clone shares it yet: the play need not copy it as it starts)
        memos = rules.memos
        blank = memos.blank_auction     # never written: the auction starts with a copy
        if blank is None:
            blank = memos.blank_auction = parts.auction_state(n)
        d["auction"] = blank
        d["announce"] = parts.blank_announce
        d["_play_phase"] = parts.play
        d["trick"] = []
        d["payments"] = []
        self.__dict__ = d
        # who sits where (seat → person, for `per = player` accounts), the fixed partnerships (seat → its
        # partnership's seats, for `per = team` accounts) and the session's seating record
        # (engine/reseating.py); fixed partners until a contract forms sides (engine/sides.py); the
        # seats taking part, and the next and previous of each (readings.py). All are only read (every
        # clone shares them), so they are worked out once per rule set and dealer.
        seats = memos.state_seats.get(dealer)
        if seats is None:
            d["active"] = tuple(s for s in range(n) if s != dealer) if n > rules.players else tuple(range(n))
            d["teams"] = seating.team_map(rules, dealer, d["active"])
            d["partner"] = sides.fixed_partners(self)
            self._ring()
            seats = memos.state_seats[dealer] = (d["active"], d["teams"], d["partner"], d["_seat_ring"])
        d["active"], d["teams"], d["partner"], d["_seat_ring"] = seats
        if rules.deal_hand is not None:     # the tricks of a deal of shorter hands, read often (deals.tricks_total)
            dealt = d["dealt_hands"]
            d["_tricks"] = max([dealt[s].bit_count() for s in d["active"]], default=0)
        # the accounts
        if accounts is None and not rules.account_initial:
            start = _zero_accounts(rules)       # only read, as start_accounts (shared)
            self.accounts = _copy_accounts(start)
        else:
            self.accounts = _copy_accounts(_zero_accounts(rules) if accounts is None else accounts)
            if accounts is None:
                self._initial_accounts()
            start = _copy_accounts(self.accounts)
        self.start_accounts = start
        before = rules.session_rows.before_deal
        if before:
            self._apply_rows(before, record=False)
            self.after_stake_accounts = _copy_accounts(self.accounts)
        else:                   # nothing staked: the same snapshot (both are only read)
            self.after_stake_accounts = start
        self._advance()

    def ctx(self, me: int | None = None, this: Any = None) -> Ctx:
        """An activation for evaluating a rule expression on this state."""
        return Ctx(self, me, this)

    def _initial_accounts(self) -> None:
        """Evaluate each account's `initial` expression (per seat with `s` bound)."""
        c = Ctx(self)
        for name, f in self.R.account_initial.items():
            per = self.R.accounts[name].per
            if per == "game":
                self.accounts[name] = f(c)
            elif per == "seat":
                self.accounts[name] = [f(c.with_seat(seat)) for seat in range(self.n)]
            elif per == "team":
                self.accounts[name] = {self.teams.get(seat, (seat,)): f(c.with_seat(seat)) for seat in range(self.n)}
            elif per == "player":
                by_player = list(self.accounts.get(name) or [])
                for seat in range(self.n):
                    by_player[self.seat_player[seat]] = f(c.with_seat(seat))
                self.accounts[name] = by_player

    # ---- the declarer and the sides ----------------------------------------------------------------
    @property
    @reads("_declarer", mirrors=("declarer_source",))
    def declarer(self) -> int | None:
        return self._declarer

    @declarer.setter
    def declarer(self, seat: int | None) -> None:
        self._declarer = seat
        sides.form(self)

    @property
    def con(self) -> ContractRT | None:
        """The contract being settled on; setting it (or the declarer) forms the sides (engine/sides.py)."""
        return self._con

    @con.setter
    def con(self, contract: ContractRT | None) -> None:
        self._con = contract
        sides.form(self)
        if self._component is self._play_phase and contract is not None:    # its ranking, as the play reads it
            self._beats = self.R.parts.card_tables(self.R, contract)[1]

    # ---- OpenSpiel-style API ---------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act: the seat whose turn it is, or at the dummy's turn the seat that plays for him
        (engine/phases/dummy.py); `to_act` stays the seat whose cards are played."""
        t = self.to_act
        by = self.dummy_by
        return by if t == self.dummy and by is not None else t

    def is_over(self) -> bool:
        return self._component is None      # (phase "end": _end() clears the component, _advance() sets one)

    def clone(self) -> State:
        """A copy that shares nothing the next move can change. The cards, the log and the state of the
        phase to act in (the auction's, …) are copied at once; the talon, choices, payments, accounts and
        the other phase states on first use: the clone and the original hand each other's over untouched
        (_Part), so a search that plays only the cards copies only those. The auction's state is copied in
        the auction only: nothing writes it after, so it is a plain attribute, which reads quicker than a
        _Part even once the state holds it (Python does not specialise a read a class descriptor shadows);
        so is the declaration round's, read many times by the settlement.
        The play's state is shared: the current trick and its winning card, written on every card, are the
        state's own (`trick`, `win`), and the play copies its state when it writes it, at a trick's end
        (engine/phases/play.py). The compiled rules, tuples and refs are shared."""
        d = self.__dict__
        if len(d) != self._base:            # parts used or set since the last clone: hand them over
            d = self._hand_over()
        if self._play_own:                  # the play's state is shared from now on (phases/play.own_play)
            self._play_own = False
        new = _new_state(State)
        new.__dict__ = d.copy()
        new._last_legal = NO_ANSWER         # its own answers (one who changes a clone's hidden cards asks again)
        # (read and written as attributes, not through the dicts: an attribute of a state is a specialised
        # look-up with a hint; list.copy() is quicker than a slice, which makes a slice object)
        new.hands = self.hands.copy()
        new.log = self.log.copy()
        part = _PHASE_PART.get(self.phase)
        if part is not None:                # the state of the phase to act in, which the next move uses
            if part == "auction":           # the state's own (written by every call, only read after)
                new.auction = self.auction.copy()
            elif part == "announce":        # (the same)
                new.announce = self.announce.copy()
            else:
                shared = d["_lazy"][part]
                parts = self.R.parts
                setattr(new, part, parts.fresh[part](self.n) if shared is None else parts.copy[part](shared))
        return new

    def peek(self, name: str) -> Any:
        """A part of the state (talon, choices, payments, accounts) to read only, never to write: the state's
        own or the one it shares with a clone, which reading through the attribute would copy (_Part); None
        for a phase's state not made yet (the attribute would make it)."""
        d = self.__dict__
        return d[name] if name in d else d["_lazy"][name]

    def own_part(self, name: str, cls: type) -> Any:
        """The phase's state `name` to write (phases/base.own_part): the state's own, or one it shares with a
        clone (copied through the attribute, _Part); made here as the state's own when the deal has none yet,
        a bare `cls` whose fields read the class's defaults until the caller sets them."""
        d = self.__dict__
        if name in d or d["_lazy"][name] is not None:
            return getattr(self, name)
        part: Any = _new_state(cls)
        d[name] = part
        return part

    def own_accounts(self) -> dict:
        """The accounts to write: the state's own, or its own copy of those it shares with a clone, made here
        rather than through the attribute (a call)."""
        d = self.__dict__
        accounts = d.get("accounts")
        if accounts is None:
            accounts = d["accounts"] = _copy_accounts(d["_lazy"]["accounts"])
        return accounts

    def add_payments(self, transfers: list) -> None:
        """The transfers added to the payments: the state's own list, or its own copy of the one it shares
        with a clone (never written there) with them added."""
        d = self.__dict__
        payments = d.get("payments")
        if payments is not None:
            payments.extend(transfers)
        else:
            d["payments"] = d["_lazy"]["payments"] + transfers

    def _hand_over(self) -> dict:
        """Move the parts this state has used (or set) since the last clone to a new shared `_lazy`: from
        now on it and its clones copy them on first use. A part enters the __dict__ only by being added
        (never replaced in it while shared), so a __dict__ that kept its size since has none."""
        d = self.__dict__
        lazy = d["_lazy"].copy()
        for name in _LAZY_NAMES:
            if name in d:
                lazy[name] = d.pop(name)
        d = dict(d)                         # without the holes pop() left, so that copy() is one block copy
        d["_lazy"] = lazy
        d["_base"] = len(d)
        self.__dict__ = d
        return d

    def legal_actions(self) -> list[int]:
        component = self._component
        me = self.to_act
        if component is self._play_phase:      # the contract's listing at once, and the offers at a lead (PlayPhase.legal)
            if (gen := self._con.gen_playable) is None or (pl := self.play).offer is not None:  # type: ignore[union-attr]
                out = component.legal(self)
            else:
                out = gen(self, me)
                if not (pl.no_offers or self.trick):
                    out += component._offers(self)  # type: ignore[attr-defined]
        elif component is not None:
            out = component.legal(self)
        else:
            return []
        # for apply(): the same step's answer not worked out again
        self._last_legal = (len(self.log), me, component, self.hands[me], tuple(out))
        return out

    def apply(self, action: int) -> None:
        component = self._component
        me = self.to_act
        log = self.log
        at, seat, phase, hand, legal = self._last_legal     # the same step? (a hand written since is another object)
        if at == len(log) and seat == me and phase is component and hand is self.hands[me]:
            if action not in legal:
                raise IllegalAction(self.action_text(action))
        elif component is None:
            raise IllegalAction("the deal is over")
        elif action not in component.legal(self):
            raise IllegalAction(self.action_text(action))
        log.append((me, action))
        component.apply(self, action)

    def apply_unchecked(self, action: int) -> None:
        """apply() without the legality check, for bots that chose from legal_actions()."""
        self.log.append((self.to_act, action))
        self._component.apply(self, action)  # type: ignore[union-attr]

    def _end(self) -> None:
        """The deal is over: apply the session's after-deal rows (pot caps, carry-overs)."""
        self.phase = "end"
        self._component = None
        self.to_act = -1
        self._last_legal = NO_ANSWER    # nothing more to check
        rows = self.R.session_rows.after_deal
        if rows:                    # none in most games: no call
            self._apply_rows(rows, record=True)

    def _apply_rows(self, rows: Any, record: bool) -> None:
        self.R.parts.apply_rows(self, rows, record)

    # ---- phase sequencing -----------------------------------------------------------------------
    def _advance(self) -> None:
        R = self.R
        components = R.memos.components     # the procedure's phase components, found once
        if components is None:
            components = R.memos.components = tuple(R.parts.component(R, name) for name in R.procedure)
        n = len(components)
        i = self.phase_i + 1            # (a local: the state's index written once, when a phase starts or none does)
        while i < n:
            component = components[i]
            if component.start(self):
                self.phase_i = i
                self.phase = component.name
                self._component = component
                return
            i += 1
        self.phase_i = n
        self._end()

    # ---- reading the result, observations, text (engine/views.py) --------------------------------
    def result(self) -> dict:
        return views.result(self)

    def observation(self, seat: int) -> dict:
        return views.observation(self, seat)

    def action_text(self, action: int) -> str:
        return views.action_text(self, action)


_new_state = object.__new__
# the parts clone() copies on first use (how: Rules.parts.copy, engine/parts.py)
_LAZY_NAMES = ("talon", "choices", "payments", "accounts", "talon_state", "after_purchase", "defence", "kontra")
# the phase components' states, made on first use (None in `_lazy`: not made yet; how: Rules.parts.fresh)
_UNMADE = dict.fromkeys(("talon_state", "after_purchase", "defence", "kontra"))
# a phase → the name of its state, which clone() copies at once in that phase
_PHASE_PART = {"auction": "auction", "talon": "talon_state", "after_purchase": "after_purchase",
               "defence": "defence", "kontra": "kontra", "announce": "announce"}
# a new state's attributes, in their order; those set per state are None here. `_base` -1: the first
# clone() hands over the talon, choices, payments and accounts the state was made with
_BLANK: dict[str, Any] = {
    "_lazy": _UNMADE, "_base": -1, "_last_legal": NO_ANSWER, "R": None, "n": 0, "dealer": 0, "deal_number": 0, "active": (),
    "_seat_ring": (None, (), ()),           # next and previous seats, for `active` (readings.py)
    "seat_player": (), "teams": None, "table": None,
    # the cards
    "hands": None, "dealt_hands": (), "_tricks": -1, "talon": None, "dealt_talon": 0, "dealt_talon_order": (), "discards": 0,
    # the machine
    "phase": "start", "phase_i": -1, "to_act": -1, "_component": None, "_play_phase": None, "log": None,
    # the contract as the phases settle it
    "_declarer": None, "defenders": (), "declarers": (), "partner": None,
    "called_card": None,            # the card the partner phase called (engine/sides.py)
    "called_by_count": False,       # … called as "the fourth" of its group, not by name
    "revealed": False,              # the called partnership is public
    "base_bidder": None,            # the seat whose base call the final call joined
    "base_con": None,               # … and that call's contract, played too
    "given_up": False,              # the game was lost without play (talon give_up/requires)
    "knock_state": None,            # the knock's piles and choices (engine/phases/knock.py)
    "held": (),                     # per seat, the cards dealt after `deal.pause`, until `deal_rest` (phases/deal_rest.py)
    "number_bids": (),              # the number each seat stated (engine/phases/number_bids.py)
    "passed": (), "pass_to": (), "pass_count": (),   # the cards passed before the play (engine/phases/pass_cards.py)
    "final_call": None, "_con": None, "choices": None, "trump_choice": None, "playing": (),
    "all_passed": False,
    "dummy": None, "dummy_by": None,  # the seat whose hand is open and who plays it (phases/dummy.py)
    "chosen": {},                   # choice → the option said (phases/choice.py): replaced, never written in place
    # the auction's and the play's states at once, the declaration round's a blank never written (the
    # round starts with a copy; the other phase states on first use, _Part), the
    # current trick and its winning card (written on every card: the state's own, phases/play.py), the accounts
    "auction": None, "announce": None, "play": None, "_play_own": False, "trick": None, "win": None,
    "_others": (), "_beats": (), "payments": None, "accounts": None, "start_accounts": None, "settled": False,
    "after_stake_accounts": None,
}


def _zero_accounts(R: Rules) -> dict:
    """The accounts at zero, worked out once per rule set (copied for each deal)."""
    zero = R.memos.zero_accounts
    if zero is None:
        zero = R.memos.zero_accounts = _init_accounts(R.accounts, R.n_seats, seating.people(R.rs))
    return zero


def initial_accounts(R: Rules, dealer: int = 0) -> dict:
    """A table's accounts before its first deal, `initial` values evaluated."""
    probe = State(R, dealer, [0] * R.n_seats, [])
    return _copy_accounts(probe.start_accounts)
