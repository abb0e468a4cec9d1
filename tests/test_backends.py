"""The backend a game runs on is chosen once, when it is compiled (engine/backend.py, interpreter/backends.py):
the compiled rules hold the functions it gave, the engine never imports the code generator, and the
reference interpreter runs without it."""
from __future__ import annotations

import subprocess
import sys

import pytest

from interpreter import load
from interpreter.backends import compile_rules
from interpreter.codegen import GeneratedFunctions
from interpreter.engine.backend import REFERENCE_FUNCTIONS


def test_a_game_holds_the_functions_of_the_backend_it_was_compiled_with():
    ref, gen = compile_rules(load("wien"), engine="interpreter"), compile_rules(load("wien"), engine="generated")
    assert ref.functions is REFERENCE_FUNCTIONS and ref.generated is None
    assert isinstance(gen.functions, GeneratedFunctions) and gen.generated is gen.functions.module
    names = set(gen.generated.namespace)
    con = next(c for c in gen.contracts.values() if c.goal is not None and c.goal.__name__ in names)
    assert con.goal is gen.generated.function(con.goal.__name__)        # the module's own function
    assert ref.contracts[con.name].goal.__name__ not in names
    assert gen.settle_rows.evaluate is gen.generated.rows["settle"] and ref.settle_rows.evaluate is None


def test_a_contract_with_a_trump_chosen_in_play_gets_the_generated_functions():
    gen = compile_rules(load("wien"), engine="generated")
    base = next(c for c in gen.contracts.values() if c.trump < 0 and c.gen_playable is not None)
    chosen = gen.with_trump(base, 0)
    assert chosen is not base and chosen.trump == 0 and chosen.gen_playable is not None
    assert chosen.gen_playable is not base.gen_playable
    assert chosen.goal is base.goal         # the same tree: the module's function for it


def _run(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PATH": "", "PYTHONHASHSEED": "0", **env})


def test_the_engine_runs_the_generated_code_by_default_and_the_reference_alone_on_request():
    """The engine names no backend above it: the top package declares the generated one's module
    (interpreter/registry.py), loaded when a game is first compiled; STICHWORT_ENGINE=interpreter never
    loads the generator."""
    code = ("import sys\nfrom interpreter import load\nfrom interpreter.engine import new_game\n"
            "assert 'interpreter.codegen' not in sys.modules\n"
            "st = new_game(load('wien'), seed=3)\n"
            "while not st.is_over():\n    st.apply(st.legal_actions()[0])\n"
            "print(st.R.functions.__class__.__name__, 'interpreter.codegen' in sys.modules, st.result()['payments'])")
    generated = _run(code)
    assert generated.returncode == 0, generated.stderr
    assert generated.stdout.split()[:2] == ["GeneratedFunctions", "True"]
    reference = _run(code, STICHWORT_ENGINE="interpreter")
    assert reference.returncode == 0, reference.stderr
    assert reference.stdout.split()[:2] == ["ReferenceFunctions", "False"]
    assert reference.stdout.split()[2:] == generated.stdout.split()[2:]     # the same deal, the same payments


@pytest.mark.parametrize("name", ["bogus", ""])
def test_an_unknown_backend_is_refused(name, monkeypatch):
    from interpreter.backends import engine_mode

    monkeypatch.setenv("STICHWORT_ENGINE", name)
    if name:
        with pytest.raises(ValueError, match="STICHWORT_ENGINE must be one of generated, interpreter"):
            engine_mode()
    else:
        assert engine_mode() == "generated"     # unset (empty): the generated one
