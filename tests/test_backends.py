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


def test_the_engine_alone_runs_the_reference_and_never_loads_the_generator():
    code = ("import sys\nfrom interpreter import load\nfrom interpreter.engine import new_game\n"
            "st = new_game(load('wien'), seed=3)\n"
            "while not st.is_over():\n    st.apply(st.legal_actions()[0])\n"
            "print(st.R.functions.__class__.__name__, 'interpreter.codegen' in sys.modules, st.result()['payments'])")
    alone = _run(code)
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.split()[:2] == ["ReferenceFunctions", "False"]
    loaded = _run("import interpreter.backends\n" + code)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split()[:2] == ["GeneratedFunctions", "True"]
    assert loaded.stdout.split()[2:] == alone.stdout.split()[2:]       # the same deal, the same payments


def test_asking_for_the_generated_backend_where_it_is_not_loaded_says_so():
    got = _run("from interpreter import load\nfrom interpreter.engine import new_game\nnew_game(load('wien'), seed=1)",
               STICHWORT_ENGINE="generated")
    assert got.returncode != 0 and "not loaded: import interpreter.backends" in got.stderr


@pytest.mark.parametrize("name", ["bogus", ""])
def test_an_unknown_backend_is_refused(name, monkeypatch):
    from interpreter.backends import engine_mode

    monkeypatch.setenv("STICHWORT_ENGINE", name)
    if name:
        with pytest.raises(ValueError, match="STICHWORT_ENGINE must be one of generated, interpreter"):
            engine_mode()
    else:
        assert engine_mode() == "generated"     # unset (empty): the generated one, registered here
