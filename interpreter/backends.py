"""The backends a compiled game can run on, registered and chosen once per game (engine/backend.py):

    "interpreter"   the reference interpreter: the closures engine/compile.py makes
    "generated"     Python source generated from the rules (interpreter/codegen), the default

    from interpreter.backends import compile_rules
    rules = compile_rules(load(NAME), engine="interpreter")     # else $STICHWORT_ENGINE, else generated

Importing this module registers the generated backend; the engine itself knows only the reference and
runs whatever a registered backend gave a game. The top package declares this module for the generated
backend (interpreter/__init__.py, interpreter/registry.py): the engine imports it when a game first asks
for that backend, so every game runs its generated code unless $STICHWORT_ENGINE says otherwise.
"""
from __future__ import annotations

from interpreter.codegen import Generated
from interpreter.engine import backend
from interpreter.engine.backend import ENV, engine_mode
from interpreter.engine.rules import compile_rules, compile_uncached

backend.register(Generated())

ENGINES = backend.names()           # ("interpreter", "generated")

__all__ = ["ENV", "ENGINES", "compile_rules", "compile_uncached", "engine_mode"]
