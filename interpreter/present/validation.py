"""What `validate` prints: one line per rule file (ok, dev, FAIL), its diagnostics, and a count; or the
same as JSON. A warning that sits in a base file is shown once, not again under every variant."""
from __future__ import annotations

import errno
import json
import os
import stat
from typing import Any

from interpreter.diagnostics import Diagnostic, DiagnosticError, render_all
from interpreter.files import printable


def render_validation(results: list[tuple[str, Any, int]], explicit: list[str], sweep: bool, as_json: bool) -> str:
    """`results` holds (target, pipeline report, exit code) per file; `explicit` the targets named on the
    command line (a game in development among them is a failure, not a `dev` line)."""
    if as_json:
        return json.dumps([{"target": t, "ok": r.ok, "file": r.loaded.path if r.loaded else None,
                            "diagnostics": [d.to_json() for d in r.diagnostics]} for t, r, _ in results],
                          indent=2, ensure_ascii=False)
    out: list[str] = []
    dev = 0
    shown: set[tuple[str, str, str]] = set()
    for t, r, _code in results:
        if not r.ok and r.only_pending and sweep and t not in explicit:
            dev += 1
            out.append(f"dev  {t:<22} {r.loaded.path if r.loaded else ''}  ({r.pending_brief()})")
        elif r.ok and r.ruleset is not None and r.loaded is not None:
            rs = r.ruleset
            out.append(f"ok   {printable(t):<22} {printable(r.loaded.path)}  ({rs.players} players, {rs.deck_size} cards, "
                       f"{len(rs.contracts)} contracts, {len(rs.calls)} calls)")
            fresh = [d for d in r.diagnostics if (d.location(), d.code, d.message) not in shown]
            shown.update((d.location(), d.code, d.message) for d in r.diagnostics)
            if fresh:           # warnings
                out += [printable(render_all(fresh, r.sources)), ""]
            if len(fresh) < len(r.diagnostics):
                n = len(r.diagnostics) - len(fresh)
                out.append(f"     ({n} warning{'s' if n > 1 else ''} in a base file, shown above)")
        else:
            out += [f"FAIL {printable(t)}", printable(render_all(r.diagnostics, r.sources)), ""]
    bad = sum(1 for _, r, _ in results if not r.ok) - dev
    tail = f", {dev} in development (not playable yet, see 'dev' lines)" if dev else ""
    out.append(f"{len(results) - bad - dev} valid, {bad} invalid{tail}")
    return "\n".join(out)


def checked(target: str, check):
    """The pipeline's report on one file. A file in a folder never stops the others: what the checker
    could not get through (a bug) is that file's error, E190, exit 2, and the next file is checked."""
    from interpreter.pipeline import Report

    link = bad_link(target)
    try:
        if link:
            raise DiagnosticError([Diagnostic("E100", f"cannot read the rule file: {link}", target,
                                              help="remove the link or point it at a rule file")])
        return check(target)
    except DiagnosticError as err:
        return Report(target, diagnostics=err.diagnostics)
    except (Exception, RecursionError, MemoryError) as err:
        return Report(target, diagnostics=[Diagnostic(
            "E190", f"internal error while checking this file ({type(err).__name__}: {str(err)[:200]}); "
            "please report it", target)])


def bad_link(path: str) -> str | None:
    """Why a symbolic link cannot be read as a rule file (it loops, leads nowhere, or to a device);
    None for anything else."""
    try:
        if not os.path.islink(path):
            return None
        info = os.stat(path)
    except OSError as err:
        return "a symbolic link that goes round in a loop" if err.errno == errno.ELOOP else \
            "a symbolic link to nothing (its target is missing)" if err.errno == errno.ENOENT else \
            f"a symbolic link that cannot be followed ({err.strerror})"
    except ValueError:
        return None
    if stat.S_ISDIR(info.st_mode):
        return "a symbolic link to a folder"
    return None if stat.S_ISREG(info.st_mode) else "a symbolic link to a device or special file"
