"""What every phase component offers the state machine (engine/state.py).

A phase component owns the rules of one phase: its typed settings are compiled from the rule file
once (`settings`), its own small state lives on the game state (a dataclass with `copy()`), and
`start`, `legal` and `apply` drive it. `start` returns False when the phase has nothing to ask in
this deal (the machine then moves on to the next phase of the procedure)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.engine.state import State

ALWAYS = lambda c: True
NEVER = lambda c: False


def own_part(st: State, name: str, cls: type) -> Any:
    """The phase's state `name` to write, made here as the state's own when the deal has none yet (State._Part):
    a bare `cls`, its fields read from the class's defaults until the caller sets them (a field without a
    plain default is the caller's to set)."""
    return st.own_part(name, cls)


class Phase:
    name = ""

    def start(self, st: State) -> bool:
        return False

    def legal(self, st: State) -> list[int]:
        return []

    def apply(self, st: State, action: int) -> None:
        raise NotImplementedError(self.name)
