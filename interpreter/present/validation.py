"""What `validate` prints: one line per rule file (ok, dev, FAIL), its diagnostics, and a count; or the
same as JSON. A warning that sits in a base file is shown once, not again under every variant."""
from __future__ import annotations

import json
from typing import Any

from interpreter.diagnostics import render_all
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
