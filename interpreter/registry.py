"""What the top package (interpreter/__init__.py) declares for the stages below it to load by name when
asked, without importing what sits above them: the backends a compiled game can run on, each the module
that registers it (engine/backend.py loads it the first time a game asks for it).

And what an implementation the generated code may stand in for declares about itself (`Reads`), as data
beside it: a built-in value or function (engine/builtins.py), a reading or property of the state
(engine/readings.py, state.py), a figure question (engine/figures.py), an operator of the reference
interpreter (engine/compile.py). The generator (interpreter/codegen/) writes a template in its place only
where the declaration names the names the template was written against; tests/test_codegen_templates.py
holds every declaration against its implementation (what its code reads, what it gives on sample states).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

BACKEND_MODULES: dict[str, str] = {}

F = TypeVar("F", bound=Callable[..., Any])


class Reads(NamedTuple):
    """What an implementation reads, in the order it reads it: each a dotted path from its first parameter
    (the activation `c` of a built-in: "st.auction.holder"; the state; `self`) or from a name of its module
    or of Python ("deals.tricks_total", "isinstance"): the state's fields and methods, the activation's
    parts (`st`, `me`, `this`, `vars`, `cache`), the other built-ins and helpers it calls. `mirrors`: the
    generator's templates that compute the same (codegen/templates.py, by name) besides the template of
    the built-in's own name (templates.VALUE_SOURCE, FUNCTION_SOURCE)."""
    paths: tuple[str, ...]
    mirrors: tuple[str, ...] = ()

    @property
    def names(self) -> frozenset[str]:
        """Every name the paths read (the parts of each)."""
        return frozenset(part for path in self.paths for part in path.split("."))

    @property
    def first(self) -> tuple[str, ...]:
        """The parts of the path read first."""
        return tuple(self.paths[0].split(".")) if self.paths else ()


_ATTRIBUTE = "__stichwort_reads__"


def declare(fn: F, *paths: str, mirrors: tuple[str, ...] = ()) -> F:
    """`fn`, declared to read `paths` (Reads); for a property, declare its getter."""
    setattr(fn, _ATTRIBUTE, Reads(paths, mirrors))
    return fn


def reads(*paths: str, mirrors: tuple[str, ...] = ()) -> Callable[[F], F]:
    """declare() as a decorator."""
    def mark(fn: F) -> F:
        return declare(fn, *paths, mirrors=mirrors)
    return mark


def declared(fn: Any) -> Reads | None:
    """What `fn` declares it reads; None for what declares nothing (the generator then calls it)."""
    return getattr(fn, _ATTRIBUTE, None)
