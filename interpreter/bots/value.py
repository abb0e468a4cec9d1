"""What a finished deal is worth to each seat, for any rule file.

Games that pay as they go (money moves in the deal) and games that keep a score sheet settled only
at the end of the session (declarer columns, juhas…) are measured alike: the session's own final
reckoning is applied to a copy of the state, and each seat's `session.result` is read; a game played in
sits (`session.sit`) closes the running sit first, so that the deal's points reach the result. The value of a
deal is that reading at the end minus the same reading at its start.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from interpreter.engine import reseating
from interpreter.engine.phases import settle
from interpreter.engine.session import Session


def reckoning(state: Any) -> list[float]:
    """Each seat's session result if the session were closed in `state` (on a copy)."""
    st = state.clone()
    sit = reseating.settings(st.R)
    if sit.present:                      # a game played in sits: the running sit is closed first
        settle.apply_rows(st, sit.reckoning, record=False)
    sess = Session(state.R.rs, state.R.options)
    sess.last = st
    try:
        final = sess.close()
    except Exception:  # a reckoning that cannot be evaluated here: fall back to the money account
        money = state.accounts.get("money", [0] * state.n)
        return [float(Fraction(x)) if isinstance(x, Fraction) else float(x) for x in money]
    return [float(final[s]) for s in range(state.n)]


def deal_values(start: Any, end: Any) -> list[float]:
    """What the deal from `start` (a fresh state) to `end` (finished) was worth to each seat."""
    a, b = reckoning(start), reckoning(end)
    return [y - x for x, y in zip(a, b)]
