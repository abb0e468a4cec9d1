"""Files at the boundary: reading untrusted input with a size cap, and writing safely.

Reading: a file (or stdin, `-`) is read up to a cap; a device such as /dev/zero, a file past the cap,
a name too long or a folder is a diagnostic, never a traceback and never unbounded memory.

Writing: the text goes to a fresh temporary file beside the target (`tempfile`, O_EXCL, so a
planted symlink is never followed), `.NAME.PID.XXXX.tmp`, which then replaces the target, so a crash or
a full disk never leaves a half-written file; a later write of the same target removes the temporary
files of runs that were killed (their PID no longer runs). Device nodes and other special files are
refused; the target is never read back. A file a process keeps writing (a save) is locked for it.
"""
from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

from interpreter.diagnostics import Diagnostic, DiagnosticError

MAX_INPUT = 64 * 1024 * 1024      # the largest log, save or scenario read (bytes)
MAX_PATH = 4096                   # the longest path accepted


def _fail(code: str, message: str, shown: str, help: str | None = None) -> DiagnosticError:
    return DiagnosticError([Diagnostic(code, message, shown, help=help)])


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit // 1024} KiB"


def _why(err: OSError) -> str:
    return err.strerror or str(err)


def check_path(path, what: str = "file") -> str:
    """A path as text, refused (E100) when it cannot name a file at all."""
    text = os.fspath(path)
    shown = text if len(text) <= 120 else text[:100] + "…"
    if "\x00" in text:
        raise _fail("E100", f"the {what} name contains a NUL character", shown)
    if len(text) > MAX_PATH or any(len(part.encode("utf-8", "replace")) > 255 for part in Path(text).parts):
        raise _fail("E100", f"the {what} name is too long", shown, help="each part of a path may have at most 255 bytes")
    return text


def is_file(path) -> bool:
    """Path.is_file() that answers False instead of raising for names the system refuses."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def special_kind(mode: int) -> str:
    """What a file that is neither a regular file nor a folder is, in words."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def special_file(path) -> str | None:
    """For a path that names a FIFO, a device or a socket (through links), what it is in words; else None."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return None if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else special_kind(mode)


def refuse_special(paths, what: str, file: str = "<command line>", span=None) -> None:
    """E100 when one of `paths` is a named pipe, a device or a socket: such a file is never opened for
    reading (a named pipe would wait for a writer)."""
    kind = next((k for p in paths if (k := special_file(p))), None)
    if kind:
        raise DiagnosticError([Diagnostic("E100", f"cannot read {what}: it is {kind}, not a regular file", file, span)])


def read_bytes(path, what: str = "file", limit: int = MAX_INPUT) -> bytes:
    """At most `limit` bytes of a regular file (or stdin for '-'); anything else is a diagnostic."""
    if os.fspath(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise _fail("E100", f"cannot read the {what}: standard input is closed", "<stdin>")
        try:
            data = stream.read(limit + 1)
        except (OSError, ValueError) as err:
            raise _fail("E100", f"cannot read the {what} from standard input: {err}", "<stdin>") from None
        if len(data) > limit:
            raise _fail("E101", f"the {what} is larger than {_size(limit)}", "<stdin>")
        return data
    shown = check_path(path, what)
    try:
        # O_NONBLOCK: opening a named pipe does not wait for a writer, so that it is refused below, not read
        with os.fdopen(os.open(shown, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_BINARY", 0)), "rb") as f:
            info = os.fstat(f.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise _fail("E100", f"cannot read the {what}: it is a folder", shown)
            if not stat.S_ISREG(info.st_mode):
                raise _fail("E100", f"cannot read the {what}: it is {special_kind(info.st_mode)}, not a regular file",
                            shown)
            if info.st_size > limit:
                raise _fail("E101", f"the {what} is larger than {_size(limit)}", shown)
            data = f.read(limit + 1)
    except IsADirectoryError:
        raise _fail("E100", f"cannot read the {what}: it is a folder", shown) from None
    except OSError as err:
        raise _fail("E100", f"cannot read the {what}: {_why(err)}", shown) from None
    if len(data) > limit:
        raise _fail("E101", f"the {what} is larger than {_size(limit)}", shown)
    return data


def read_text(path, what: str = "file", limit: int = MAX_INPUT) -> str:
    """A capped read decoded as UTF-8; a bad byte is a diagnostic with its line."""
    data = read_bytes(path, what, limit)
    shown = "<stdin>" if os.fspath(path) == "-" else check_path(path, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise _fail("E100", f"the {what} is not UTF-8 text (byte 0x{data[err.start]:02x} on line {line})", shown) from None


def _writable_target(target: Path, shown: str, what: str) -> tuple[Path, int | None]:
    """The real file to replace and its current permission bits (None if it does not exist yet)."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return target, None
    except OSError as err:
        raise _fail("E100", f"cannot write the {what}: {_why(err)}", shown) from None
    if stat.S_ISLNK(info.st_mode):
        real = Path(os.path.realpath(target))
        try:
            info = os.stat(real)
        except FileNotFoundError:
            return real, None
        except OSError as err:
            raise _fail("E100", f"cannot write the {what}: {_why(err)}", shown) from None
        target = real
    if stat.S_ISDIR(info.st_mode):
        raise _fail("E100", f"cannot write the {what}: '{shown}' is a folder", shown)
    if not stat.S_ISREG(info.st_mode):
        raise _fail("E100", f"refusing to write the {what} over '{shown}': it is a device or special file, "
                            "not a regular file", shown, help="give the name of a regular file")
    return target, stat.S_IMODE(info.st_mode)


