"""What every phase component offers the state machine (engine/state.py).

A phase component owns the rules of one phase: its typed settings are compiled from the rule file
once (`settings`), its own small state lives on the game state (a dataclass with `copy()`), and
`start`, `legal` and `apply` drive it. `start` returns False when the phase has nothing to ask in
this deal (the machine then moves on to the next phase of the procedure)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interpreter.engine.state import State

ALWAYS = lambda c: True
NEVER = lambda c: False


class Phase:
    name = ""

    def start(self, st: State) -> bool:
        return False

    def legal(self, st: State) -> list[int]:
        return []

    def apply(self, st: State, action: int) -> None:
        raise NotImplementedError(self.name)
