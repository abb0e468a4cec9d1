#!/usr/bin/env python3
"""Move for move with OpenSpiel: play random deals of an OpenSpiel game and of the rule file that mirrors
it, compare the seat to act and the legal moves at every decision and the scores at the end
(interpreter/adapters/conformance.py; the mapping format is in docs/conformance.md).

    python tools/conformance.py ohhell --deals 2000 --seed 1             # every config of games/ohhell/openspiel.yml
    python tools/conformance.py games/ohhell/openspiel.yml --config 5 --deals 200
    python tools/conformance.py ohhell --config 4 --first 17 --deals 1   # deal 17 of a run again, alone
    python tools/conformance.py ohhell --bench --deals 500 --rounds 3    # deals per second, side by side
    python tools/conformance.py ohhell --bench --cpu                     # the same in CPU time (a loaded machine)

A disagreement is printed (the deal, the moves so far, both legal sets) and written as a scenario file
that reproduces it (--out, default a folder in the temporary directory). Exit 0 when the engines agree,
1 on a disagreement, 2 on bad input (an unreadable or wrong mapping, an unknown config, no pyspiel).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.adapters.conformance import ConformanceError, Pair, bench, run  # noqa: E402
from interpreter.adapters.conformance_map import load_mapping  # noqa: E402
from interpreter.adapters.conformance_report import describe, summary, write_scenario  # noqa: E402
from interpreter.diagnostics import DiagnosticError, render_all  # noqa: E402
from interpreter.resources import games_dir  # noqa: E402


def mapping_path(target: str) -> Path:
    """A mapping file, a folder holding openspiel.yml, or the name of a game folder under games/."""
    path = Path(target)
    if path.is_dir():
        path = path / "openspiel.yml"
    elif not path.exists() and not path.suffix:
        path = games_dir() / target / "openspiel.yml"
    return path


def _count(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 10_000_000:
        raise argparse.ArgumentTypeError("must be from 1 to 10000000")
    return value


def _first(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 10**12:
        raise argparse.ArgumentTypeError("must be from 0 to 10^12")
    return value


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="conformance.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", help="openspiel.yml, a folder holding one, or a game folder's name (ohhell)")
    ap.add_argument("--config", action="append", help="only this config of the mapping (repeatable)")
    ap.add_argument("--deals", type=_count, default=100, help="deals per config (per round with --bench)")
    ap.add_argument("--seed", default="0", help="the run's seed (each deal has its own generator from it)")
    ap.add_argument("--first", type=_first, default=0, help="the number of the first deal (to play one again)")
    ap.add_argument("--out", type=Path, help="where disagreements are written as scenario files")
    ap.add_argument("--keep-going", action="store_true", help="go on after a disagreement")
    ap.add_argument("--bench", action="store_true", help="measure deals per second of both engines instead")
    ap.add_argument("--rounds", type=_count, default=3, help="alternating rounds of --bench")
    ap.add_argument("--cpu", action="store_true", help="--bench in the process's CPU time, not wall time")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    path = mapping_path(args.target)
    try:
        mapping = load_mapping(path)
        names = args.config or [c.name for c in mapping.configs]
        pairs = [Pair(mapping, name) for name in names]
    except DiagnosticError as err:
        print(render_all(err.diagnostics, _sources(err)), file=sys.stderr)
        return 2
    except ConformanceError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        return _bench(pairs, args, seed) if args.bench else _check(pairs, args, seed)
    except ConformanceError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 2


def _sources(err: DiagnosticError) -> dict[str, str]:
    """The text of each file a diagnostic names, to show its line."""
    out = {}
    for d in err.diagnostics:
        try:
            out[d.file] = Path(d.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            pass
    return out


def _check(pairs: list[Pair], args: argparse.Namespace, seed: int | str) -> int:
    out = args.out or Path(tempfile.gettempdir()) / "stichwort-conformance"
    failed = False
    for pair in pairs:
        report = run(pair, args.deals, seed, first=args.first, keep_going=args.keep_going)
        for d in report.disagreements:
            failed = True
            print(describe(pair, d, seed))
            print(f"  scenario: {write_scenario(pair, d, seed, out)}")
        print(summary(pair, report), flush=True)
    return 1 if failed else 0


def _bench(pairs: list[Pair], args: argparse.Namespace, seed: int | str) -> int:
    clock = time.process_time if args.cpu else time.perf_counter
    print(f"deals per second ({'CPU' if args.cpu else 'wall'} time), random moves, both engines driven from Python; "
          f"{args.rounds} alternating rounds of {args.deals} deals")
    print(f"{'config':<28} {'OpenSpiel':>10} {'stichwort':>10} {'ratio':>6}")
    for pair in pairs:
        rows = bench(pair, args.deals, args.rounds, seed, clock)
        for k, (theirs, ours) in enumerate(rows, 1):
            print(f"{pair.config.name + f' round {k}':<28} {theirs:>10.0f} {ours:>10.0f} {ours / theirs:>6.2f}")
        theirs = statistics.median(r[0] for r in rows)
        ours = statistics.median(r[1] for r in rows)
        print(f"{pair.config.name + ' median':<28} {theirs:>10.0f} {ours:>10.0f} {ours / theirs:>6.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