class AtomicWriter:
    """A text file written through a temporary file in the target's folder (created by `tempfile`:
    O_EXCL, never following a planted symlink), renamed over the target by `commit()`. `mode` fixes
    the permission bits (0o600 for saves); otherwise an existing file keeps its bits and a new one
    gets the usual ones (umask)."""

    def __init__(self, path, what: str = "file", mode: int | None = None):
        self.what = what
        self.shown = check_path(path, what)
        self.target, existing = _writable_target(Path(self.shown), self.shown, what)
        self.tmp = ""
        remove_stale(self.target)
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=_temp_prefix(self.target) + f"{os.getpid()}.", suffix=".tmp",
                                            dir=self.target.parent)
            try:
                if mode is not None:
                    bits = mode
                elif existing is not None:
                    bits = existing
                else:
                    umask = os.umask(0)
                    os.umask(umask)
                    bits = 0o666 & ~umask
                os.fchmod(fd, bits)
            except OSError:
                os.close(fd)
                raise
            self.file = os.fdopen(fd, "w", encoding="utf-8")
        except OSError as err:
            self._remove()
            raise _fail("E100", f"cannot write the {what}: {_why(err)}", self.shown) from None

    def __enter__(self) -> AtomicWriter:
        return self

    def __exit__(self, kind, value, tb) -> None:
        """Renamed over the target when the block ends normally; removed when it raises."""
        if kind is None:
            self.commit()
        else:
            self.abort()

    def write(self, text: str) -> None:
        try:
            self.file.write(text)
        except OSError as err:
            self.abort()
            raise _fail("E100", f"cannot write the {self.what}: {_why(err)}", self.shown) from None

    def commit(self) -> None:
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            os.replace(self.tmp, self.target)
            self.tmp = ""
        except OSError as err:
            self.abort()
            raise _fail("E100", f"cannot write the {self.what}: {_why(err)}", self.shown) from None

    def abort(self) -> None:
        try:
            self.file.close()
        except OSError:
            pass
        self._remove()

    def _remove(self) -> None:
        if self.tmp:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = ""


def _temp_prefix(target: Path) -> str:
    return "." + target.name[:200] + "."


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True         # another user's process, or not a pid: not ours to judge
    return True


def remove_stale(target: Path) -> None:
    """Remove the temporary files of `target` left by a run that was killed (kill -9, a power cut):
    `.NAME.PID.XXXX.tmp` beside it whose process PID no longer runs. Another file is never touched."""
    prefix = _temp_prefix(target)
    try:
        with os.scandir(target.parent if str(target.parent) else ".") as entries:
            names = [e.name for e in entries if e.name.startswith(prefix) and e.name.endswith(".tmp")
                     and e.is_file(follow_symlinks=False)]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):].split(".", 1)[0]
        if pid.isascii() and pid.isdigit() and len(pid) < 10 and not _alive(int(pid)):
            try:
                os.unlink(target.parent / name)
            except OSError:
                pass


class Busy(Exception):
    """Another process holds the lock."""


class FileLock:
    """An exclusive lock on `path` for as long as a process writes it, held on a hidden `.NAME.lock`
    beside it (the file itself is replaced at every save, so it cannot carry the lock). The lock file
    is removed on release; a process that finds it replaced after locking locks the new one."""

    def __init__(self, path, what: str = "file"):
        self.shown = check_path(path, what)
        target = Path(self.shown)
        self.lock_path = target.parent / ("." + target.name[:200] + ".lock")
        self.fd: int | None = None

    def acquire(self) -> None:
        import fcntl

        for _ in range(20):
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            except OSError as err:
                raise _fail("E100", f"cannot lock the file: {_why(err)}", self.shown) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise Busy(self.shown) from None
            try:
                same = os.stat(self.lock_path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
            except OSError:
                same = False
            if same:
                self.fd = fd
                return
            os.close(fd)        # released and removed by its holder meanwhile: lock the new one
        raise Busy(self.shown)

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            os.unlink(self.lock_path)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None


def write_atomic(path, text: str, what: str = "file", mode: int | None = None) -> None:
    """Write `text` to `path` safely (see AtomicWriter); the target is never read back."""
    out = AtomicWriter(path, what, mode)
    out.write(text)
    out.commit()


_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0, 9), *range(11, 32), 127, *range(128, 160)]}
_CONTROL.update({0x202A + i: f"\\u{0x202A + i:04x}" for i in range(5)})      # bidirectional overrides
_CONTROL.update({0x2066 + i: f"\\u{0x2066 + i:04x}" for i in range(4)})


def printable(text: str) -> str:
    """`text` safe for a terminal: control characters (escape sequences, carriage returns, bidi
    overrides) written out as \\xNN; line breaks and tabs kept."""
    return text.translate(_CONTROL)
