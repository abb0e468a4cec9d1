"""Imports run one way: each stage of `interpreter/` imports only from the stages below it.

    base (diagnostics, resources, files) → language → model → checks → pipeline → engine → codegen
    → backends → bots → harness → adapters → present → web → lsp → cli

The code generator (codegen) is a stage above the engine: the engine never imports it, and runs what the
backend chosen for a game gave it (engine/backend.py); `backends` registers the generated one.

Every import counts, also those inside functions (they are how a command loads its stage late).

The engine has layers of its own, stated in ENGINE_LAYERS:

    cards and seats → state → built-ins → phases → rules

A module imports only from its own layer and those below it, and the engine's modules import each other
in no circle. Here too an import inside a function counts. An import under `if TYPE_CHECKING:` names a
type for the checker and never runs: it points down too, save for the one knot of the engine's types left
(KNOT): the State and its reading half name the types it holds (the compiled Rules, the contract and call
values, the phase states), and the phases the contract and call values, all defined above them."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"

LAYERS = (
    ("diagnostics", "resources", "files", "registry"),
    ("language",),
    ("model",),
    ("checks",),
    ("pipeline",),
    ("engine",),
    ("codegen",),
    ("backends",),
    ("bots",),
    ("harness",),
    ("adapters",),
    ("present",),
    ("web",),
    ("lsp",),
    ("cli", "__init__", "__main__"),
)
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}

# The engine's layers, lowest first: its modules by their path under interpreter/engine (a folder stands for
# every module in it).
ENGINE_LAYERS = (
    ("cards and seats", ("errors", "actions", "cards", "seating", "backend", "ranking", "memos")),
    ("state", ("context", "sides", "accounts", "deals", "readings", "views", "parts", "state")),
    ("built-ins", ("card_values", "builtins", "figures", "compile", "given")),
    ("phases", ("phases",)),
    ("rules", ("prepare", "rules", "reseating", "session", "text", "__init__")),
)


def _stage(module: str) -> str:
    """'interpreter.engine.phases.play' → 'engine'; 'interpreter' → '__init__'."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under `if TYPE_CHECKING:`."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                out |= {id(x) for x in ast.walk(inner)}
    return out


