"""Settlement: payment rows evaluated together on the final state, then applied to the accounts."""
from __future__ import annotations


class SettlePhase:
    """Methods of State (engine/state.py) for this phase."""

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
