"""The `stichwort` command. Exit codes: 0 ok, 1 a rule or expectation failed, 2 bad usage or
unreadable input. No input ever produces a traceback."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from interpreter import __version__
from interpreter.diagnostics import Diagnostic, DiagnosticError, render_all

UNREADABLE = {"E100", "E101", "E130", "E501", "E502", "E504"}


class UsageError(Exception):
    pass


def _console(stream=None):
    from rich.console import Console

    return Console(file=stream or sys.stdout, highlight=False, soft_wrap=False,
                   width=None if sys.stdout.isatty() else 200)


def _exit_code(diags: list[Diagnostic]) -> int:
    if not diags:
        return 0
    return 2 if any(d.code in UNREADABLE for d in diags) else 1


def cmd_validate(args) -> int:
    from interpreter.pipeline import check
    from interpreter.resources import builtin_games

    targets = list(args.targets)
    if args.all or not targets:
        targets += [name for name in builtin_games() if name not in targets]
    results, worst = [], 0
    for t in targets:
        report = check(t)
        code = _exit_code(report.diagnostics) if not report.ok else 0
        worst = max(worst, code)
        results.append((t, report, code))
    if args.json:
        print(json.dumps([{"target": t, "ok": r.ok, "file": r.loaded.path if r.loaded else None,
                           "diagnostics": [d.to_json() for d in r.diagnostics]} for t, r, _ in results],
                         indent=2, ensure_ascii=False))
        return worst
    for t, r, code in results:
        if r.ok:
            rs = r.ruleset
            print(f"ok   {t:<22} {r.loaded.path}  ({rs.players} players, {rs.deck_size} cards, "
                  f"{len(rs.contracts)} contracts, {len(rs.calls)} calls)")
        else:
            print(f"FAIL {t}")
            print(render_all(r.diagnostics, r.sources))
            print()
    bad = sum(1 for _, r, _ in results if not r.ok)
    print(f"{len(results) - bad} valid, {bad} invalid")
    return worst


def _load(target: str):
    from interpreter.pipeline import load

    return load(target)


def cmd_explain(args) -> int:
    from interpreter.present import explain

    rs = _load(args.target)
    booklet = explain.build(rs)
    if args.format == "markdown":
        text = explain.to_markdown(booklet)
    elif args.format == "html":
        text = explain.to_html(booklet)
    else:
        if args.output:
            raise UsageError("--output needs --format markdown or html")
        explain.to_rich(booklet, _console())
        return 0
    _write_or_print(text, args.output)
    return 0


def _write_or_print(text: str, output: str | None) -> None:
    if not output:
        sys.stdout.write(text)
        return
    from interpreter.files import write_atomic

    write_atomic(output, text)


def cmd_convert(args) -> int:
    from interpreter.language import writer
    from interpreter.language.loader import read_layer, resolve
    from interpreter.pipeline import check

    report = check(args.target)
    if not report.ok:
        print(render_all(report.diagnostics, report.sources), file=sys.stderr)
        return _exit_code(report.diagnostics)
    layer = read_layer(resolve(args.target))
    fmt = args.to
    if fmt is None and args.output:
        fmt = {".stw": "stw", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}.get(Path(args.output).suffix.lower())
    if fmt is None:
        raise UsageError("say which format: --to stw|yaml|json")
    try:
        text = {"stw": writer.to_stw, "yaml": writer.to_yaml, "json": writer.to_json}[fmt](layer.doc)
    except writer.NotWritable as err:
        raise DiagnosticError([Diagnostic("E140", str(err), layer.path)]) from None
    _write_or_print(text, args.output)
    return 0


def cmd_schema(args) -> int:
    from interpreter.resources import schema

    _write_or_print(json.dumps(schema(), indent=1, ensure_ascii=False) + "\n", args.output)
    return 0


def _options(pairs) -> dict:
    out = {}
    for item in pairs or []:
        if "=" not in item:
            raise UsageError(f"--set takes name=value, not '{item}'")
        k, v = item.split("=", 1)
        low = v.lower()
        out[k.strip()] = True if low == "true" else False if low == "false" else int(v) if v.lstrip("-").isdigit() else v
    return out


def _check_options(rs, options):
    from interpreter.diagnostics import best_matches

    for k in options:
        if k not in rs.options:
            raise UsageError(f"unknown table option '{k}' for {rs.name}"
                             + (f"; did you mean {' or '.join(best_matches(k, rs.options))}?" if best_matches(k, rs.options) else "")
                             + (f" (options: {', '.join(rs.options)})" if rs.options else " (it has none)"))
    from interpreter.engine.rules import _option_values

    try:
        _option_values(rs, options)                  # the declared min, max and choices
    except ValueError as err:
        raise UsageError(str(err)) from None


def cmd_test(args) -> int:
    from interpreter.harness.scenario import find_scenarios, run_file

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
            print(f"ERROR {f}")
            sources = {}
            try:
                sources[str(f)] = f.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                pass
            print(render_all(err.diagnostics, sources))
            continue
        deals += out.deals
        if out.ok:
            print(f"ok    {f} ({out.deals} deal{'s' if out.deals != 1 else ''}{', updated' if out.updated else ''})")
        else:
            failed += 1
            print(f"FAIL  {f}")
            for line in out.failures:
                print(f"      {line}")
    print(f"{len(files) - failed - errors} passed, {failed} failed" + (f", {errors} errors" if errors else "") + f" ({deals} deals)")
    return 2 if errors else 1 if failed else 0


def cmd_simulate(args) -> int:
    from interpreter.harness.runner import simulate

    rs = _load(args.target)
    options = _options(args.set)
    _check_options(rs, options)
    if args.deals < 1:
        raise UsageError("--deals must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.session:
        return _simulate_sessions(args, rs, options)
    progress = None
    bar = None
    if not args.json and sys.stderr.isatty():
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        task = bar.add_task("simulating", total=args.deals)
        progress = lambda done: bar.update(task, completed=done)  # noqa: E731
    try:
        summary = simulate(args.target, args.deals, args.seed, args.workers, options, args.bots, args.log, progress)
    finally:
        if bar:
            bar.stop()
    elapsed = summary.pop("_elapsed")
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
        return 0
    from rich.table import Table

    con = _console()
    con.print(f"[bold]{rs.title}[/] — {summary['deals']} deals, seed {args.seed}, {args.bots} bots")
    t = Table("contract", "declared", "share", "made", "made %")
    n = summary["deals"]
    for name, c in summary["contracts"].items():
        t.add_row(name, str(c["played"]), f"{100 * c['played'] / n:.1f}%", str(c["made"]),
                  f"{100 * c['made'] / c['played']:.1f}%" if c["played"] else "–")
    con.print(t)
    con.print(f"all-pass rate: {100 * summary['all_pass_rate']:.1f}%   actions per deal: {summary['actions_per_deal']}")
    m = Table("seat", "mean money per deal", "spread (sd)")
    for row in summary["money_per_seat"]:
        m.add_row(str(row["seat"]), f"{row['mean']:+.3f}", f"{row['stdev']:.3f}")
    con.print(m)
    con.print(f"{n / elapsed:.0f} deals per second ({args.workers} worker{'s' if args.workers > 1 else ''})")
    return 0


def _simulate_sessions(args, rs, options) -> int:
    from rich.table import Table

    from interpreter.harness.runner import simulate_sessions

    if args.session < 1:
        raise UsageError("--session must be at least 1")
    summary = simulate_sessions(args.target, args.deals, args.session, args.seed, args.workers, options, args.bots)
    elapsed = summary.pop("_elapsed")
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
        return 0
    con = _console()
    con.print(f"[bold]{rs.title}[/] — {summary['sessions']} sessions of up to {args.session} deals, seed {args.seed}")
    con.print(f"mean deals per session {summary['mean_deals']}; {summary['ended_by_rule']} ended by the game's own rule")
    t = Table("seat", "mean result per session", "spread (sd)")
    for row in summary["result_per_seat"]:
        t.add_row(str(row["seat"]), f"{row['mean']:+.3f}", f"{row['stdev']:.3f}")
    con.print(t)
    con.print(f"seat results plus what the pot keeps balance to within {summary['largest_imbalance']}; "
              f"{summary['sessions'] / elapsed:.1f} sessions per second")
    return 0


def cmd_replay(args) -> int:
    from interpreter.harness.runner import replay

    def show(state, seat, text):
        if args.verbose:
            print(f"  seat {seat}: {text}")

    n = replay(args.log, on_step=show)
    print(f"replayed {n} deal{'s' if n != 1 else ''}: every step and result matches the log")
    return 0


def cmd_play(args) -> int:
    from interpreter.present.terminal import play

    rs = _load(args.target)
    options = _options(args.set)
    _check_options(rs, options)
    return play(rs, options, seat=args.seat, seed=args.seed, bots=args.bots, deals=args.deals,
                save=args.save, resume=args.resume)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="stichwort", description="Rules-as-data for trick-taking card games with bidding.")
    p.add_argument("--version", action="version", version=f"stichwort {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    v = sub.add_parser("validate", help="check rule files; no argument checks every built-in game")
    v.add_argument("targets", nargs="*", metavar="FILE|NAME")
    v.add_argument("--all", action="store_true", help="also every built-in game")
    v.add_argument("--json", action="store_true", help="machine-readable diagnostics")
    v.set_defaults(func=cmd_validate)

    e = sub.add_parser("explain", help="the rules booklet: contract ladder, auction, payment tables")
    e.add_argument("target", metavar="FILE|NAME")
    e.add_argument("--format", choices=["terminal", "markdown", "html"], default="terminal")
    e.add_argument("-o", "--output", metavar="FILE")
    e.set_defaults(func=cmd_explain)

    c = sub.add_parser("convert", help="write a rule file as .stw, YAML or JSON")
    c.add_argument("target", metavar="FILE|NAME")
    c.add_argument("--to", choices=["stw", "yaml", "json"])
    c.add_argument("-o", "--output", metavar="FILE")
    c.set_defaults(func=cmd_convert)

    t = sub.add_parser("test", help="run scenario files (expected outcomes of example deals)")
    t.add_argument("targets", nargs="*", metavar="FILE|NAME")
    t.add_argument("--update", action="store_true", help="rewrite the expectations in place")
    t.set_defaults(func=cmd_test)

    m = sub.add_parser("simulate", help="bots play many deals; statistics per contract and seat")
    m.add_argument("target", metavar="FILE|NAME")
    m.add_argument("--deals", type=int, default=1000)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--workers", type=int, default=1)
    m.add_argument("--bots", choices=["rule", "random"], default="rule")
    m.add_argument("--set", action="append", metavar="NAME=VALUE", help="a table option")
    m.add_argument("--json", action="store_true")
    m.add_argument("--log", metavar="FILE", help="write one JSON line per deal")
    m.add_argument("--session", type=int, metavar="K", default=0,
                   help="play --deals sessions of up to K deals each (or to the game's own end) and report results per seat")
    m.set_defaults(func=cmd_simulate)

    r = sub.add_parser("replay", help="replay a logged deal step by step, checking every step")
    r.add_argument("log", metavar="LOG")
    r.add_argument("-v", "--verbose", action="store_true")
    r.set_defaults(func=cmd_replay)

    pl = sub.add_parser("play", help="play in the terminal against bots")
    pl.add_argument("target", metavar="FILE|NAME")
    pl.add_argument("--seat", type=int, default=0)
    pl.add_argument("--seed", type=int, default=None)
    pl.add_argument("--bots", choices=["rule", "random"], default="rule")
    pl.add_argument("--deals", type=int, default=1)
    pl.add_argument("--set", action="append", metavar="NAME=VALUE")
    pl.add_argument("--save", metavar="FILE", help="keep the game in FILE (the log), rewritten after every action")
    pl.add_argument("--resume", metavar="FILE", help="replay a saved game and play on")
    pl.set_defaults(func=cmd_play)

    s = sub.add_parser("schema", help="print the JSON Schema of the rules document")
    s.add_argument("-o", "--output", metavar="FILE")
    s.set_defaults(func=cmd_schema)
    return p


def main(argv=None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        return int(args.func(args) or 0)
    except DiagnosticError as err:
        sources = {}
        for d in err.diagnostics:
            try:
                sources[d.file] = Path(d.file).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError, ValueError):
                pass
        print(render_all(err.diagnostics, sources), file=sys.stderr)
        return _exit_code(err.diagnostics) or 1
    except UsageError as err:
        print(f"stichwort: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as err:  # a bug in stichwort, never the user's fault: no traceback, a clear note
        print(f"stichwort: internal error ({type(err).__name__}: {err}); please report it", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
