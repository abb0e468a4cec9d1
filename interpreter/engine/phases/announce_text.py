"""The declaration round in words: the one spelling of each of its actions, and the round as the table
saw it (the figures declared and the calls of each chain)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.engine import actions as A
from interpreter.engine.figures import GAME
from interpreter.engine.phases.announce_plans import BY_OWNER, DONE, FIGURE_CODE, OPEN, PASS, unpack

if TYPE_CHECKING:
    from interpreter.engine.state import State


def item_name(st: State, code: int) -> str:
    if code >= FIGURE_CODE:
        return st.R.announce.figures[code - FIGURE_CODE].name
    for c, _owner, name, _ref, _plan, _opening in st.announce.games:
        if c == code:
            return name
    return st.con.name if st.con is not None else "game"


def text(st: State, action: int) -> str:
    """The one spelling of a declaration-round action."""
    R = st.R
    S = R.announce
    W = R.words
    kind, arg = A.kind_of(action), A.arg_of(action)
    if kind == A.ITEM_KONTRA:
        code, level, other = unpack(arg)
        word = S.levels[level - 1] if level <= len(S.levels) else f"{S.levels[-1]} {level}"
        out = f"{word} {item_name(st, code)}"
        if other >= 0 and arg & BY_OWNER:
            out += f" @{other}"
        return out
    if arg == OPEN:
        return S.opener
    if arg == DONE:
        return W["done"]
    if arg == PASS:
        return W["pass"]
    return f"{W['declare']} {S.figures[arg - 1].name}"


def summary(st: State) -> list[str]:
    """The declaration round as the table saw it: the figures declared and the calls of each chain."""
    an = st.announce
    S = st.R.announce
    out = []
    if an.declared:
        out.append("declared: " + ", ".join(f"{name} (seat {seat})" for name, seat in an.declared.items()))
    calls = []
    for (item, owner, other), said in an.chains.items():
        if not said:
            continue
        word = S.levels[len(said) - 1] if len(said) <= len(S.levels) else f"{S.levels[-1]} {len(said)}"
        name = st.con.name if item == GAME and st.con is not None else item
        pair = f" (seats {owner} and {other})" if owner >= 0 else ""
        calls.append(f"{name} {word}{pair}")
    if calls:
        out.append("kontras: " + ", ".join(calls))
    return out
