"""The game state of one deal, shaped like an OpenSpiel state:

    current_player() · legal_actions() · apply(action) · observation(seat) · is_over() · result() · clone()

The state is the cards, the accounts, the contract being settled on, and one small state per phase
component (engine/phases/: auction, talon, after-purchase, defence, kontra, play); the phase
components hold the rules. Rule expressions are evaluated in an activation (engine/context.py) that
reads this state and never writes onto it. Seats are numbered in the order of play: next(s) = s + 1.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from interpreter.engine import actions as A
from interpreter.engine import seating, sides
from interpreter.engine.context import Ctx
from interpreter.engine.phases import PHASES, Phase
from interpreter.engine.phases.after_purchase import AfterPurchaseState
from interpreter.engine.phases.announce import AnnounceState
from interpreter.engine.phases.announce import text as announce_text
from interpreter.engine.phases.auction import AuctionState
from interpreter.engine.phases.defence import DefenceState
from interpreter.engine.phases.knock import text as knock_text
from interpreter.engine.phases.kontra import KontraState
from interpreter.engine.phases.kontra import word as kontra_word
from interpreter.engine.phases.partner import text as partner_text
from interpreter.engine.phases.play import PlayState, hands_open
from interpreter.engine.phases.settle import apply_rows
from interpreter.engine.phases.talon import TalonState, mask_points, share
from interpreter.engine.phases.talon import observe as talon_observe
from interpreter.engine.phases.talon import text as talon_text
from interpreter.engine.rules import ContractRT, Rules


class IllegalAction(Exception):
    pass


# (state, log length, seat to act, phase, its hand, legal actions) of the last legal_actions() call
_LAST_LEGAL: list[Any] = [None]


def _alias(part: str, name: str) -> Any:
    """A state attribute kept for readers of the flat state: `state.calls` is `state.auction.calls`."""
    def get(self: State) -> Any:
        return getattr(getattr(self, part), name)

    def set_(self: State, value: Any) -> None:
        setattr(getattr(self, part), name, value)
    return property(get, set_, doc=f"{part}.{name}")


class State:
    """One deal in progress."""

    auction: AuctionState
    talon_state: TalonState
    after_purchase: AfterPurchaseState
    defence: DefenceState
    kontra: KontraState
    announce: AnnounceState
    play: PlayState

    def __init__(self, rules: Rules, dealer: int, hands: list[int], talon: list[int],
                 accounts: dict | None = None, deal_number: int = 0, seat_player: tuple[int, ...] | None = None,
                 table: Any = None):
        self.R = rules
        n = rules.n_seats
        self.n = n
        self.dealer = dealer
        self.deal_number = deal_number
        if n > rules.players:
            self.active: tuple[int, ...] = tuple(s for s in range(n) if s != dealer)
        else:
            self.active = tuple(range(n))
        # who sits where (seat → person, for `per = player` accounts), the fixed partnerships (seat → its
        # partnership's seats, for `per = team` accounts) and the session's seating record (engine/reseating.py)
        self.seat_player: tuple[int, ...] = tuple(seat_player) if seat_player is not None else tuple(range(n))
        self.teams = seating.team_map(rules, dealer, self.active)
        self.table = table
        # the cards
        self.hands = list(hands)
        self.dealt_hands = tuple(hands)
        self.talon = list(talon)
        self.discards = 0
        # the machine
        self.phase = "start"
        self.phase_i = -1
        self.to_act = -1
        self._component: Phase | None = None
        self.log: list[tuple[int, int]] = []
        # the contract as the phases settle it
        self._declarer: int | None = None
        self.defenders: tuple[int, ...] = ()
        self.declarers: tuple[int, ...] = ()
        self.partner: dict[int, int] = sides.fixed_partners(self)   # fixed partners until a contract forms sides
        self.called_card: int | None = None     # the card the partner phase called (engine/sides.py)
        self.called_by_count = False             # … called as "the fourth" of its group, not by name
        self.revealed = False                    # the called partnership is public
        self.base_bidder: int | None = None      # the seat whose base call the final call joined
        self.base_con: ContractRT | None = None  # … and that call's contract, played too
        self.given_up = False                    # the game was lost without play (talon give_up/requires)
        self.knock_state: Any = None             # the knock's piles and choices (engine/phases/knock.py)
        self.number_bids: tuple = ()             # the number each seat stated (engine/phases/number_bids.py)
        self.final_call: Any = None
        self._con: ContractRT | None = None
        self.choices: list[str] = []
        self.trump_choice: int | None = None
        self.playing: tuple[int, ...] = ()
        self.all_passed = False
        # the phase components' own states
        self.auction = AuctionState(n)
        self.talon_state = TalonState()
        self.after_purchase = AfterPurchaseState()
        self.defence = DefenceState(n)
        self.kontra = KontraState()
        self.announce = AnnounceState()
        self.play = PlayState(n)
        # the accounts
        self.payments: list[tuple] = []
        self.accounts = _init_accounts(rules, n) if accounts is None else _copy_accounts(accounts)
        if accounts is None:
            self._initial_accounts()
        self.start_accounts = _copy_accounts(self.accounts)
        self.settled = False
        self._apply_rows(self.R.session_rows.get("before_deal", []), record=False)
        self.after_stake_accounts = _copy_accounts(self.accounts)
        self._advance()

    def ctx(self, me: int | None = None, this: Any = None) -> Ctx:
        """An activation for evaluating a rule expression on this state."""
        return Ctx(self, me, this)

    def _initial_accounts(self) -> None:
        """Evaluate each account's `initial` expression (per seat with `s` bound)."""
        c = Ctx(self)
        for name, f in self.R.account_initial.items():
            per = self.R.accounts[name].get("per")
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

    # ---- OpenSpiel-style API ---------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_act

    def is_over(self) -> bool:
        return self.phase == "end"

    def clone(self) -> State:
        """A copy that shares nothing the next move can change: the cards, log, payments, accounts and
        every phase state are copied; the compiled rules, tuples and refs are shared."""
        new = State.__new__(State)
        d = dict(self.__dict__)
        d["hands"] = list(self.hands)
        d["talon"] = list(self.talon)
        d["log"] = list(self.log)
        d["choices"] = list(self.choices)
        d["payments"] = list(self.payments)
        d["accounts"] = _copy_accounts(self.accounts)
        d["auction"] = self.auction.copy()
        d["talon_state"] = self.talon_state.copy()
        d["after_purchase"] = self.after_purchase.copy()
        d["defence"] = self.defence.copy()
        d["kontra"] = self.kontra.copy()
        d["announce"] = self.announce.copy()
        d["play"] = self.play.copy()
        new.__dict__.update(d)
        return new

    def legal_actions(self) -> list[int]:
        if self._component is None:
            return []
        out = self._component.legal(self)
        # the last answer is kept beside the state (never on it) for apply(), which then need not work
        # the legal actions out again for the same step
        _LAST_LEGAL[0] = (self, len(self.log), self.to_act, self._component, self.hands[self.to_act], tuple(out))
        return out

    def apply(self, action: int) -> None:
        if self._component is None:
            raise IllegalAction("the deal is over")
        memo = _LAST_LEGAL[0]
        if (memo is not None and memo[0] is self and memo[1] == len(self.log) and memo[2] == self.to_act
                and memo[3] is self._component and memo[4] == self.hands[self.to_act]):
            legal = memo[5]
        else:
            legal = self._component.legal(self)
        if action not in legal:
            raise IllegalAction(self.action_text(action))
        self.log.append((self.to_act, action))
        self._component.apply(self, action)

    def apply_unchecked(self, action: int) -> None:
        """apply() without the legality check, for bots that chose from legal_actions()."""
        self.log.append((self.to_act, action))
        self._component.apply(self, action)  # type: ignore[union-attr]

    def _end(self) -> None:
        """The deal is over: apply the session's after-deal rows (pot caps, carry-overs)."""
        self.phase = "end"
        self._component = None
        self.to_act = -1
        self._apply_rows(self.R.session_rows.get("after_deal", []), record=True)

    def _apply_rows(self, rows: list, record: bool) -> None:
        apply_rows(self, rows, record)

    # ---- phase sequencing -----------------------------------------------------------------------
    def _advance(self) -> None:
        proc = self.R.procedure
        while True:
            self.phase_i += 1
            if self.phase_i >= len(proc):
                self._end()
                return
            component = PHASES[proc[self.phase_i]]
            if component.start(self):
                self.phase = component.name
                self._component = component
                return

    # ---- what the phases read --------------------------------------------------------------------
    def call_contracts(self, call: Any, seat: int | None) -> list[str]:
        """The contracts a call's winner may choose from: its list, or its `contracts` expression judged for `seat`."""
        if call.contracts_expr is None:
            return list(call.contracts)
        value = call.contracts_expr(Ctx(self, seat, call.ref))
        items = (value,) if isinstance(value, str) else tuple(value or ())
        return [str(x) for x in items if str(x) in self.R.contracts]

    def made_in(self, c: Ctx) -> bool:
        """The declaring side has made its contract (memoised while settlement rows are evaluated)."""
        if self.con is None or self.declarer is None:
            return False
        cache = c.cache
        if cache is None:
            return bool(self.con.goal(c))
        if "made" not in cache:
            cache["made"] = bool(self.con.goal(c))
        return cache["made"]

    @property
    def made(self) -> bool:
        return self.made_in(Ctx(self))

    @property
    def contract(self) -> Any:
        return self.con.ref if self.con is not None else None

    @property
    def final(self) -> Any:
        return self.final_call.ref if self.final_call is not None else None

    @property
    def high(self) -> Any:
        return self.auction.high_call.ref if self.auction.high_call is not None else None

    @property
    def trump(self) -> str | None:
        if self.con is None or self.con.trump < 0:
            return None
        return self.R.suit_names[self.con.trump]

    @property
    def pot(self) -> Any:
        return self.accounts.get("pot", 0)

    # the flat names of earlier versions, read by scenario files' runner, tests and bots
    calls = _alias("auction", "calls")
    passed = _alias("auction", "passed")
    excluded = _alias("auction", "excluded")
    bid_order = _alias("auction", "bid_order")
    high_call = _alias("auction", "high_call")
    holder = _alias("auction", "holder")
    reveals = _alias("auction", "reveals")
    contest = _alias("auction", "contest")
    talon_exposed = _alias("talon_state", "exposed")
    shown_talon = _alias("talon_state", "shown")
    ap_queue = _alias("after_purchase", "queue")
    ap_stage = _alias("after_purchase", "stage")
    ap_holder = _alias("after_purchase", "holder")
    ap_made = _alias("after_purchase", "made")
    answers = _alias("defence", "answers")
    defence_queue = _alias("defence", "queue")
    defence_stage = _alias("defence", "stage")
    invited = _alias("defence", "invited")
    host = _alias("defence", "host")
    guest = _alias("defence", "guest")
    compulsory = _alias("defence", "compulsory")
    kontra_level = _alias("kontra", "level")
    kontra_sayer = _alias("kontra", "sayer")
    kontra_required = _alias("kontra", "required")
    declared = _alias("announce", "declared")       # figure -> the seat that declared it (announce phase)
    leader = _alias("play", "leader")
    trick = _alias("play", "trick")
    history = _alias("play", "history")
    tricks_won = _alias("play", "tricks_won")
    won_cards = _alias("play", "won_cards")
    offer = _alias("play", "offer")

    # ---- functions of the expression language (engine/builtins.py) --------------------------------
    def next(self, s: int | None) -> int | None:
        if s is None:
            return None
        for k in range(1, self.n + 1):
            t = (s + k) % self.n
            if t in self.active:
                return t
        return s

    def seat_after(self, s: int) -> int:
        """The next seat taking part after `s` (for the phases, where `s` is always a seat)."""
        for k in range(1, self.n + 1):
            t = (s + k) % self.n
            if t in self.active:
                return t
        return s

    def prev(self, s: int | None) -> int | None:
        if s is None:
            return None
        for k in range(1, self.n + 1):
            t = (s - k) % self.n
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
        if x is None:
            return ()
        if isinstance(x, int):
            return (x,)
        return tuple(x)

    def tricks(self, x: Any) -> int:
        won = self.play.tricks_won
        return sum(won[s] for s in self._seats_of(x))

    def points(self, x: Any) -> Any:
        total = Fraction(0)
        given = self.announce.given
        if given is not None and "points" in given:     # an outcome-only deal states each seat's points
            total = sum((Fraction(given["points"].get(s, 0)) for s in self._seats_of(x)), Fraction(0))
            return int(total) if total.denominator == 1 else total
        seats = self._seats_of(x)
        cards = share(self, seats)      # the side's talon share (engine/phases/talon.py)
        for s in seats:
            cards |= self.play.won_cards[s]
        return mask_points(self.R, cards)

    def captured(self, x: Any, cards: int) -> bool:
        won = 0
        for s in self._seats_of(x):
            won |= self.play.won_cards[s]
        return cards & won == cards

    def holds(self, s: int | None, cards: Any) -> bool:
        if isinstance(cards, int) and s is not None:
            return bool(self.hands[s] & (cards if cards > 0 else 0))
        return False

    def dealt(self, x: Any, cards: int) -> int:
        return sum(bin(self.dealt_hands[s] & cards).count("1") for s in self._seats_of(x))

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
        per = spec.get("per")
        if per == "team":
            return self.teams.get(keys[0], (keys[0],))
        if per == "player":
            return (self.seat_player[keys[0]],)
        return keys

    def account(self, name: Any, *keys: Any) -> Any:
        v = self.accounts.get(str(name), 0)
        if not keys:
            return v
        keys = self.account_keys(str(name), keys)
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

    # ---- reading the result -----------------------------------------------------------------------
    def result(self) -> dict:
        money = self.accounts.get("money", [0] * self.n)
        start = self.after_stake_accounts.get("money", [0] * self.n)
        won = self.play.tricks_won
        return {
            "declarer": self.declarer,
            "contract": self.con.name if self.con else None,
            "tricks": {s: won[s] for s in self.active},
            "payments": {s: _norm(money[s] - start[s]) for s in range(self.n)},
            "pot": _norm(self.accounts.get("pot", 0)),
            "made": self.made if self.declarer is not None else None,
            "all_passed": self.all_passed,
        }

    def observation(self, seat: int) -> dict:
        R = self.R
        pl = self.play
        obs: dict[str, Any] = {
            "seat": seat, "dealer": self.dealer, "phase": self.phase, "to_act": self.to_act,
            "hand": R.rs.codes(self.hands[seat]),
            "calls": list(self.auction.calls),
            "declarer": self.declarer,
            "contract": self.con.name if self.con and (self.declarer is None or self.phase != "auction") else None,
            "trick": [(s, R.codes[c]) for s, c in pl.trick],
            "tricks": {s: pl.tricks_won[s] for s in self.active},
        }
        if self.number_bids:
            obs["number_bids"] = list(self.number_bids)
        if self.R.turn_up and self.talon:
            obs["turned_up"] = R.codes[self.talon[0]]
        if self.talon_state.exposed:
            obs["talon"] = [R.codes[c] for c in self.talon_state.shown]
        if seat == self.declarer or self.after_purchase.holder == seat:
            obs["discards"] = R.rs.codes(self.discards)
        con = self.con
        if con is not None and con.open_who and self.phase == "play" and hands_open(self):
            shown = self.defenders if con.open_who == "defenders" else self.active
            obs["open_hands"] = {s: R.rs.codes(self.hands[s]) for s in shown if s != seat}
        sides.observe(self, seat, obs)
        talon_observe(self, seat, obs)
        return obs

    # ---- text -------------------------------------------------------------------------------------
    def action_text(self, action: int) -> str:
        return action_text(self, action)


