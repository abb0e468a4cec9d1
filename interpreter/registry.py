"""What the top package (interpreter/__init__.py) declares for the stages below it to load by name when
asked, without importing what sits above them: the backends a compiled game can run on, each the module
that registers it (engine/backend.py loads it the first time a game asks for it)."""
from __future__ import annotations

BACKEND_MODULES: dict[str, str] = {}
