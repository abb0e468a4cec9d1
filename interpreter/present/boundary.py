"""What the command line needs at its boundary: argument types that refuse bad numbers and paths
with a clear message, the booklet made safe for a terminal, the source lines of diagnostics read
with a cap, closed standard streams and broken pipes handled quietly."""
from __future__ import annotations

import argparse
import os
import re
import signal
import sys

from interpreter.diagnostics import Diagnostic, DiagnosticError
from interpreter.files import check_path, printable

MAX_SOURCE = 8 * 1024 * 1024      # the largest file read back to show a diagnostic's line


def whole(what: str, low: int, high: int):
    """An argparse type: a whole number in [low, high], written in ASCII digits."""
    def parse(text: str) -> int:
        t = text.strip()
        if not re.fullmatch(r"[+-]?[0-9]{1,40}", t):
            raise argparse.ArgumentTypeError(f"{what} takes a whole number, not {printable(repr(text[:40]))}")
        value = int(t)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be between {low} and {high}")
        return value
    return parse


def target(text: str) -> str:
    """A rule file path or built-in name from the command line."""
    try:
        return check_path(text, "rule file")
    except DiagnosticError as err:
        raise argparse.ArgumentTypeError(err.diagnostics[0].message) from None


def file_arg(text: str) -> str:
    try:
        return check_path(text)
    except DiagnosticError as err:
        raise argparse.ArgumentTypeError(err.diagnostics[0].message) from None



def say_warnings(warnings: list[Diagnostic]) -> None:
    """The warnings of the rule files a run loads, one line each on stderr, where they lie in the user's
    own files: the built-in games' warnings are known (a deliberate cut of an endless kontra chain, say)."""
    from pathlib import Path

    from interpreter.resources import games_dir

    builtin = games_dir().resolve()
    for d in warnings:
        try:
            inside = d.file is not None and Path(d.file).resolve().is_relative_to(builtin)
        except (OSError, ValueError):
            inside = False
        if not inside:
            print(printable(f"warning: {d.location()}: {d.code} {d.message}"), file=sys.stderr)


def printable_booklet(booklet):
    """The booklet with every text made safe for a terminal (a title may hold escape sequences)."""
    def clean(v):
        if isinstance(v, str):
            return printable(v)
        if isinstance(v, (list, tuple)):
            return type(v)(clean(x) for x in v)
        return v

    booklet.title = clean(booklet.title)
    booklet.blocks = [clean(b) for b in booklet.blocks]
    return booklet



def sources(diagnostics: list[Diagnostic]) -> dict[str, str]:
    """The text of the files the diagnostics point into (capped reads), to show their lines."""
    from interpreter.files import is_file, read_bytes

    sources: dict[str, str] = {}
    for d in diagnostics:
        if d.file in sources or d.span is None or not is_file(d.file):
            continue
        try:
            sources[d.file] = read_bytes(d.file, limit=MAX_SOURCE).decode("utf-8", errors="replace")
        except DiagnosticError:
            pass
    return sources


def standard_streams() -> None:
    """A closed stdin, stdout or stderr (`<&-`, `>&-`) reads as empty and writes to nowhere."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 — lives as long as the process
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def quiet_pipe() -> int:
    """The reader went away (`| head`): send what is left to nowhere and exit 0, as `head` expects."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return 0


STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


def stop_signals() -> list:
    """SIGTERM and SIGHUP do what Ctrl-C does: `simulate` keeps the deals played (the summary and the
    log so far), `play` its save, and a file being written is never left half-written. All three raise
    KeyboardInterrupt, held back while a finished deal is being counted and logged (harness/batch.py).
    Only in the main thread (a signal handler cannot be set elsewhere); a signal that was ignored at the
    start (nohup) stays ignored, and the handlers before are given back by the caller."""
    import threading

    from interpreter.harness.batch import stop

    if threading.current_thread() is not threading.main_thread():
        return []
    saved = []
    for name in STOP_SIGNALS:
        signum = getattr(signal, name, None)
        if signum is None:
            continue
        old = signal.getsignal(signum)
        if old is signal.SIG_IGN or (name == "SIGINT" and old is not signal.default_int_handler):
            continue
        signal.signal(signum, stop)
        saved.append((signum, old))
    return saved
