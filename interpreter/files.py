"""Writing files safely: the text goes to a temporary file beside the target, which then replaces it,
so a crash or a full disk never leaves a half-written file. Failures are diagnostics, not tracebacks."""
from __future__ import annotations

import os
from pathlib import Path

from interpreter.diagnostics import Diagnostic, DiagnosticError


def write_atomic(path, text: str, what: str = "file") -> None:
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    except OSError as err:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise DiagnosticError([Diagnostic("E100", f"cannot write the {what}: {err.strerror or err}", str(path))]) from None
