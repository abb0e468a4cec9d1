"""Compiled generated modules kept on disk, by the hash of their source.

The key is the SHA-256 of the generator's version, the Python bytecode tag and the generated source,
which is itself a function of the checked rule file and its table options: a changed rule file gives
a new source, a new key and a fresh compile. The folder is `$XDG_CACHE_HOME/stichwort/codegen` (or
`~/.cache/…`); a folder that is missing, read-only or holds a damaged entry only costs a compile."""
from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from pathlib import Path
from types import CodeType

GENERATOR_VERSION = "1"


def folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "stichwort" / "codegen"


def key(source: str) -> str:
    h = hashlib.sha256()
    for part in (GENERATOR_VERSION, sys.implementation.cache_tag or "", source):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def compiled(source: str, filename: str) -> CodeType:
    """The code object of `source`, from the cache when it holds it, else compiled (and stored if it can be)."""
    path = folder() / (key(source) + ".code")
    try:
        code = marshal.loads(path.read_bytes())
        if isinstance(code, CodeType) and code.co_filename == filename:
            return code
    except (OSError, ValueError, EOFError, TypeError):
        pass
    code = compile(source, filename, "exec")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(marshal.dumps(code))
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass  # a read-only or missing cache: the compiled code is used all the same
    return code
