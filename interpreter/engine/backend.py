"""How a compiled game runs its rule expressions: a backend, chosen once per compiled game.

The engine compiles every expression of a rule file into a closure of the reference interpreter
(engine/compile.py). A backend may hand out other functions for them, computing the same values: the
one registered as "generated" (above the engine) writes them as Python source. The
backend is chosen when a game is compiled (rules.compile_rules: by name, else $STICHWORT_ENGINE, else the
generated one where it is registered, else the reference), and the compiled game holds what it gave
from then on: the engine calls the functions in its settings and never asks which backend made them.

A backend registers itself with `register`; what it must give while a game is assembled is `Functions`.
The top package declares the module of each backend above the engine (interpreter/registry.py): the first
game that asks for one imports it, so the engine runs the generated code by default without naming it.
A function it gives for an expression may carry `on_state`, the same function of the state alone (for
one that reads nothing of its activation: the phases call it without making one), and `of_side`, the
same given the side judged (engine/figures.py).
"""
from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any, Protocol

from interpreter import registry

ENV = "STICHWORT_ENGINE"
REFERENCE = "interpreter"
PREFERRED = "generated"     # the default where a backend of that name is registered


class Functions(Protocol):
    """What a backend gives while a compiled game is assembled (rules.assemble)."""

    module: Any             # what it made for the game (shown by `stichwort compile`), or None

    def expression(self, kind: str, node: Any, reference: Callable) -> Callable:
        """The function to run for a compiled expression (`kind` "expr" or "party", its tree), given the
        reference interpreter's closure of it."""
        ...

    def playable(self, rules: Any, con: Any, chosen_trump: bool) -> Callable | None:
        """A function giving the cards a seat may play under the contract (its obligations), or None: the
        engine works them out from the obligations. `chosen_trump`: the contract with a trump suit chosen
        in a deal (rules.Rules.with_trump), made after the game was assembled."""
        ...

    def ends_never(self, contract: str) -> bool:
        """True where the contract's early end can never be true (the engine then never asks it)."""
        ...

    def rows(self, part: str) -> Callable | None:
        """A function giving the transfers of the payment rows of `part` ("settle", or a part of the
        session), or None: the engine judges row by row."""
        ...


class ReferenceFunctions:
    """The reference interpreter's: every expression runs as compiled."""

    module = None

    def expression(self, kind: str, node: Any, reference: Callable) -> Callable:
        return reference

    def playable(self, rules: Any, con: Any, chosen_trump: bool) -> Callable | None:
        return None

    def ends_never(self, contract: str) -> bool:
        return False

    def rows(self, part: str) -> Callable | None:
        return None


REFERENCE_FUNCTIONS = ReferenceFunctions()


class Backend(Protocol):
    """A way to run a game: `compile(rs, options_items)` gives its compiled rules (rules.Rules)."""

    name: str

    def compile(self, rs: Any, options_items: tuple) -> Any:
        ...


_BACKENDS: dict[str, Backend] = {}


def register(backend: Backend) -> None:
    """Make a backend available by its name."""
    _BACKENDS[backend.name] = backend


def names() -> tuple[str, ...]:
    """The names of the backends registered or declared (loaded when asked)."""
    return tuple(dict.fromkeys([*_BACKENDS, *registry.BACKEND_MODULES]))


def _load(name: str) -> bool:
    """Import the module the top package declares for the backend `name` (it registers it); whether the
    backend is registered now."""
    module = registry.BACKEND_MODULES.get(name)
    if name not in _BACKENDS and module is not None:
        importlib.import_module(module)
    return name in _BACKENDS


def engine_mode(requested: str | None = None) -> str:
    """The backend's name: as requested, else $STICHWORT_ENGINE, else the preferred one where it is
    registered or declared, else the reference."""
    value = requested or os.environ.get(ENV) or (PREFERRED if PREFERRED in _BACKENDS or PREFERRED in
                                                 registry.BACKEND_MODULES else REFERENCE)  # (in names())
    if value in _BACKENDS:          # (every new deal asks: the common case without a call)
        return value
    if value not in _BACKENDS and not _load(value):
        raise ValueError(f"{ENV} must be one of {', '.join(sorted(names()))}, not {value!r}")
    return value


def chosen(requested: str | None = None) -> Backend:
    """The backend named by engine_mode()."""
    return _BACKENDS[engine_mode(requested)]
