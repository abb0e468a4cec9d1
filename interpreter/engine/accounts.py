"""The accounts of a deal: their zero values, and copies that share nothing mutable."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.model.game import Account


def init_accounts(specs: Mapping[str, Account], n: int, people: int) -> dict:
    """The accounts at zero for `n` seats and `people` players (`per = player`), as the rule file declares them."""
    acc: dict[str, Any] = {"money": [0] * n}
    for name, spec in specs.items():
        per = spec.per
        if per == "game":
            acc[name] = 0
        elif per == "seat":
            acc[name] = [0] * n
        elif per == "player":
            acc[name] = [0] * people
        else:
            acc[name] = {}
    acc.setdefault("pot", 0)
    return acc


def copy_accounts(acc: dict) -> dict:
    out = acc.copy()
    for k, v in acc.items():
        t = type(v)
        if t is list:
            out[k] = v.copy()       # (quicker than a slice, which makes a slice object)
        elif t is dict:
            out[k] = v.copy()
        elif t is not int and isinstance(v, (list, dict)):    # a subclass: as a plain list or dict
            out[k] = list(v) if isinstance(v, list) else dict(v)
    return out
