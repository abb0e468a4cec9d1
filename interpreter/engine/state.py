"""The game state of one deal, shaped like an OpenSpiel state:

    current_player() · legal_actions() · apply(action) · observation(seat) · is_over() · result() · clone()

Phases come from the rule file's `procedure`; each is a generic mechanism parameterised by the
compiled rules (engine/rules.py). Seats are numbered in the order of play: next(s) = s + 1.
"""
from __future__ import annotations

from fractions import Fraction

from interpreter.engine import actions as A
from interpreter.engine.phases.auction import AuctionPhase
from interpreter.engine.phases.defence import DefencePhases
from interpreter.engine.phases.play import PlayPhase
from interpreter.engine.phases.settle import SettlePhase
from interpreter.engine.phases.talon import TalonPhases
from interpreter.engine.rules import Rules, bits


class IllegalAction(Exception):
    pass


class State(AuctionPhase, TalonPhases, DefencePhases, PlayPhase, SettlePhase):
    """One deal in progress. The state is also the context in which rule expressions are evaluated."""

    def __init__(self, rules: Rules, dealer: int, hands: list[int], talon: list[int],
                 accounts: dict | None = None, deal_number: int = 0):
        self.R = rules
        n = rules.n_seats
        self.n = n
        self.dealer = dealer
        self.deal_number = deal_number
        if n > rules.players:
            self.active = tuple(s for s in range(n) if s != dealer)
        else:
            self.active = tuple(range(n))
        for role, step in rules.roles.items():
            if not hasattr(State, role) and role not in self.__dict__:
                self.__dict__[role] = (dealer + step) % n
        self.hands = list(hands)
        self.dealt_hands = tuple(hands)
        self.talon = list(talon)
        self.discards = 0
        self.talon_rest = 0
        self.talon_exposed = False
        self.shown_talon: tuple = ()
        self.vars: dict = {}
        self._cache = None               # memo of seat-independent values while rows are evaluated
        self.me = None
        self.this = None
        self.phase = "start"
        self.phase_i = -1
        self.to_act = -1
        # auction
        self.calls: list = []
        self.passed = [False] * n
        self.excluded = [False] * n
        self.passes = 0                  # seats that passed or are excluded
        self._first_call = [None] * n
        self._first_bid = [None] * n
        self._latest = [None] * n
        self.bid_order: list = []
        self.pos = 0
        self.high_call = None
        self.holder = None
        self.contest: list = []          # seats of sealed bidders in the current contest
        self.reveals: dict = {}          # seat -> contract name
        self.best = None                 # (seat, contract name) best revealed
        self.all_passed = False
        # contract
        self.declarer = None
        self.final_call = None
        self.con = None
        self.choices: list = []
        self.trump_choice = None
        # after-purchase
        self.ap_queue: list = []
        self.ap_stage = None
        self.ap_holder = None
        self.ap_made = False
        self.ap_count = 0
        # defence
        self.answers: list = [None] * n
        self.defence_queue: list = []
        self.invited = False
        self.host = None
        self.guest = None
        self.compulsory = False
        self.kontra_level = 0
        self.kontra_required = False
        self.kontra_sayer = None
        self.kontra_queue: list = []
        # play
        self.playing: tuple = ()
        self.leader = None
        self.trick: list = []
        self.win = None                  # (seat, card) winning the current trick
        self.history: list = []
        self.tricks_won = [0] * n
        self.won_cards = [0] * n
        self.offer = None                # (offering seat, declarer's tricks, seat to resume) during a negotiation
        self.offers = 0
        self.log: list = []
        self.payments: list = []
        self.accounts = _init_accounts(rules, n) if accounts is None else _copy_accounts(accounts)
        if accounts is None:
            self._initial_accounts()
        self.start_accounts = _copy_accounts(self.accounts)
        self.settled = False
        self._apply_rows(self.R.session_rows.get("before_deal", []), record=False)
        self.after_stake_accounts = _copy_accounts(self.accounts)
        self._advance()

    def _initial_accounts(self) -> None:
        """Evaluate each account's `initial` expression (per seat with `s` bound)."""
        for name, f in self.R.account_initial.items():
            spec = self.R.accounts[name]
            per = spec.get("per")
            if per == "game":
                self.accounts[name] = f(self)
            elif per in ("seat", "team"):
                values = []
                for seat in range(self.n):
                    self.vars["s"] = seat
                    values.append(f(self))
                self.vars.pop("s", None)
                self.accounts[name] = values

    # ---- OpenSpiel-style API ---------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_act

    def is_over(self) -> bool:
        return self.phase == "end"

    def clone(self) -> "State":
        """A copy that shares nothing the next move can change: every list, dict and set attribute is
        copied (the accounts one level deeper); ints, tuples, strings and the compiled rules are shared."""
        new = State.__new__(State)
        d = dict(self.__dict__)
        for name, value in d.items():
            if isinstance(value, (list, dict, set)):
                d[name] = type(value)(value)
        d["accounts"] = _copy_accounts(self.accounts)
        d["vars"] = {}
        d["_cache"] = None
        new.__dict__.update(d)
        return new

    def legal_actions(self) -> list[int]:
        if self.phase == "end":
            return []
        return _LEGAL[self.phase](self)

    def apply(self, action: int) -> None:
        if self.phase == "end":
            raise IllegalAction("the deal is over")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalAction(self.action_text(action))
        self.log.append((self.to_act, action))
        _APPLY[self.phase](self, action)

    def apply_unchecked(self, action: int) -> None:
        """apply() without the legality check, for bots that chose from legal_actions()."""
        self.log.append((self.to_act, action))
        _APPLY[self.phase](self, action)

    def _end(self) -> None:
        """The deal is over: apply the session's after-deal rows (pot caps, carry-overs)."""
        self.phase = "end"
        self.to_act = -1
        self._apply_rows(self.R.session_rows.get("after_deal", []), record=True)

    # ---- phase sequencing -----------------------------------------------------------------------
    def _advance(self) -> None:
        proc = self.R.procedure
        while True:
            self.phase_i += 1
            if self.phase_i >= len(proc):
                self._end()
                return
            phase = proc[self.phase_i]
            starter = getattr(self, "_start_" + phase, None)
            if starter is None:
                continue
            if starter():
                self.phase = phase
                return

    # ---- context values (names of interpreter/vocabulary.py) -------------------------------------
    def __getattr__(self, name):
        R = self.__dict__.get("R")
        if R is not None and name in R.roles:
            return (self.dealer + R.roles[name]) % self.n
        if R is not None and name in R.accounts:
            return self.accounts.get(name, 0)
        raise AttributeError(name)

    @property
    def seats(self):
        return tuple(range(self.n))

    @property
    def players(self):
        return self.R.players

    @property
    def defenders(self):
        key = self.declarer
        cached = self.__dict__.get("_defenders")
        if cached is not None and cached[0] == key:
            return cached[1]
        decl = self.declarers
        value = tuple(s for s in self.active if s not in decl)
        self.__dict__["_defenders"] = (key, value)
        return value

    @property
    def declarers(self):
        return () if self.declarer is None else (self.declarer,)

    @property
    def pot(self):
        return self.accounts.get("pot", 0)

    @property
    def turn(self):
        return len(self.calls)

    @property
    def bids(self):
        return sum(1 for _, c in self.calls if c not in ("pass",))

    @property
    def trick_number(self):
        return len(self.history) + 1

    @property
    def tricks_played(self):
        return len(self.history)

    @property
    def tricks_total(self):
        return self.R.rs.hand_size

    @property
    def team_tricks(self):
        return sum(self.tricks_won[s] for s in self.defenders)

    @property
    def made(self):
        if self.con is None or self.declarer is None:
            return False
        cache = self._cache
        if cache is not None:
            if "made" not in cache:
                cache["made"] = bool(self.con.goal(self))
            return cache["made"]
        return bool(self.con.goal(self))

    @property
    def contract(self):
        return self.con.ref if self.con is not None else None

    @property
    def final(self):
        return self.final_call.ref if self.final_call is not None else None

    @property
    def high(self):
        return self.high_call.ref if self.high_call is not None else None

    @property
    def trump(self):
        if self.con is None or self.con.trump < 0:
            return None
        return self.R.suit_names[self.con.trump]

    @property
    def side(self):
        return self.vars.get("side", ())

    def next(self, s):
        if s is None:
            return None
        for k in range(1, self.n + 1):
            t = (s + k) % self.n
            if t in self.active:
                return t
        return s

    def prev(self, s):
        if s is None:
            return None
        for k in range(1, self.n + 1):
            t = (s - k) % self.n
            if t in self.active:
                return t
        return s

    def order_of(self, s):
        return self.bid_order.index(s) if s in self.bid_order else -1

    def partner_of(self, s):
        return None

    def opponents_of(self, s):
        if s in self.declarers:
            return self.defenders
        return self.declarers

    def _seats_of(self, x):
        if x is None:
            return ()
        if isinstance(x, int):
            return (x,)
        return tuple(x)

    def tricks(self, x):
        return sum(self.tricks_won[s] for s in self._seats_of(x))

    def points(self, x):
        total = Fraction(0)
        for s in self._seats_of(x):
            for i in bits(self.won_cards[s]):
                total += self.R.cards[i].points
            if s == self.declarer:
                for i in bits(self.discards):
                    total += self.R.cards[i].points
        return int(total) if total.denominator == 1 else total

    def captured(self, x, cards):
        won = 0
        for s in self._seats_of(x):
            won |= self.won_cards[s]
        return cards & won == cards

    def holds(self, s, cards):
        if isinstance(cards, int) and s is not None:
            return bool(self.hands[s] & (cards if cards > 0 else 0))
        return False

    def dealt(self, x, cards):
        return sum(bin(self.dealt_hands[s] & cards).count("1") for s in self._seats_of(x))

    def count_in(self, cards, s):
        return bin(self.hands[s] & cards).count("1") if s is not None else 0

    def first_call(self, s):
        return self._first_call[s] if s is not None else None

    def first_bid(self, s):
        return self._first_bid[s] if s is not None else None

    def latest(self, s):
        return self._latest[s] if s is not None else None

    def has_bid(self, s):
        return s is not None and self._first_bid[s] is not None

    def spoke(self, s):
        return s is not None and self._first_call[s] is not None

    def went_along(self, s):
        return s in self.playing

    def order(self, s):  # noqa: F811 — the expression function `order(s)`
        return self.order_of(s)

    def account(self, name, *keys):
        v = self.accounts.get(str(name), 0)
        if not keys:
            return v
        if isinstance(v, list) and len(keys) == 1 and isinstance(keys[0], int):
            return v[keys[0]]
        if isinstance(v, dict):
            return v.get(tuple(keys), 0)
        return 0

    def won_trick(self, x, n):
        seats = self._seats_of(x)
        idx = n - 1 if n > 0 else len(self.history) + n
        return 0 <= idx < len(self.history) and self.history[idx][1] in seats

    def trick_winner(self, n):
        idx = n - 1 if n > 0 else len(self.history) + n
        return self.history[idx][1] if 0 <= idx < len(self.history) else None

    # ---- reading the result -----------------------------------------------------------------------
    def result(self) -> dict:
        money = self.accounts.get("money", [0] * self.n)
        start = self.after_stake_accounts.get("money", [0] * self.n)
        out = {
            "declarer": self.declarer,
            "contract": self.con.name if self.con else None,
            "tricks": {s: self.tricks_won[s] for s in self.active},
            "payments": {s: _norm(money[s] - start[s]) for s in range(self.n)},
            "pot": _norm(self.accounts.get("pot", 0)),
            "made": self.made if self.declarer is not None else None,
            "all_passed": self.all_passed,
        }
        return out

    def observation(self, seat: int) -> dict:
        R = self.R
        obs = {
            "seat": seat, "dealer": self.dealer, "phase": self.phase, "to_act": self.to_act,
            "hand": R.rs.codes(self.hands[seat]),
            "calls": [(s, c) for s, c in self.calls],
            "declarer": self.declarer,
            "contract": self.con.name if self.con and (self.declarer is None or self.phase not in ("auction",)) else None,
            "trick": [(s, R.codes[c]) for s, c in self.trick],
            "tricks": {s: self.tricks_won[s] for s in self.active},
        }
        if self.talon_exposed:
            obs["talon"] = [R.codes[c] for c in self.shown_talon]
        if seat == self.declarer or (self.ap_holder == seat):
            obs["discards"] = R.rs.codes(self.discards)
        con = self.con
        if con is not None and con.open_who and len(self.history) >= con.open_after and self.phase == "play":
            shown = self.defenders if con.open_who == "defenders" else self.active
            obs["open_hands"] = {s: R.rs.codes(self.hands[s]) for s in shown if s != seat}
        return obs

    # ---- text -------------------------------------------------------------------------------------
    def action_text(self, action: int) -> str:
        return action_text(self, action)


