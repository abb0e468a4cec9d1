"""The game state of one deal, shaped like an OpenSpiel state:

    current_player() · legal_actions() · apply(action) · observation(seat) · is_over() · result() · clone()

Phases come from the rule file's `procedure`; each is a generic mechanism parameterised by the
compiled rules (engine/rules.py). Seats are numbered in the order of play: next(s) = s + 1.
"""
from __future__ import annotations

from fractions import Fraction

from . import actions as A
from .compile import attr
from .rules import ALWAYS, Rules, bits

_COPY_LISTS = ("hands", "calls", "passed", "excluded", "_first_call", "_first_bid", "_latest", "bid_order",
               "contest", "tricks_won", "won_cards", "trick", "history", "answers", "log", "ap_queue", "kontra_queue",
               "payments")


class IllegalAction(Exception):
    pass


class State:
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
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        for name in _COPY_LISTS:
            setattr(new, name, list(getattr(self, name)))
        new.reveals = dict(self.reveals)
        new.vars = {}
        new.accounts = _copy_accounts(self.accounts)
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

    # ---- auction ----------------------------------------------------------------------------------
    def _start_auction(self) -> bool:
        au = self.R.auction
        self.me = None
        first = au["first"](self)
        order = []
        s = first if first in self.active else self.next(first)
        for _ in range(len(self.active)):
            order.append(s)
            s = self.next(s)
        self.bid_order = order
        self.pos = 0
        self.to_act = order[0]
        return True

    def _contest_reveal_due(self, me) -> bool:
        if not self.contest or me not in self.contest or len(self.contest) < 2:
            return False
        if self.high_call is None or self.high_call.contest is None:
            return False
        if self.R.auction["contest_rounds"] == "once" and me in self.reveals:
            return False
        return True

    def _legal_auction(self) -> list[int]:
        me = self.to_act
        au = self.R.auction
        self.me = me
        out = []
        if self._contest_reveal_due(me):
            out = self._legal_reveals(me)
            must = au["first_must_name"] and not self.reveals and out
            if not must:
                out.append(A.make(A.PASS))
            return out
        high = self.high_call
        key_attrs = au["allowed_key"]
        call_keys = au.get("call_keys")
        memo: dict = {}
        calls = self.R.calls
        start = 0
        if high is not None:
            start = self.R.first_call_at_rank[high.rank]
        for call in calls[start:] if start else calls:
            if high is not None:
                rule = call.raise_rule
                if rule == "higher" and call.rank <= high.rank:
                    continue
                if rule == "step" and call.rank != self._next_rank(high.rank):
                    continue
                if rule == "equal" and not (call.rank > high.rank or (call.rank == high.rank and call.contest and call.contest == high.contest)):
                    continue
            elif call.raise_rule == "step" and call.rank != self._next_rank(None, call):
                continue
            self.this = call.ref
            if call.allowed is not ALWAYS and not call.allowed(self):
                continue
            if key_attrs is None:
                ok = au["allowed"](self)
            else:
                key = call_keys[call.index]
                ok = memo.get(key)
                if ok is None:
                    ok = memo[key] = bool(au["allowed"](self))
            if ok:
                out.append(call.action)
        self.this = None
        if high is not None and au["hold_call"] and self.holder != me and self.holder is not None:
            if au["hold_who"](self) and au["hold_bids"](self):
                out.append(A.make(A.HOLD))
        if au["pass_allowed"](self):
            out.append(A.make(A.PASS))
        return out

    def _next_rank(self, rank, call=None):
        ranks = sorted({c.rank for c in self.R.calls if c.raise_rule == "step"})
        if rank is None:
            return ranks[0] if ranks else None
        bigger = [r for r in ranks if r > rank]
        return bigger[0] if bigger else None

    def _legal_reveals(self, me) -> list[int]:
        own = self.R.call_by_name.get(str(self._latest[me])) if self._latest[me] is not None else None
        names = own.contracts if own is not None and own.contest else self.high_call.contracts
        best = self.best
        out = []
        for name in names:
            con = self.R.contracts[name]
            if best is not None:
                bcon = self.R.contracts[best[1]]
                # an equal contract is allowed only where ties go to the earlier bidder (contest.ties)
                earlier = (self.R.auction["contest_ties"] == "earlier"
                           and self.bid_order.index(me) < self.bid_order.index(best[0]))
                if con.rank < bcon.rank or (con.rank == bcon.rank and not earlier):
                    continue
            out.append(A.make(A.REVEAL, self.R.contract_index[name]))
        return out

    def _apply_auction(self, action: int) -> None:
        me = self.to_act
        kind = A.kind_of(action)
        R = self.R
        if kind == A.PASS:
            label = "pass"
            if not self.passed[me] and not self.excluded[me]:
                self.passes += 1
            self.passed[me] = True
            if self._first_call[me] is None:
                self._first_call[me] = R.auction["pass_ref"]
            self._latest[me] = R.auction["pass_ref"]
            if me in self.contest and self.R.auction["contest_rounds"] == "once":
                self.reveals.setdefault(me, None)
        elif kind == A.HOLD:
            label = "hold"
            self.holder = me
            self._latest[me] = R.auction["hold_ref"]
            if self._first_call[me] is None:
                self._first_call[me] = R.auction["hold_ref"]
        elif kind == A.REVEAL:
            name = R.contract_names[A.arg_of(action)]
            label = "reveal " + name
            self.reveals[me] = name
            self.best = (me, name)
            self.holder = me
        else:
            call = R.calls[A.arg_of(action)]
            label = call.name
            if call.contest and self.high_call is not None and self.high_call.contest == call.contest:
                self.contest.append(me)
            else:
                self.contest = [me] if call.contest else []
                self.reveals = {}
                self.best = None
            if call.contest and len(call.contracts) == 1:
                # a named sealed call is already revealed
                self.reveals[me] = call.contracts[0]
                if self.best is None or self._beats(me, call.contracts[0]):
                    self.best = (me, call.contracts[0])
            self.high_call = call
            self.holder = me if self.best is None else self.best[0]
            if self._first_call[me] is None:
                self._first_call[me] = call.ref
            if self._first_bid[me] is None:
                self._first_bid[me] = call.ref
            self._latest[me] = call.ref
        self.calls.append((me, label))
        self._auction_next()

    def _beats(self, seat, name) -> bool:
        con = self.R.contracts[name]
        bseat, bname = self.best
        bcon = self.R.contracts[bname]
        if con.rank != bcon.rank:
            return con.rank > bcon.rank
        return self.bid_order.index(seat) < self.bid_order.index(bseat)

    def _auction_over(self) -> bool:
        au = self.R.auction
        self.me = None
        if au["style"] == "once" and len(self.calls) >= len(self.bid_order):
            return True
        if au["ends"] is not None and au["ends"](self):
            return True
        if au["ends"] is None:
            active = [s for s in self.bid_order if not self.passed[s] and not self.excluded[s]]
            if len(active) == 0 or (len(active) == 1 and self.high_call is not None):
                return True
        if self.contest and len(self.contest) >= 2 and au["contest_rounds"] == "once":
            if all(s in self.reveals for s in self.contest):
                return True
        return False

    def _auction_next(self) -> None:
        au = self.R.auction
        if au["exclude"] is not None:
            for s in self.bid_order:
                if not self.passed[s] and not self.excluded[s]:
                    self.me = s
                    if au["exclude"](self):
                        self.excluded[s] = True
                        self.passes += 1
        if self._auction_over():
            self._finish_auction()
            return
        n = len(self.bid_order)
        for step in range(1, n + 1):
            s = self.bid_order[(self.pos + step) % n]
            if au["style"] == "once":
                if self._first_call[s] is None:
                    self.pos = (self.pos + step) % n
                    self.to_act = s
                    return
                continue
            if self.passed[s] or self.excluded[s]:
                continue
            if self.R.auction["contest_rounds"] == "once" and s in self.contest and s in self.reveals and len(self.contest) >= 2:
                continue
            self.pos = (self.pos + step) % n
            self.to_act = s
            return
        self._finish_auction()

    def _finish_auction(self) -> None:
        R = self.R
        if self.high_call is None:
            self.all_passed = True
            name = R.auction["all_pass"]
            self._apply_rows(R.session_rows.get("all_pass", []), record=True)
            if name is None:
                self.settled = True
                self._end()
                return
            self.con = R.contracts[name]
            self.declarer = None
            self.choices = []
        else:
            self.final_call = self.high_call
            self.declarer = self.best[0] if self.best is not None else self.holder
            if self.best is not None:
                self.choices = [self.best[1]]
            else:
                self.choices = list(self.high_call.contracts)
            if len(self.choices) == 1:
                self.con = R.contracts[self.choices[0]]
        self.to_act = -1
        self._advance()

    # ---- talon ------------------------------------------------------------------------------------
    def _talon_proc(self):
        name = None
        if self.final_call is not None and self.final_call.talon is not None:
            name = self.final_call.talon
        elif self.con is not None:
            name = self.con.talon
        return self.R.talons.get(name) if name else None

    def _start_talon(self) -> bool:
        proc = self._talon_proc()
        if proc is None or self.declarer is None:
            self.talon_rest = _mask(self.talon)
            return False
        kind = proc["kind"]
        if kind == "exchange":
            take = proc.get("take", len(self.talon))
            taken = self.talon[:take]
            self.talon = self.talon[take:]
            self.talon_exposed = bool(proc.get("exposed"))
            self.shown_talon = tuple(taken) if self.talon_exposed else ()
            self.hands[self.declarer] |= _mask(taken)
            self.to_act = self.declarer
            self.discard_count = proc.get("discard", len(taken))
            return self.discard_count > 0
        self.talon_rest = _mask(self.talon)
        return False

    def _legal_talon(self) -> list[int]:
        hand = self.hands[self.to_act]
        proc = self._talon_proc()
        allowed = hand & ~proc.get("_never", 0) if proc else hand
        return [A.make(A.DISCARD, m) for m in _combinations(allowed, self.discard_count)]

    def _apply_talon(self, action: int) -> None:
        m = A.arg_of(action)
        self.hands[self.to_act] &= ~m
        self.discards |= m
        self.to_act = -1
        self._advance()

    # ---- contract ---------------------------------------------------------------------------------
    def _start_contract(self) -> bool:
        if self.con is not None and self.trump_choice is None and not self._trump_choices():
            return False
        if self.declarer is None:
            return False
        if self.con is None and len(self.choices) > 1:
            self.to_act = self.declarer
            return True
        if self._trump_choices():
            self.to_act = self.declarer
            return True
        return False

    def _trump_choices(self):
        if self.con is None:
            return []
        raw = self.con.ref.rec.get("trump_choices")
        if raw is None or self.trump_choice is not None:
            return []
        if isinstance(raw, (list, tuple)):
            return [self.R.suit_names.index(s) for s in raw]
        return []

    def _legal_contract(self) -> list[int]:
        if self.con is None:
            return [A.make(A.DECLARE, self.R.contract_index[n]) for n in self.choices]
        return [A.make(A.TRUMP, s) for s in self._trump_choices()]

    def _apply_contract(self, action: int) -> None:
        if A.kind_of(action) == A.DECLARE:
            self.con = self.R.contracts[self.R.contract_names[A.arg_of(action)]]
            if self._trump_choices():
                return
        else:
            self.trump_choice = A.arg_of(action)
            self.con = self.R.with_trump(self.con, self.trump_choice)
        self.to_act = -1
        self._advance()

    # ---- after-purchase ---------------------------------------------------------------------------
    def _start_after_purchase(self) -> bool:
        ap = self.R.after_purchase
        if not ap["present"] or self.declarer is None or self.final_call is None:
            return False
        self.me = None
        if not ap["when"](self):
            return False
        self.ap_holder = self.declarer
        self._ap_fill_queue()
        if not self.ap_queue:
            return False
        self.ap_stage = "ask"
        self.to_act = self.ap_queue[0]
        return True

    def _ap_fill_queue(self):
        ap = self.R.after_purchase
        q = []
        s = self.next(self.ap_holder)
        for _ in range(len(self.active)):
            if s != self.ap_holder:
                self.vars["s"] = s
                if ap["entitled"](self) and self._ap_options(s):
                    q.append(s)
            s = self.next(s)
        self.vars.pop("s", None)
        self.ap_queue = q

    def _ap_options(self, s):
        ap = self.R.after_purchase
        floor = self.con.rank if (ap["must_exceed"] and self.ap_made) else -1
        return [n for n in ap["contracts"] if self.R.contracts[n].rank > floor]

    def _legal_after_purchase(self) -> list[int]:
        if self.ap_stage == "ask":
            return [A.make(A.AFTER, 1), A.make(A.AFTER, 0)]
        if self.ap_stage == "discard":
            return [A.make(A.DISCARD, m) for m in _combinations(self.hands[self.to_act], self.R.after_purchase["discard"])]
        return [A.make(A.DECLARE, self.R.contract_index[n]) for n in self._ap_options(self.to_act)]

    def _apply_after_purchase(self, action: int) -> None:
        kind = A.kind_of(action)
        me = self.to_act
        if self.ap_stage == "ask":
            if A.arg_of(action) == 0:
                self.ap_queue.pop(0)
                if not self.ap_queue:
                    self.to_act = -1
                    self._advance()
                else:
                    self.to_act = self.ap_queue[0]
                return
            self.hands[me] |= self.discards
            self.discards = 0
            self.ap_stage = "discard"
            return
        if self.ap_stage == "discard":
            m = A.arg_of(action)
            self.hands[me] &= ~m
            self.discards = m
            self.ap_stage = "declare"
            return
        assert kind == A.DECLARE
        self.con = self.R.contracts[self.R.contract_names[A.arg_of(action)]]
        self.declarer = me
        self.ap_holder = me
        self.ap_made = True
        self._ap_fill_queue()
        if not self.ap_queue:
            self.to_act = -1
            self._advance()
            return
        self.ap_stage = "ask"
        self.to_act = self.ap_queue[0]

    # ---- defence ----------------------------------------------------------------------------------
    def _start_defence(self) -> bool:
        df = self.R.defence
        con = self.con
        if self.declarer is None:
            self.playing = self.active
            return False
        defenders = self.defenders
        if con.defence == "all" or not df["present"]:
            self.playing = self.active
            return False
        if con.defence == "nobody":
            self.playing = self.declarers
            return False
        self.me = None
        if df["kontra_required"](self):
            self.kontra_required = True
            self.playing = self.active
            return False
        if not df["when"](self):
            self.playing = self.active
            return False
        if df["compulsory"](self):
            self.compulsory = True
            self.playing = self.active
            return False
        first = df["first"](self) if df["first"] is not None else self.next(self.declarer)
        queue = [first] + [s for s in defenders if s != first]
        self.defence_queue = queue
        self.to_act = queue[0]
        self.defence_stage = "ask"
        return True

    def _legal_defence(self) -> list[int]:
        if self.defence_stage == "ask":
            return [A.make(A.DEFEND, 0), A.make(A.DEFEND, 1)]
        return [A.make(A.INVITE, 0), A.make(A.INVITE, 1)]

    def _apply_defence(self, action: int) -> None:
        me = self.to_act
        if self.defence_stage == "ask":
            self.answers[me] = "go" if A.arg_of(action) == 0 else "stay"
            self.defence_queue.pop(0)
            if self.defence_queue:
                self.to_act = self.defence_queue[0]
                return
            goers = [s for s in self.defenders if self.answers[s] == "go"]
            stayers = [s for s in self.defenders if self.answers[s] == "stay"]
            if len(goers) == 1 and stayers:
                self.me = goers[0]
                if self.R.defence["invite"](self):
                    self.defence_stage = "invite"
                    self.to_act = goers[0]
                    return
            self._finish_defence()
            return
        if A.arg_of(action) == 0:
            self.invited = True
            self.host = me
            self.guest = next(s for s in self.defenders if s != me)
        self._finish_defence()

    def _finish_defence(self):
        goers = [s for s in self.defenders if self.answers[s] == "go" or (self.invited and s == self.guest)]
        self.playing = tuple(s for s in self.active if s in goers or s in self.declarers)
        self.to_act = -1
        self._advance()

    # ---- kontra -----------------------------------------------------------------------------------
    def _start_kontra(self) -> bool:
        K = self.R.kontra
        if not K["present"] or self.declarer is None or self.con is None:
            return False
        first = K["first"](self) if K["first"] is not None else self.next(self.declarer)
        order = [first] + [s for s in self.defenders if s != first]
        self.kontra_queue = []
        for s in order:
            self.me = s
            if K["when"](self):
                self.kontra_queue.append(s)
        self.kontra_sayer = None
        if not self.kontra_queue:
            self._kontra_done()
            return False
        self.to_act = self.kontra_queue[0]
        return True

    def _kontra_word(self, level: int) -> str:
        levels = self.R.kontra["levels"] or ["kontra"]
        return levels[level - 1] if level <= len(levels) else f"{levels[-1]} {level}"

    def _legal_kontra(self) -> list[int]:
        mx = self.R.kontra["max"]
        if mx is not None and self.kontra_level >= mx:
            return [A.make(A.KONTRA, 0)]
        return [A.make(A.KONTRA, self.kontra_level + 1), A.make(A.KONTRA, 0)]

    def _apply_kontra(self, action: int) -> None:
        me = self.to_act
        level = A.arg_of(action)
        if level:
            self.kontra_level = level
            if self.kontra_sayer is None:
                self.kontra_sayer = me
                if self.R.kontra["invites"]:
                    others = [s for s in self.defenders if s != me]
                    self.host = me
                    self.guest = others[0] if others else None
                    self.invited = self.guest is not None
                    self.playing = tuple(s for s in self.active)
            self.to_act = self.declarer if me != self.declarer else self.kontra_sayer
            return
        if self.kontra_sayer is None:
            self.kontra_queue.pop(0)
            if self.kontra_queue:
                self.to_act = self.kontra_queue[0]
                return
        self._kontra_done()
        self.to_act = -1
        self._advance()

    def _kontra_done(self) -> None:
        if self.kontra_required and self.kontra_sayer is None:
            self.playing = self.declarers

    # ---- play -------------------------------------------------------------------------------------
    def _start_play(self) -> bool:
        if not self.playing:
            self.playing = self.active
        if self.declarer is not None and len(self.playing) == 1:
            n = self.R.defence["nobody_tricks"]
            if n is not None:
                self.tricks_won[self.declarer] = n
            return False
        con = self.con
        self.me = None
        lead = con.lead(self) if con.lead is not None else self.declarer
        if lead is None or lead not in self.playing:
            lead = self._next_playing(lead if lead is not None else self.dealer)
        self.leader = lead
        self.to_act = lead
        self.trick = []
        return True

    def _next_playing(self, s):
        for k in range(1, self.n + 1):
            t = (s + k) % self.n
            if t in self.playing:
                return t
        return s

    def _legal_play(self) -> list[int]:
        if self.offer is not None:
            return [A.make(A.NEGOTIATE, A.ACCEPT), A.make(A.NEGOTIATE, A.REFUSE)] + self._offers(exclude=self.offer[1])
        return bits(self._playable(self.to_act)) + self._offers()

    def _offers(self, exclude=None) -> list[int]:
        """Splits the player to act may offer, as the declarer's tricks in all."""
        neg = self.R.play["negotiate"]
        if neg is None or self.offers >= A.MAX_OFFERS or self.trick or self.declarer is None:
            return []
        self.me = self.to_act
        if not neg(self):
            return []
        total = self.R.rs.hand_size
        taken_d = self.tricks_won[self.declarer]
        taken_o = sum(self.tricks_won[s] for s in self.playing if s != self.declarer)
        lo = max(self.R.play["declarer_min"], taken_d)
        hi = min(total - self.R.play["defender_min"], total - taken_o)
        return [A.make(A.NEGOTIATE, A.OFFER + d) for d in range(lo, hi + 1) if d != exclude]

    def _apply_negotiate(self, action: int) -> None:
        arg = A.arg_of(action)
        me = self.to_act
        if arg >= A.OFFER:
            resume = self.offer[2] if self.offer is not None else me
            self.offer = (me, arg - A.OFFER, resume)
            self.offers += 1
            self.to_act = next(s for s in self.playing if s != me)
            return
        offerer, d, resume = self.offer
        self.offer = None
        if arg == A.REFUSE:
            self.to_act = resume
            return
        total = self.R.rs.hand_size
        self.tricks_won = [0] * self.n
        self.tricks_won[self.declarer] = d
        other = next(s for s in self.playing if s != self.declarer)
        self.tricks_won[other] = total - d
        self.negotiated = True
        self.to_act = -1
        self._advance()

    def _playable(self, me) -> int:
        hand = self.hands[me]
        con = self.con
        if not self.trick:
            cands = hand
            for ob in con.obligations:
                if ob["rule"] == "no_lead" and ob["suit"] is not None:
                    others = cands & ~self.R.suit_masks[ob["suit"]]
                    if others and self._ob_applies(ob, me):
                        cands = others
            return cands
        led = self.R.suit_of[self.trick[0][1]]
        win_card = self._winning()[1]
        cands = hand
        R = self.R
        for ob in con.obligations:
            rule = ob["rule"]
            if rule == "follow_suit":
                m = cands & R.suit_masks[led]
            elif rule == "must_trump":
                suit_mask = R.suit_masks[ob["suit"]] if ob["suit"] is not None else con.trump_mask
                if hand & R.suit_masks[led]:
                    continue
                m = cands & suit_mask
            elif rule == "must_beat":
                m = cands & con.beaters[win_card]
            elif rule == "lowest_winner":
                if not self._ob_applies(ob, me):
                    continue
                winners = cands & con.beaters[win_card]
                if not winners:
                    continue
                low = min(bits(winners), key=lambda i: con.strength[i])
                m = 1 << low
            elif rule == "hold_back":
                held = cands & ob["cards"]
                if not held:
                    continue
                same = 0
                for i in bits(held):
                    same |= R.suit_masks[R.suit_of[i]]
                m = cands & ~ob["cards"] if (hand & same & ~ob["cards"]) else cands
            else:
                continue
            if ob["when"] is not None and rule != "lowest_winner" and not self._ob_applies(ob, me):
                continue
            if m:
                cands = m
        return cands

    def _ob_applies(self, ob, me) -> bool:
        if ob["when"] is None:
            return True
        self.me = me
        return bool(ob["when"](self))

    def _winning(self):
        con = self.con
        led = self.R.suit_of[self.trick[0][1]]
        best = self.trick[0]
        bstr = None
        for seat, card in self.trick:
            st = con.strength[card]
            if self.R.suit_of[card] != led and st[0] == 0:
                continue
            if bstr is None or st > bstr:
                best, bstr = (seat, card), st
        return best

    def _apply_play(self, action: int) -> None:
        if A.kind_of(action) == A.NEGOTIATE:
            self._apply_negotiate(action)
            return
        me = self.to_act
        card = action
        self.hands[me] &= ~(1 << card)
        self.trick.append((me, card))
        if len(self.trick) < len(self.playing):
            self.to_act = self._next_playing(me)
            return
        winner = self._winning()[0]
        self.tricks_won[winner] += 1
        m = 0
        for _, c in self.trick:
            m |= 1 << c
        self.won_cards[winner] |= m
        self.history.append((tuple(self.trick), winner))
        self.trick = []
        self.leader = winner
        con = self.con
        if not any(self.hands[s] for s in self.playing):
            self.to_act = -1
            self._advance()
            return
        if con.early_end is not None:
            self.me = None
            if con.early_end(self):
                self.to_act = -1
                self._advance()
                return
        self.to_act = winner

    # ---- settlement -------------------------------------------------------------------------------
    def _start_settle(self) -> bool:
        self._apply_rows(self.R.settle_rows, record=True)
        self.settled = True
        return False

    def _apply_rows(self, rows, record: bool) -> None:
        """Evaluate every row on the state as it is, then apply all transfers at once."""
        if not rows:
            return
        transfers = []
        self.me = None
        self._cache = {}
        for row in rows:
            if row["each"] is None:
                seats = (None,)
            else:
                seats = self._seats_of(row["each"](self))
            for s in seats:
                if s is not None:
                    self.vars["s"] = s
                if not row["when"](self):
                    continue
                amount = row["amount"](self)
                if not amount:
                    continue
                src = row["from"](self) if row["from"] is not None else None
                dst = row["to"](self)
                transfers.append((src, dst, amount, row["note"]))
            self.vars.pop("s", None)
        self._cache = None
        for src, dst, amount, note in transfers:
            if src is not None:
                self._credit(src, -amount)
            self._credit(dst, amount)
            if record:
                self.payments.append((src, dst, amount, note))

    def _credit(self, who, amount) -> None:
        if isinstance(who, tuple):
            name, *keys = who
            acc = self.accounts
            if not keys:
                acc[name] = acc.get(name, 0) + amount
                return
            table = acc.setdefault(name, {} if len(keys) > 1 else [0] * self.n)
            if len(keys) == 1 and isinstance(table, list):
                table[keys[0]] += amount
            else:
                table[tuple(keys)] = table.get(tuple(keys), 0) + amount
            return
        if isinstance(who, bool) or who is None:
            return
        if isinstance(who, int):
            self.accounts["money"][who] += amount
            # what the seat has paid and received, for the score sheet
            side = "_paid" if amount < 0 else "_received"
            tally = self.accounts.setdefault(side, [0] * self.n)
            tally[who] += abs(amount)

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


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _combinations(mask: int, k: int) -> list[int]:
    from itertools import combinations

    idx = bits(mask)
    out = []
    for combo in combinations(idx, k):
        m = 0
        for i in combo:
            m |= 1 << i
        out.append(m)
    return out


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


def action_text(state: State, action: int) -> str:
    R = state.R
    kind, arg = A.kind_of(action), A.arg_of(action)
    if kind == A.PLAY:
        return "play " + R.codes[arg]
    if kind == A.BID:
        return "bid " + R.calls[arg].name
    if kind == A.PASS:
        return "pass"
    if kind == A.HOLD:
        return R.auction["hold_call"] or "hold"
    if kind == A.DISCARD:
        return "discard " + " ".join(R.rs.codes(arg))
    if kind in (A.DECLARE, A.REVEAL):
        return "declare " + R.contract_names[arg]
    if kind == A.TRUMP:
        return "trump " + R.suit_names[arg]
    if kind == A.DEFEND:
        return R.defence["go"] if arg == 0 else R.defence["stay"]
    if kind == A.INVITE:
        return "invite" if arg == 0 else "no invite"
    if kind == A.AFTER:
        return "after-purchase" if arg == 1 else "decline"
    if kind == A.KONTRA:
        return state._kontra_word(arg) if arg else "pass"
    if kind == A.NEGOTIATE:
        return "accept" if arg == A.ACCEPT else "refuse" if arg == A.REFUSE else f"offer {arg - A.OFFER}"
    return f"action {action}"
