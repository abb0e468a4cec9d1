"""Imports run one way: each stage of `interpreter/` imports only from the stages below it.

    base (diagnostics, resources, files) → language → model → checks → pipeline → engine → bots
    → harness → adapters → present → web → lsp → cli

Every import counts, also those inside functions (they are how a command loads its stage late)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"

LAYERS = (
    ("diagnostics", "resources", "files"),
    ("language",),
    ("model",),
    ("checks",),
    ("pipeline",),
    ("engine",),
    ("bots",),
    ("harness",),
    ("adapters",),
    ("present",),
    ("web",),
    ("lsp",),
    ("cli", "__init__", "__main__"),
)
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}


def _stage(module: str) -> str:
    """'interpreter.engine.phases.play' → 'engine'; 'interpreter' → '__init__'."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "interpreter":
                out += [(node.lineno, f"interpreter.{a.name}") for a in node.names]
            elif node.module.startswith("interpreter."):
                out.append((node.lineno, node.module))
        elif isinstance(node, ast.ImportFrom) and node.level:
            out.append((node.lineno, "<relative>"))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("interpreter.")]
    return out


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
