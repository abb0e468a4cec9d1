"""Running rule files at scale and against expectations: simulation, replay and scenario files."""
from __future__ import annotations

import interpreter.backends  # noqa: F401  (registers the generated backend, the default: interpreter/backends.py)
