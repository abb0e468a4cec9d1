"""Whether the results of a session ought to add up to zero, worked out from the rule file.

Where every payment row that reaches the accounts the session's `result` reads moves an amount from
somewhere (`from`: a seat, a table account such as the pot, or `others`) or pays a seat (`to = s`: the
seat's money, what the others pay for it being rows of their own), the results are money passed between
the seats and the table, so the seats' results and what the table accounts keep add up to zero, and
anything else is a fault (or a session reckoned as it stood at the deal limit). Where some row enters an
amount into such an account by name with no `from` (`to = account(score, s)`: a score a seat makes for
itself, or a final reckoning worked out seat by seat), nothing in the rows makes them add up to zero, and
`simulate --session` says what the sums are instead of calling them unbalanced."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from interpreter.language.expressions import children, parse_text

MONEY = "money"          # the account a seat pays from and is paid into (engine/phases/settle.py: credit)


def entered_accounts(rs) -> list[str]:
    """The accounts the session's result reads into which some payment row enters amounts one-sided:
    a row with no `from` whose `to` names the account (`to = account(score, s)`, `to = pot`), sorted.
    Empty when the results are payments: a row with a `from`, or one that pays a seat (`to = s`, the
    seat's money; the rule file writes what the others pay for it in rows of their own)."""
    doc = rs.doc
    names = set(doc.get("account") or {}) | {MONEY}
    result = (doc.get("session") or {}).get("result")
    read = _accounts_read(result, names, doc.get("let") or {}) if result is not None else {MONEY}
    entered = {_account_of(row["to"], names) for row in _payment_rows(doc) if "from" not in row}
    return sorted(a for a in read if a in entered)


def _payment_rows(value: Any) -> Iterator[Mapping]:
    """Every payment row anywhere in the rules document (a mapping with `to` and `amount`)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, Mapping):
            if "to" in v and "amount" in v:
                yield v
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)


def _account_of(text: Any, accounts: set[str]) -> str | None:
    """The account a row's `to` names, as engine/compile.py's `party` reads it (None: a seat, or `others`)."""
    if not isinstance(text, str):
        return None
    node = parse_text(text)
    if node[0] == "name" and node[1] in accounts:
        return node[1]
    if node[0] == "call" and node[1] == "account" and node[2] and node[2][0][0] == "name":
        return node[2][0][1]
    return None


def _accounts_read(text: Any, accounts: set[str], lets: Mapping) -> set[str]:
    """The accounts an expression reads, through the `let` definitions it uses."""
    out: set[str] = set()
    seen: set[str] = set()
    todo = [text]
    while todo:
        t = todo.pop()
        if not isinstance(t, str):
            continue
        stack = [parse_text(t)]
        while stack:
            node = stack.pop()
            if node[0] in ("name", "call"):
                name = node[1]
                if name in accounts:
                    out.add(name)
                if name in lets and name not in seen:
                    seen.add(name)
                    body = lets[name]
                    todo.append(body.get("body") if isinstance(body, Mapping) else body)
            stack.extend(children(node))
    return out


def sentence(summary: dict) -> str:
    """What `simulate --session` says of the sums of the results, true for either kind of game."""
    imbalance = summary["largest_imbalance"]
    cut = summary["sessions"] - summary["ended_by_rule"]
    stopped = (f"{cut} session{'s' if cut != 1 else ''} stopped at the deal limit before the game's own end, "
               f"and {'were' if cut != 1 else 'was'} reckoned as {'they' if cut != 1 else 'it'} stood")
    entered = summary.get("results_entered")
    if not entered:
        if imbalance == 0:
            return ("balanced: in every session the seat results and what the table accounts keep (pot, cup, …) "
                    "add up to zero")
        return (f"not balanced: in some session the seat results and what the table accounts keep add up to "
                f"{imbalance:g}, not zero{f' ({stopped})' if cut else ''}")
    where = ", ".join(entered)
    said = (f"the results are entered seat by seat (account{'s' if len(entered) > 1 else ''} {where}), not paid "
            "between seats, so they need not add up to zero")
    if imbalance == 0:
        return f"{said}; here they do, in every session"
    largest = summary.get("largest_sum", imbalance)
    if summary["ended_by_rule"] and summary.get("largest_imbalance_ended") == 0:
        which = ("the one stopped at the deal limit, reckoned as it stood, adds" if cut == 1 else
                 f"of the {cut} stopped at the deal limit, reckoned as they stood, one adds")
        return f"{said}; here they do in every session that reached the game's own end; {which} up to {largest:g}"
    return f"{said}; in some session they add up to {largest:g}{f' ({stopped})' if cut else ''}"