def _norm(v: Any) -> Any:
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


def initial_accounts(R: Rules, dealer: int = 0) -> dict:
    """A table's accounts before its first deal, `initial` values evaluated."""
    probe = State(R, dealer, [0] * R.n_seats, [])
    return _copy_accounts(probe.start_accounts)


def _init_accounts(R: Rules, n: int) -> dict:
    acc: dict[str, Any] = {"money": [0] * n}
    for name, spec in R.accounts.items():
        per = spec.get("per")
        if per == "game":
            acc[name] = 0
        elif per == "seat":
            acc[name] = [0] * n
        elif per == "player":
            acc[name] = [0] * seating.people(R.rs)
        else:
            acc[name] = {}
    acc.setdefault("pot", 0)
    return acc


def _copy_accounts(acc: dict) -> dict:
    out: dict[str, Any] = {}
    for k, v in acc.items():
        if isinstance(v, list):
            out[k] = list(v)
        elif isinstance(v, dict):
            out[k] = dict(v)
        else:
            out[k] = v
    return out


def action_text(state: State, action: int, words: dict | None = None) -> str:
    """The action's one printed spelling, in the rule file's `words` (or in `words` given)."""
    R = state.R
    W = R.words if words is None else words
    kind, arg = A.kind_of(action), A.arg_of(action)
    if kind == A.PLAY:
        return W["play"] + " " + R.codes[arg]
    if kind == A.BID:
        return W["bid"] + " " + R.calls[arg].word
    if kind == A.NUMBER:
        return f"{W['bid']} {arg}"
    if kind == A.PASS:
        return W["pass"]
    if kind == A.HOLD:
        return W["hold"]
    if kind == A.DISCARD:
        return W["discard"] + " " + " ".join(R.rs.codes(arg))
    if kind in (A.DECLARE, A.REVEAL):
        return W["declare"] + " " + R.contract_words.get(R.contract_names[arg], R.contract_names[arg])
    if kind == A.TRUMP:
        return W["trump"] + " " + R.suit_names[arg]
    if kind == A.DEFEND:
        return W["go"] if arg == 0 else W["stay"]
    if kind == A.INVITE:
        return W["invite"] if arg == 0 else W["no_invite"]
    if kind == A.AFTER:
        return W["after_purchase"] if arg == 1 else W["decline"]
    if kind == A.KONTRA:
        return kontra_word(state, arg) if arg else W["pass"]
    if kind == A.PARTNER_CALL:
        return partner_text(state, action)
    if kind == A.KNOCK:
        return knock_text(state, action)
    if kind in (A.PACKET, A.GIVE_UP):
        return talon_text(state, action)
    if kind in (A.ANNOUNCE, A.ITEM_KONTRA):
        return announce_text(state, action)
    if kind == A.NEGOTIATE:
        return W["accept"] if arg == A.ACCEPT else W["refuse"] if arg == A.REFUSE else f"{W['offer']} {arg - A.OFFER}"
    return f"action {action}"