_PHASES = ("auction", "talon", "contract", "after_purchase", "defence", "kontra", "play")
_LEGAL = {p: getattr(State, "_legal_" + p) for p in _PHASES}
_APPLY = {p: getattr(State, "_apply_" + p) for p in _PHASES}




def _norm(v):
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


def initial_accounts(R: Rules, dealer: int = 0) -> dict:
    """A table's accounts before its first deal, `initial` values evaluated."""
    probe = State(R, dealer, [0] * R.n_seats, [])
    return _copy_accounts(probe.start_accounts)


def _init_accounts(R: Rules, n: int) -> dict:
    acc: dict = {"money": [0] * n}
    for name, spec in R.accounts.items():
        per = spec.get("per")
        if per == "game":
            acc[name] = 0
        elif per == "seat":
            acc[name] = [0] * n
        else:
            acc[name] = {}
    acc.setdefault("pot", 0)
    return acc


def _copy_accounts(acc: dict) -> dict:
    out = {}
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
        return W["bid"] + " " + R.calls[arg].name
    if kind == A.PASS:
        return W["pass"]
    if kind == A.HOLD:
        return W["hold"]
    if kind == A.DISCARD:
        return W["discard"] + " " + " ".join(R.rs.codes(arg))
    if kind in (A.DECLARE, A.REVEAL):
        return W["declare"] + " " + R.contract_names[arg]
    if kind == A.TRUMP:
        return W["trump"] + " " + R.suit_names[arg]
    if kind == A.DEFEND:
        return W["go"] if arg == 0 else W["stay"]
    if kind == A.INVITE:
        return W["invite"] if arg == 0 else W["no_invite"]
    if kind == A.AFTER:
        return W["after_purchase"] if arg == 1 else W["decline"]
    if kind == A.KONTRA:
        return state._kontra_word(arg) if arg else W["pass"]
    if kind == A.NEGOTIATE:
        return W["accept"] if arg == A.ACCEPT else W["refuse"] if arg == A.REFUSE else f"{W['offer']} {arg - A.OFFER}"
    return f"action {action}"
