"""The activation in which a rule expression is evaluated: the game state it reads, and the names bound
for this one evaluation (`me`, `this`, `s`, comprehension and `let` parameters, a memo of lets), kept
apart from the state, so that evaluating an expression never writes onto the game.

    f = rules.compiler.text("tricks(declarer) >= 6")
    f(Ctx(state))                  # or state.ctx(me=seat)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.engine.state import State


class Ctx:
    __slots__ = ("st", "me", "this", "vars", "cache")

    def __init__(self, st: State, me: int | None = None, this: Any = None, cache: dict | None = None):
        self.st = st
        self.me = me
        self.this = this
        self.vars: dict[str, Any] = {}
        self.cache = cache          # a memo of seat-independent values while settlement rows are evaluated

    def with_seat(self, s: int | None) -> Ctx:
        """This activation with `s` bound (payment rows `each`, account `initial`, sheet columns)."""
        self.vars["s"] = s
        return self