def _imports(path: Path, runtime_only: bool = False) -> list[tuple[int, str]]:
    """(line, module) of every import of the package in the file; `runtime_only`: not those under
    `if TYPE_CHECKING:`. `from interpreter.engine import phases` gives the module it names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_only(tree) if runtime_only else set()
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "interpreter" or (runtime_only and node.module.startswith("interpreter.")):
                for a in node.names:
                    named = f"{node.module}.{a.name}"
                    out.append((node.lineno, named if _is_module(named) else node.module))
            elif node.module.startswith("interpreter."):
                out.append((node.lineno, node.module))
        elif isinstance(node, ast.ImportFrom) and node.level:
            out.append((node.lineno, "<relative>"))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("interpreter.")]
    return out


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent / dotted.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


FILES = sorted(PACKAGE.rglob("*.py"))


def test_every_stage_has_a_layer():
    stages = {(p.relative_to(PACKAGE).parts[0]).removesuffix(".py") for p in FILES}
    assert stages <= set(RANK), f"stages without a layer: {sorted(stages - set(RANK))}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    own = (path.relative_to(PACKAGE).parts[0]).removesuffix(".py")
    upward = []
    for line, module in _imports(path):
        if module == "<relative>":
            upward.append(f"line {line}: a relative import (write it absolute)")
            continue
        target = _stage(module)
        if target in RANK and RANK[target] > RANK[own]:
            upward.append(f"line {line}: {module} ({target} is above {own})")
    assert not upward, "\n".join(upward)


# ---- the engine's own layers ----------------------------------------------------------------------------

ENGINE = PACKAGE / "engine"
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


def _engine_name(path: Path) -> str:
    """interpreter/engine/phases/play.py → 'phases.play'; interpreter/engine/phases/__init__.py → 'phases'."""
    parts = list(path.relative_to(ENGINE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _engine_layer(name: str) -> int | None:
    """The rank of the engine layer holding the module (its own name or its folder's), None if unplaced."""
    for rank, (_title, members) in enumerate(ENGINE_LAYERS):
        if name in members or name.split(".")[0] in members and name.split(".")[0] != "__init__":
            return rank
    return None


def _engine_imports(path: Path) -> list[tuple[int, str]]:
    """The engine modules the file imports when it runs (also inside functions), as names under the engine."""
    out = []
    for line, module in _imports(path, runtime_only=True):
        if module == "interpreter.engine":
            out.append((line, "__init__"))
        elif module.startswith("interpreter.engine."):
            out.append((line, module.removeprefix("interpreter.engine.")))
    return out


# The types a State holds (engine/state.py: `R`, `con`, the phase states, the component it runs), defined above
# the state layer; KNOT: the modules (or folder) that may import which of them from a higher layer under
# `if TYPE_CHECKING:`, and nothing else may.
HELD = frozenset({"Rules", "ContractRT", "CallRT", "Phase", "AuctionState", "AnnounceState", "PlayState",
                  "TalonState", "AfterPurchaseState", "DefenceState", "KontraState"})
KNOT = {"state": HELD, "readings": HELD, "phases": frozenset({"ContractRT", "CallRT"})}


def _engine_type_imports(path: Path) -> list[tuple[int, str, str]]:
    """(line, engine module, name) of each import of the engine the file makes under `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    only = _type_only(tree)
    out = []
    for node in ast.walk(tree):
        if id(node) in only and isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.startswith("interpreter.engine."):
            for a in node.names:
                named = f"{node.module}.{a.name}"
                module = named if _is_module(named) else node.module
                out.append((node.lineno, module.removeprefix("interpreter.engine."), a.name))
    return out


def test_every_engine_module_has_a_layer():
    names = {_engine_name(p) for p in ENGINE_FILES}
    unplaced = {n for n in names if _engine_layer(n) is None}
    assert not unplaced, f"engine modules without a layer in ENGINE_LAYERS: {sorted(unplaced)}"


def test_the_engine_never_imports_the_code_generator():
    """Not even inside a function or for the type checker: the generator is a stage above the engine."""
    found = [f"{p.relative_to(PACKAGE)}:{line}: {m}" for p in ENGINE_FILES for line, m in _imports(p)
             if m.startswith(("interpreter.codegen", "interpreter.backends"))]
    assert not found, "\n".join(found)


def test_the_engine_does_not_name_the_code_generator():
    """Issue 33's acceptance, `grep -rn codegen interpreter/engine` empty: the engine neither imports the
    generator nor says in a comment which of its modules does what (the generator's tests tie the two)."""
    found = [f"{p.relative_to(PACKAGE)}:{i}" for p in ENGINE_FILES
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "codegen" in line]
    assert not found, found


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_imports_point_down(path):
    own_name = _engine_name(path)
    own = _engine_layer(own_name)
    assert own is not None, f"{own_name} is in no layer of ENGINE_LAYERS"
    upward = []
    for line, module in _engine_imports(path):
        target = _engine_layer(module)
        if target is not None and target > own:
            upward.append(f"line {line}: {module} ({ENGINE_LAYERS[target][0]} is above {ENGINE_LAYERS[own][0]})")
    assert not upward, "\n".join(upward)


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_type_imports_point_down(path):
    """Under `if TYPE_CHECKING:` too, save for the knot (KNOT)."""
    own_name = _engine_name(path)
    own = _engine_layer(own_name)
    assert own is not None
    allowed = KNOT.get(own_name.split(".")[0], frozenset())
    upward = [f"line {line}: {name} from {module} ({ENGINE_LAYERS[target][0]} is above {ENGINE_LAYERS[own][0]})"
              for line, module, name in _engine_type_imports(path)
              if (target := _engine_layer(module)) is not None and target > own and name not in allowed]
    assert not upward, "\n".join(upward)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of the graph as a path (its first module again at its end), or None."""
    state: dict[str, int] = {}          # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_the_cycle_finder_finds_a_circle_and_passes_a_line():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circle_in_the_engine():
    """The engine's modules import each other in no circle, counting the imports inside functions."""
    graph: dict[str, set[str]] = {}
    for p in ENGINE_FILES:
        own = _engine_name(p)
        graph[own] = {m for _line, m in _engine_imports(p) if m != own}
    found = _cycle(graph)
    assert found is None, "an import circle: " + " → ".join(found or ())
