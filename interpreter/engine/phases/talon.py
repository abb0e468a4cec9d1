"""After the auction: the talon, the contract (and trump) the declarer names, and the after-purchase chain."""
from __future__ import annotations

from interpreter.engine import actions as A
from interpreter.engine.cards import combinations_of, mask_of


class TalonPhases:
    """Methods of State (engine/state.py) for this phase."""

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
            self.talon_rest = mask_of(self.talon)
            return False
        kind = proc["kind"]
        if kind == "exchange":
            take = proc.get("take", len(self.talon))
            taken = self.talon[:take]
            self.talon = self.talon[take:]
            self.talon_exposed = bool(proc.get("exposed"))
            self.shown_talon = tuple(taken) if self.talon_exposed else ()
            self.hands[self.declarer] |= mask_of(taken)
            self.to_act = self.declarer
            self.discard_count = proc.get("discard", len(taken))
            return self.discard_count > 0
        self.talon_rest = mask_of(self.talon)
        return False

    def _legal_talon(self) -> list[int]:
        hand = self.hands[self.to_act]
        proc = self._talon_proc()
        allowed = hand & ~proc.get("_never", 0) if proc else hand
        return [A.make(A.DISCARD, m) for m in combinations_of(allowed, self.discard_count)]

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
        if self.ap_count >= self.R.max_purchases:
            return []
        floor = self.con.rank if (ap["must_exceed"] and self.ap_made) else -1
        return [n for n in ap["contracts"] if self.R.contracts[n].rank > floor]

    def _legal_after_purchase(self) -> list[int]:
        if self.ap_stage == "ask":
            return [A.make(A.AFTER, 1), A.make(A.AFTER, 0)]
        if self.ap_stage == "discard":
            return [A.make(A.DISCARD, m) for m in combinations_of(self.hands[self.to_act], self.R.after_purchase["discard"])]
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
        self.ap_count += 1
        self._ap_fill_queue()
        if not self.ap_queue:
            self.to_act = -1
            self._advance()
            return
        self.ap_stage = "ask"
        self.to_act = self.ap_queue[0]
