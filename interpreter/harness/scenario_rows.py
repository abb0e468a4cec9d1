"""A deal's payment rows for `expect: rows`: each row of the rule file that paid something in the deal,
named as the table shows it (its note without the catalog ids, model/notes.py), with the money it moved
per seat (a payer's negative) and into or out of a game account (the pot) by the account's name.

    expect:
      rows:
        "game × valat × kontra": {A: 2, B: -2, C: 2, D: -2}
        Bird ultimo: {A: 4, B: -4, C: 4, D: -4}

The rows stated are the deal's rows, all of them: a row the deal paid that `rows` leaves out is a
failure, as is a row stated that paid nothing. A row that comes to nothing in a deal is no row of it.
"""
from __future__ import annotations

from typing import Any

from interpreter.harness.scenario_steps import plain
from interpreter.model.notes import readable


def deal_rows(transfers: Any, name: Any) -> dict[str, dict]:
    """Money per row (by its shown note) and per seat (by `name(seat)`, in seat order) or game account,
    rows in the order they paid."""
    rows: dict[str, dict] = {}
    for src, dst, amount, note in transfers or []:
        for who, sign in ((src, -1), (dst, 1)):
            if type(who) is int:
                key: Any = who
            elif isinstance(who, tuple) and len(who) == 1:
                key = str(who[0])
            else:
                continue                    # a score entry in a seat's other account: `accounts` checks it
            row = rows.setdefault(readable(note or "payment"), {})
            row[key] = row.get(key, 0) + sign * amount
    return {note: plain({name(k) if type(k) is int else k: v for k, v in sorted(row.items(), key=_seats_first)})
            for note, row in rows.items() if any(row.values())}


def _seats_first(item: tuple) -> tuple:
    key = item[0]
    return (0, key, "") if type(key) is int else (1, 0, key)


def unexpected_rows(expect: Any, actual: dict) -> list[str]:
    """The rows the deal paid that `expect: rows` leaves out (the other differences: harness/scenario_steps)."""
    stated = expect.get("rows") if isinstance(expect, dict) else None
    if not isinstance(stated, dict):
        return []
    names = {str(k) for k in stated}
    return [f"rows: the deal also paid '{k}' {v}, which 'rows' does not state"
            for k, v in (actual.get("rows") or {}).items() if k not in names]
