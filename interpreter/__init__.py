"""stichwort: rules-as-data for trick-taking card games with bidding.

    from interpreter import load
    rules = load(NAME)              # a built-in game name, or a path to a .stw/.yaml/.json file
"""
from __future__ import annotations

__version__ = "0.1.0"

from interpreter import registry
from interpreter.diagnostics import Diagnostic, DiagnosticError
from interpreter.model.ruleset import Ruleset
from interpreter.pipeline import check, load

# the generated backend, the default: loaded (with the code generator) when a game is first compiled
registry.BACKEND_MODULES["generated"] = "interpreter.backends"

__all__ = ["Diagnostic", "DiagnosticError", "Ruleset", "check", "load", "__version__"]
