"""Files shipped with the package: the grammar, the JSON Schema and the built-in games.

Installed, they live in the wheel as `interpreter.grammar` and `interpreter.games`; in a source
checkout they are the folders `grammar/` and `games/` beside `interpreter/`.
"""
from __future__ import annotations

import functools
import importlib.resources
import json
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def _folder(package: str, fallback: str):
    try:
        root = importlib.resources.files(package)
        if root.is_dir():
            return root
    except (ModuleNotFoundError, TypeError):
        pass
    return _SOURCE_ROOT / fallback


def grammar_dir():
    return _folder("interpreter.grammar", "grammar")


def games_dir() -> Path:
    folder = _folder("interpreter.games", "games")
    return Path(str(folder))


@functools.cache
def grammar_text() -> str:
    return (grammar_dir() / "stichwort.lark").read_text(encoding="utf-8")


@functools.cache
def schema() -> dict:
    return json.loads((grammar_dir() / "stichwort.schema.json").read_text(encoding="utf-8"))


def builtin_games() -> dict[str, Path]:
    """Every rule file under games/, by name (the file stem)."""
    found: dict[str, Path] = {}
    for path in sorted(games_dir().rglob("*.stw")):
        found.setdefault(path.stem, path)
    return found
