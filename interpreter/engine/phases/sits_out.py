"""Seats that sit out the play of a deal: `play { sits_out = EXPR }`, judged when the play starts.

    play { sits_out = set(chose(alone) == alone and t == partner_of(declarer) for t in active) }

The seats the expression gives (a set of seats; none or an empty set: nobody) take no part in the play of
this deal: they keep their cards, are never asked to play, and each trick has a card fewer (the seats still
playing are `playing`). A seat that sits out is not a defender who stayed home (`defence`): it may be the
declarer's own partner, and its side's tricks are those its partner takes. When every seat but one would sit
out, nobody does.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.expression import Expression

__all__ = ["settings", "start"]


def settings(expr: Expression | None, comp: Compiler) -> Any:
    """The compiled expression, or None when the file has no `play.sits_out`."""
    return comp.text(expr) if expr is not None else None


def start(st: State, seats_out: Any) -> None:
    """The play starts: the seats playing lose those the expression gives now."""
    out = seats_out(Ctx(st))
    if out is None or isinstance(out, (bool, int)):
        out = () if out is None or isinstance(out, bool) else (out,)
    playing = tuple(s for s in st.playing if s not in out)
    if len(playing) >= 2:
        st.playing = playing
