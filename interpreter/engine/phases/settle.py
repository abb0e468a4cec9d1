"""Settlement: payment rows evaluated together on the final state, then applied to the accounts."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.engine.phases.base import ALWAYS, Phase

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State


@dataclass(frozen=True)
class Row:
    """One payment row: for each seat of `each` (or once), when `when` holds, `amount` from `from` to `to`."""
    when: Any
    each: Any | None
    src: Any | None
    dst: Any
    amount: Any
    note: str


def row(comp: Compiler, r: dict) -> Row:
    return Row(when=comp.text(r["when"]) if "when" in r else ALWAYS,
               each=comp.text(r["each"]) if "each" in r else None,
               src=comp.party(r["from"]) if "from" in r else None, dst=comp.party(r["to"]),
               amount=comp.text(r["amount"]), note=r.get("note", ""))


def apply_rows(st: State, rows: list[Row], record: bool) -> None:
    """Evaluate every row on the state as it is, then apply all transfers at once."""
    if not rows:
        return
    transfers = []
    c = Ctx(st, cache={})
    for r in rows:
        seats = (None,) if r.each is None else st._seats_of(r.each(c))
        for s in seats:
            if s is not None:
                c.vars["s"] = s
            if not r.when(c):
                continue
            amount = r.amount(c)
            if not amount:
                continue
            src = r.src(c) if r.src is not None else None
            transfers.append((src, r.dst(c), amount, r.note))
        c.vars.pop("s", None)
    for src, dst, amount, note in transfers:
        if src is not None:
            credit(st, src, -amount)
        credit(st, dst, amount)
        if record:
            st.payments.append((src, dst, amount, note))


def credit(st: State, who: Any, amount: Any) -> None:
    if isinstance(who, tuple):
        name, *keys = who
        acc = st.accounts
        if not keys:
            acc[name] = acc.get(name, 0) + amount
            return
        table = acc.setdefault(name, {} if len(keys) > 1 else [0] * st.n)
        if len(keys) == 1 and isinstance(table, list):
            table[keys[0]] += amount
        else:
            table[tuple(keys)] = table.get(tuple(keys), 0) + amount
        return
    if isinstance(who, bool) or who is None:
        return
    if isinstance(who, int):
        st.accounts["money"][who] += amount
        # what the seat has paid and received, for the score sheet
        side = "_paid" if amount < 0 else "_received"
        tally = st.accounts.setdefault(side, [0] * st.n)
        tally[who] += abs(amount)


class SettlePhase(Phase):
    name = "settle"

    def start(self, st: State) -> bool:
        apply_rows(st, st.R.settle_rows, record=True)
        st.settled = True
        return False
