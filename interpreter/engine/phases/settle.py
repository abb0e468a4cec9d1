"""Settlement: payment rows evaluated together on the final state, then applied to the accounts."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.engine.phases import settle_parties
from interpreter.engine.phases.base import ALWAYS, Phase

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.game import PayRow


@dataclass(frozen=True)
class Row:
    """One payment row: for each seat of `each` (or once), when `when` holds, `amount` from `from` to `to`."""
    when: Any
    each: Any | None
    src: Any | None
    dst: Any
    amount: Any
    note: str


# The payee form "each other player": `from = others` or `to = others` in a payment row stands for every
# active seat but the row's other party, so one row pays (or collects from) each of them in turn.
OTHERS = "others"


@dataclass(frozen=True)
class OthersRow(Row):
    """A row whose `from` (spread == "from") or `to` (spread == "to") is every other active seat; the
    other party is in `src` or `dst` as usual, and the one spread over is None there."""
    spread: str = "to"


# the parts of a session whose payment rows are booked at their time (engine/session.py)
SESSION_PARTS = ("before_deal", "after_deal", "all_pass", "reckoning")


@dataclass(frozen=True)
class Rows:
    """A list of payment rows (`part`: "settle", a part of the session, or a sit's "reckoning"), and the
    function that gives all their transfers at once where the game's backend made one (engine/backend.py),
    else None: they are judged row by row."""
    part: str = "settle"
    rows: tuple[Row, ...] = ()
    evaluate: Callable[[Any], list] | None = None
    # the notes of the score entries (no `from`) and of the rows with a payer, which settle_parties.check
    # reads after every settlement with a score entry
    notes: tuple[frozenset, frozenset] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "notes", (frozenset(r.note for r in self.rows if r.src is None and r.dst is not None),
                                           frozenset(r.note for r in self.rows if r.src is not None)))

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> Row:
        return self.rows[i]


@dataclass(frozen=True)
class SessionRules:
    """What the rule file's `session` says, compiled: the payment rows booked before and after each deal,
    when all pass, and at the end (`reckoning`); the next dealer, the session's end and its result."""
    before_deal: Rows = Rows("before_deal")
    after_deal: Rows = Rows("after_deal")
    all_pass: Rows = Rows("all_pass")
    reckoning: Rows = Rows("reckoning")
    dealer: Any = None              # each a compiled expression, or None where the file gives none
    ends: Any = None
    result: Any = None

    def parts(self) -> tuple[tuple[str, Rows], ...]:
        """Each part of the session with its payment rows, by its name in the rule file."""
        return tuple((part, getattr(self, part)) for part in SESSION_PARTS)


def row(comp: Compiler, r: PayRow) -> Row:
    common: dict[str, Any] = dict(when=comp.text(r.when) if r.when is not None else ALWAYS,
                                  each=comp.text(r.each) if r.each is not None else None,
                                  amount=comp.text(r.amount), note=r.note)
    parties = {"from": r.src, "to": r.dst}
    for spread in ("from", "to"):
        given = parties[spread]
        if given is not None and given.source == OTHERS:
            fixed = "to" if spread == "from" else "from"
            party = comp.party(parties[fixed])       # the checker asks for it
            return OthersRow(src=party if fixed == "from" else None, dst=party if fixed == "to" else None,
                             spread=spread, **common)
    return Row(src=comp.party(r.src) if r.src is not None else None, dst=comp.party(r.dst), **common)


def apply_rows(st: State, rows: Rows, record: bool) -> None:
    """Evaluate every row on the state as it is, then apply all transfers at once."""
    if not rows:
        return
    # shared with a clone (the state's _Part): its own copy, made where a row reads it or below; the rows
    # read the same values in it
    accounts = st.own_accounts()
    evaluate = rows.evaluate
    transfers = evaluate(st) if evaluate is not None else _judge(st, rows)
    if not transfers:
        return
    if settle_parties.nobody(transfers):     # a party that is none: a score entry, or a fault of the rules
        settle_parties.check(st, rows, transfers, _judge)
    for src, dst, amount, _ in transfers:
        if src is not None:
            credit(st, accounts, src, -amount)
        if dst is not None:
            credit(st, accounts, dst, amount)
    if record:
        st.add_payments(transfers)


def _judge(st: State, rows: Rows) -> list:
    """The transfers of the rows, judged by the interpreter (the reference the generated rows follow)."""
    transfers: list = []
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
            if isinstance(r, OthersRow):   # each other active seat, in turn
                party = r.src if r.spread == "to" else r.dst
                fixed = party(c) if party is not None else None
                for t in st.active if fixed is not None else ():   # nobody to pay or be paid: no transfer
                    if t != fixed:
                        transfers.append((fixed, t, amount, r.note) if r.spread == "to" else (t, fixed, amount, r.note))
                continue
            src = r.src(c) if r.src is not None else None
            transfers.append((src, r.dst(c), amount, r.note))
        c.vars.pop("s", None)
    return transfers


def credit(st: State, accounts: dict, who: Any, amount: Any) -> None:
    """Book `amount` to a party in the state's `accounts`: a seat's money, with what it has paid or received
    (a negative amount the other way round); a game account (the pot); an account kept per seat, pair,
    team or player (`account(name, s…)`, its keys as the state stores them). None and a truth book nothing."""
    if isinstance(who, bool) or who is None:
        return
    if isinstance(who, int):            # a seat
        accounts["money"][who] += amount
        side = "_paid" if amount < 0 else "_received"
        tally = accounts[side] if side in accounts else accounts.setdefault(side, [0] * st.n)
        tally[who] += abs(amount)
        return
    if isinstance(who, tuple):
        if len(who) == 1:               # a game account (the pot)
            name = who[0]
            accounts[name] = accounts.get(name, 0) + amount
            return
        name, *_ = who
        keys = st.account_keys(name, who[1:])     # a partnership's key, the person in a seat
        if name in accounts:
            table = accounts[name]
        else:
            table = accounts[name] = {} if len(keys) > 1 else [0] * st.n
        if len(keys) == 1 and isinstance(table, list):
            table[keys[0]] += amount
        else:
            key = tuple(keys)
            table[key] = table.get(key, 0) + amount


class SettlePhase(Phase):
    name = "settle"

    def start(self, st: State) -> bool:
        apply_rows(st, st.R.settle_rows, record=True)
        st.settled = True
        return False
