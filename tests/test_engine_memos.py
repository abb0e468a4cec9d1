"""What the engine works out while playing is kept per compiled game, in named fields (engine/memos.py):
not in a rule set's or a state's __dict__, and not in module-level tables; and the engine reads no raw rule
document (`.doc`)."""
from __future__ import annotations

import ast
import random
from pathlib import Path

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.memos import Memos
from interpreter.engine.rules import compile_uncached
from interpreter.engine.state import State

ENGINE = Path(__file__).resolve().parent.parent / "interpreter" / "engine"
FILES = sorted(ENGINE.rglob("*.py"))
# the backends registered by name (engine/backend.py): a registry, filled as the backends load, not a memo
REGISTRY = {("backend.py", "_BACKENDS")}


def _play(R, seed: int) -> None:
    rng = random.Random(seed)
    st = State(R, 0, *deal_cards(R, rng, 0))
    while not st.is_over():
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])


def test_each_compiled_game_keeps_its_own_memos():
    # compiled afresh: compile_rules keeps a game compiled, so an earlier test in the worker may have played it
    wien = compile_uncached(load("wien"), ())
    tarok = compile_uncached(load("tarok"), ())
    assert isinstance(wien.memos, Memos) and wien.memos is not tarok.memos
    _play(wien, 1)
    assert wien.memos.deal_plans and wien.memos.components is not None
    assert not tarok.memos.deal_plans and tarok.memos.components is None   # playing wien filled none of tarok's
    _play(tarok, 1)
    assert tarok.memos.components is not None and tarok.memos.components != wien.memos.components


def test_no_dunder_dict_outside_the_state():
    """Only the state's own copy-on-write (engine/state.py) handles a __dict__; nothing keeps a memo in one."""
    found = [f"{p.relative_to(ENGINE)}:{n.lineno}" for p in FILES if p.name != "state.py"
             for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(n, ast.Attribute) and n.attr == "__dict__"]
    assert not found, found


def _empty_container(node: ast.expr | None) -> bool:
    if isinstance(node, (ast.Dict, ast.List, ast.Set)):
        return not getattr(node, "keys", None) and not getattr(node, "elts", None)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {"dict", "list", "set"} \
        and not node.args and not node.keywords


def test_no_module_level_tables_filled_while_playing():
    """A module-level dict, list or set that starts empty is filled while playing: a memo, which belongs in
    the compiled game's Memos (or a functools.cache of a pure function)."""
    found = []
    for p in FILES:
        for node in ast.parse(p.read_text(encoding="utf-8")).body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            for t in targets:
                if isinstance(t, ast.Name) and _empty_container(value) and (p.name, t.id) not in REGISTRY:
                    found.append(f"{p.relative_to(ENGINE)}:{node.lineno}: {t.id}")
    assert not found, found


def test_the_detector_sees_an_empty_table():
    assert _empty_container(ast.parse("x = {}").body[0].value)      # type: ignore[attr-defined]
    assert _empty_container(ast.parse("x = list()").body[0].value)  # type: ignore[attr-defined]
    assert not _empty_container(ast.parse("x = {'a': 1}").body[0].value)    # type: ignore[attr-defined]


def test_the_engine_reads_no_rule_document():
    """The engine reads the typed model (model/game.py), never the checked document (`.doc`)."""
    found = [f"{p.relative_to(ENGINE)}:{n.lineno}" for p in FILES
             for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(n, ast.Attribute) and n.attr == "doc"]
    assert not found, found
