"""The `test` command's report: each scenario file's outcome on one line, its failures under it, the tally."""
from __future__ import annotations

from typing import Any

from interpreter.diagnostics import DiagnosticError, render_all
from interpreter.files import printable
from interpreter.harness.scenario import find_scenarios, run_file
from interpreter.harness.waiting import check_waiting
from interpreter.pipeline import NotPlayable
from interpreter.present.boundary import sources


def command(args: Any) -> int:
    """Run the scenario files (`targets`: files, folders or game names; none: every built-in one) and print
    one line per file and the tally. Exit 2 when a file could not be read, 1 when one failed, else 0. A file
    whose game is in development is read but not run (harness/waiting.py): one `dev` line, exit 1 when it was
    named (a file, its folder or its game), none when every game's files are run."""
    files = find_scenarios(args.targets)
    if not files:
        print("no scenario files found")
        return 1
    failed = 0
    errors = 0
    deals = 0
    waiting = 0
    for f in files:
        try:
            out = run_file(f, update=args.update)
        except NotPlayable as err:      # the game is in development: the file is read, not run
            try:
                count = check_waiting(f, err.report.target)
            except DiagnosticError as bad:
                errors += 1
                print(f"ERROR {printable(str(f))}")
                print(printable(render_all(bad.diagnostics, sources(bad.diagnostics))))
                continue
            waiting += 1
            game = printable(err.report.target)
            print(f"dev   {printable(str(f))} ({count} deal{'s' if count != 1 else ''} waiting for {game}, a game in "
                  f"development: 'stichwort validate {game}' lists what the engine lacks)")
            continue
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
    dev = f", {waiting} waiting for a game in development" if waiting else ""
    print(f"{len(files) - failed - errors - waiting} passed, {failed} failed" + (f", {errors} errors" if errors else "")
          + dev + f" ({deals} deals)")
    # a file that waits for its game fails when it was asked for by name; a run over every game lists it
    return 2 if errors else 1 if failed or (waiting and args.targets) else 0
