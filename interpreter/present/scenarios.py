"""The `test` command's report: each scenario file's outcome on one line, its failures under it, the tally."""
from __future__ import annotations

from typing import Any

from interpreter.diagnostics import DiagnosticError, render_all
from interpreter.files import printable
from interpreter.harness.scenario import find_scenarios, run_file
from interpreter.present.boundary import sources


def command(args: Any) -> int:
    """Run the scenario files (`targets`: files, folders or game names; none: every built-in one) and print
    one line per file and the tally. Exit 2 when a file could not be read, 1 when one failed, else 0."""
    files = find_scenarios(args.targets)
    if not files:
        print("no scenario files found")
        return 1
    failed = 0
    errors = 0
    deals = 0
    for f in files:
        try:
            out = run_file(f, update=args.update)
        except DiagnosticError as err:
            errors += 1
            print(f"ERROR {printable(str(f))}")
            print(printable(render_all(err.diagnostics, sources(err.diagnostics))))
            continue
        deals += out.deals
        if out.ok:
            print(f"ok    {printable(str(f))} ({out.deals} deal{'s' if out.deals != 1 else ''}{', updated' if out.updated else ''})")
        else:
            failed += 1
            print(f"FAIL  {printable(str(f))}")
            for line in out.failures:
                print(f"      {printable(line)}")
    print(f"{len(files) - failed - errors} passed, {failed} failed" + (f", {errors} errors" if errors else "") + f" ({deals} deals)")
    return 2 if errors else 1 if failed else 0
