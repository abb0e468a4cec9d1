"""Compiled generated modules kept on disk, by the hash of their source.

The key is the SHA-256 of the generator's version, the Python bytecode tag and the generated source,
which is itself a function of the checked rule file and its table options: a changed rule file gives
a new source, a new key and a fresh compile. The folder is `$XDG_CACHE_HOME/stichwort/codegen` (or
`~/.cache/…`); a folder that is missing, read-only or holds a damaged entry only costs a compile.

The folder is bounded. An entry read is marked as used (its time set to now). When the folder holds
more than `LIMIT` bytes, the least recently used entries are removed, down to three quarters of it;
a process looks after its first new entry, then after every `PRUNE_EVERY`th. So an author who edits
a rule file all day, each edit a new entry, never fills the disk, and the games in use stay cached.
`STICHWORT_NO_CACHE=1` turns the cache off, as it does the parser's."""
from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
import time
from pathlib import Path
from types import CodeType

GENERATOR_VERSION = "1"
LIMIT = 64 * 1024 * 1024        # bytes of compiled modules kept; a built-in game takes 20–300 KB
PRUNE_EVERY = 64                # new entries between two prunings in one process
_STORED = 0
STALE = 3600                    # seconds after which a temporary file left by a broken write is removed


def folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "stichwort" / "codegen"


def enabled() -> bool:
    return not os.environ.get("STICHWORT_NO_CACHE")


def key(source: str) -> str:
    h = hashlib.sha256()
    for part in (GENERATOR_VERSION, sys.implementation.cache_tag or "", source):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def compiled(source: str, filename: str) -> CodeType:
    """The code object of `source`, from the cache when it holds it, else compiled (and stored if it can be)."""
    if not enabled():
        return compile(source, filename, "exec")
    path = folder() / (key(source) + ".code")
    try:
        code = marshal.loads(path.read_bytes())
        if isinstance(code, CodeType) and code.co_filename == filename:
            _used(path)
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
        return code  # a read-only or missing cache: the compiled code is used all the same
    global _STORED
    if _STORED % PRUNE_EVERY == 0:      # the folder is read once in a process's first store, then every so many
        prune(path.parent)
    _STORED += 1
    return code


def _used(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass    # a read-only cache is still read


def prune(where: Path, limit: int | None = None) -> list[Path]:
    """Remove the least recently used entries while `where` holds more than `limit` (`LIMIT`) bytes, down to three
    quarters of it, and temporary files older than `STALE` seconds; returns what was removed. Another
    process removing the same files at the same time is not an error."""
    if limit is None:
        limit = LIMIT
    entries: list[tuple[float, int, Path]] = []
    removed: list[Path] = []
    now = time.time()
    try:
        with os.scandir(where) as found:
            for e in found:
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                if e.name.endswith(".code"):
                    entries.append((st.st_mtime, st.st_size, Path(e.path)))
                elif e.name.endswith(".tmp") and now - st.st_mtime > STALE:
                    removed.append(Path(e.path))
    except OSError:
        return []
    total = sum(size for _, size, _ in entries)
    if total > limit:
        entries.sort()
        for _, size, path in entries:
            if total <= limit * 3 // 4:
                break
            removed.append(path)
            total -= size
    gone = []
    for path in removed:
        try:
            path.unlink()
            gone.append(path)
        except OSError:
            pass
    return gone
