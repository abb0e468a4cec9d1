"""The auction: calls, raise rules, hold rights, sealed contests and the end of bidding."""
from __future__ import annotations

from interpreter.engine import actions as A
from interpreter.engine.rules import ALWAYS


class AuctionPhase:
    """Methods of State (engine/state.py) for this phase."""

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
                if rule == "any":
                    pass
                elif rule == "equal" and not (call.rank > high.rank or (call.rank == high.rank and call.contest and call.contest == high.contest)):
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
        chosen = own if own is not None and own.contest else self.high_call
        names = self.call_contracts(chosen, me)
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
            # the held bid then counts as the holder's own (first_bid, has_bid, after-purchase entitlement)
            if self._first_bid[me] is None:
                self._first_bid[me] = self.high_call.ref
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
            if call.contest and call.contracts_expr is None and len(call.contracts) == 1:
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

    def call_contracts(self, call, seat) -> list:
        """The contracts a call's winner may choose from: its list, or its `contracts` expression judged for `seat`."""
        if call.contracts_expr is None:
            return list(call.contracts)
        self.me = seat
        self.this = call.ref
        value = call.contracts_expr(self)
        self.this = None
        items = (value,) if isinstance(value, str) else tuple(value or ())
        return [str(x) for x in items if str(x) in self.R.contracts]

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
        if len(self.calls) >= self.R.max_auction_calls:  # the bound on every auction (engine/rules.py)
            return True
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
                self.choices = self.call_contracts(self.high_call, self.declarer)
            if len(self.choices) == 1:
                self.con = R.contracts[self.choices[0]]
        self.to_act = -1
        self._advance()
