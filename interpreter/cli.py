"""The `stichwort` command. Exit codes: 0 ok, 1 a rule or expectation failed, 2 bad usage or
unreadable input. No input ever produces a traceback."""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path

from interpreter import __version__
from interpreter.diagnostics import Diagnostic, DiagnosticError, render_all
from interpreter.files import printable
from interpreter.present.boundary import (
    file_arg,
    printable_booklet,
    quiet_pipe,
    say_warnings,
    sources,
    standard_streams,
    stop_signals,
    target,
    whole,
)

UNREADABLE = {"E100", "E101", "E130", "E190", "E501", "E502", "E504"}
MAX_DEALS = 10**15
MAX_SESSION = 10**6


class UsageError(Exception):
    pass


def _console(stream=None):
    from interpreter.present.terminal import make_console

    return make_console(stream or sys.stdout, soft_wrap=False, width=None if sys.stdout.isatty() else 200)


def _print_whole(show, *args) -> None:
    """`show(*args, console)` printed only once it is whole: a report that fails half-way (the session
    protocol played again, a figure that cannot be shown) prints no partial table before the error."""
    con = _console()
    with con.capture() as captured:
        show(*args, con)
    sys.stdout.write(captured.get())


def _exit_code(diags: list[Diagnostic]) -> int:
    if not diags:
        return 0
    return 2 if any(d.code in UNREADABLE for d in diags) else 1


def cmd_validate(args) -> int:
    from interpreter.pipeline import check
    from interpreter.present.validation import checked, render_validation
    from interpreter.resources import builtin_games

    targets = _expand_folders(args.targets)
    sweep = args.all or not targets     # the built-in games: those in development are listed, not failed
    if sweep:
        targets += [name for name in builtin_games() if name not in targets]
    results, worst = [], 0
    for t in targets:
        report = checked(t, check)
        code = _exit_code(report.diagnostics) if not report.ok else 0
        if sweep and report.only_pending and t not in args.targets:
            code = 0
        warned = args.strict and any(d.severity == "warning" for d in report.diagnostics)
        worst = max(worst, code, 1 if warned else 0)
        results.append((t, report, code))
    print(render_validation(results, args.targets, sweep, args.json))
    if args.strict and worst == 1 and all(r.ok for _t, r, _c in results):
        print("--strict: the warnings above fail the check", file=sys.stderr)
    return worst


def _expand_folders(targets: list[str]) -> list[str]:
    """Each folder named stands for the .stw files under it, sorted (YAML and JSON files in a folder may
    be scenarios, so only a rule file named as such is read in those spellings). A `.stw` link that
    loops, leads nowhere or to a device, and a `.stw` that is a named pipe, a device or a socket, is listed too,
    so that it is reported, not skipped."""
    out: list[str] = []
    for t in targets:
        if os.path.isdir(t):
            found = sorted(str(p) for p in Path(t).rglob("*.stw") if not p.is_dir() or p.is_symlink())
            if not found:
                raise UsageError(f"{t}: a folder with no .stw rule file under it")
            out += [f for f in found if f not in out]
        elif t not in out:
            out.append(t)
    return out


def _load(target: str, playable: bool = True, warn: bool = False):
    """The Ruleset of `target`; with `warn`, the warnings located in the user's own rule files (not in the
    built-in games, whose warnings are known) are said on stderr, one line each, before the run."""
    from interpreter.pipeline import load

    warnings: list[Diagnostic] = []
    rs = load(target, playable, warnings if warn else None)
    say_warnings(warnings)
    return rs


def cmd_explain(args) -> int:
    from interpreter.present import explain

    rs = _load(args.target, playable=False)
    booklet = printable_booklet(explain.build(rs))
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
    if not report.ok and not report.only_pending:
        print(printable(render_all(report.diagnostics, report.sources)), file=sys.stderr)
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


def cmd_fmt(args) -> int:
    from interpreter.language.format import format_paths

    code, diagnostics = format_paths(args.paths or ["."], args.check)
    if diagnostics:
        print(printable(render_all(diagnostics, sources(diagnostics))), file=sys.stderr)
    return max(code, _exit_code(diagnostics))       # an unreadable file (a named pipe, a device): 2


def cmd_diff(args) -> int:
    from interpreter.present.diff import NoBase, diff

    first, second = (None, args.a) if args.b is None else (args.a, args.b)
    try:
        sys.stdout.write(printable(diff(first, second, markdown=args.format == "markdown")))
    except NoBase as err:
        raise UsageError(str(err)) from None
    return 0


def cmd_lsp(args) -> int:
    from interpreter.lsp.server import main as serve

    return serve()


def cmd_schema(args) -> int:
    from interpreter.resources import schema

    _write_or_print(json.dumps(schema(), indent=1, ensure_ascii=False) + "\n", args.output)
    return 0


def _options(rs, pairs) -> dict:
    """`--set name=value` pairs, each typed by the option's declared default and checked against
    its min, max, multiple_of and choices."""
    from interpreter.diagnostics import best_matches
    from interpreter.harness.inputs import BadInput, option_from_text

    out = {}
    for item in pairs or []:
        if "=" not in item:
            raise UsageError(f"--set takes name=value, not {printable(repr(item[:60]))}")
        k, v = item.split("=", 1)
        k = k.strip()
        if k not in rs.options:
            close = best_matches(k, rs.options)
            raise UsageError(f"unknown table option {printable(repr(k[:60]))} for {rs.name}"
                             + (f"; did you mean {' or '.join(close)}?" if close else "")
                             + (f" (options: {', '.join(rs.options)})" if rs.options else " (it has none)"))
        try:
            out[k] = option_from_text(rs, k, v)
        except BadInput as err:
            raise UsageError(f"--set {printable(str(err))}") from None
    return out


def _workers(requested: int) -> int:
    cores = os.cpu_count() or 1
    if requested > cores:
        print(f"stichwort: warning: --workers {requested} is more than the {cores} cores here; using {cores}",
              file=sys.stderr)
        return cores
    return requested


def cmd_test(args) -> int:
    from interpreter.present.scenarios import command

    return command(args)


def _bots(rs, text: str) -> str:
    """`--bots`: one bot for every seat, or one per seat comma-separated (rule, random, search, search:N)."""
    from interpreter.bots import parse_bots

    try:
        kinds = parse_bots(text, rs.seats)
    except ValueError as err:
        raise UsageError(str(err)) from None
    return kinds[0] if len(set(kinds)) == 1 else ",".join(kinds)


def cmd_simulate(args) -> int:
    from interpreter.harness.runner import simulate

    rs = _load(args.target, warn=True)
    options = _options(rs, args.set)
    args.bots = _bots(rs, args.bots)
    args.workers = _workers(args.workers)
    if args.ray is not None:
        from interpreter.harness.batch import RayUnavailable, use_ray
        try:
            use_ray(args.ray or None)
        except RayUnavailable as err:
            raise UsageError(str(err)) from None
    if args.report and (args.session or args.ray is not None or args.log):
        raise UsageError("--report goes with a plain simulate (not with --session, --ray or --log)")
    if args.session:
        return _simulate_sessions(args, rs, options)
    progress = None
    bar = None
    if not args.json and sys.stderr.isatty():
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        task = bar.add_task("simulating", total=args.deals)
        progress = lambda done: bar.update(task, completed=done)
    try:
        if args.report:             # the same deals, every record kept for the page (present/analysis.py)
            from interpreter.present.analysis import simulate_with_report
            summary = simulate_with_report(args, options, progress, UsageError)
        else:
            summary = simulate(args.target, args.deals, args.seed, args.workers, options, args.bots, args.log, progress)
    finally:
        if bar:
            bar.stop()
    elapsed = summary.pop("_elapsed")
    _note_interrupt(summary, "deals")
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
        return 0
    from interpreter.present.report import print_simulation

    _print_whole(print_simulation, summary, rs, args.bots, args.seed, args.workers, elapsed)
    return 0


def _note_interrupt(summary: dict, what: str) -> None:
    if summary.get("interrupted"):
        print(f"stichwort: interrupted; the summary covers the {summary[what]} {what} played so far", file=sys.stderr)


def _simulate_sessions(args, rs, options) -> int:
    from interpreter.harness.runner import simulate_sessions
    from interpreter.present.report import print_sessions

    summary = simulate_sessions(args.target, args.deals, args.session, args.seed, args.workers, options, args.bots,
                                args.log)
    elapsed = summary.pop("_elapsed")
    _note_interrupt(summary, "sessions")
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
        return 0
    _print_whole(print_sessions, summary, rs, args.session, args.seed, elapsed)
    return 0


def cmd_scenario_from_log(args) -> int:
    from interpreter.harness.scenario_log import command

    return command(args)


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

    rs = _load(args.target, warn=True)
    options = _options(rs, args.set)
    args.bots = _bots(rs, args.bots)
    return play(rs, options, seat=args.seat, seed=args.seed, bots=args.bots, deals=args.deals,
                save=args.save, resume=args.resume, force=args.force)


def cmd_serve(args) -> int:
    from interpreter.web import serve

    return serve(args, _options)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="stichwort", description="Rules-as-data for trick-taking card games with bidding.")
    p.add_argument("--version", action="version", version=f"stichwort {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    v = sub.add_parser("validate", help="check rule files; no argument checks every built-in game")
    v.add_argument("targets", nargs="*", metavar="FILE|NAME", type=target)
    v.add_argument("--all", action="store_true", help="also every built-in game")
    v.add_argument("--json", action="store_true", help="machine-readable diagnostics")
    v.add_argument("--strict", action="store_true", help="warnings fail too (exit 1), e.g. for a rule author's CI")
    v.set_defaults(func=cmd_validate)

    e = sub.add_parser("explain", help="the rules booklet: contract ladder, auction, payment tables")
    e.add_argument("target", metavar="FILE|NAME", type=target)
    e.add_argument("--format", choices=["terminal", "markdown", "html"], default="terminal")
    e.add_argument("-o", "--output", metavar="FILE", type=file_arg)
    e.set_defaults(func=cmd_explain)

    c = sub.add_parser("convert", help="write a rule file as .stw, YAML or JSON")
    c.add_argument("target", metavar="FILE|NAME", type=target)
    c.add_argument("--to", choices=["stw", "yaml", "json"])
    c.add_argument("-o", "--output", metavar="FILE", type=file_arg)
    c.set_defaults(func=cmd_convert)

    t = sub.add_parser("test", help="run scenario files (expected outcomes of example deals)")
    t.add_argument("targets", nargs="*", metavar="FILE|NAME", type=target)
    t.add_argument("--update", action="store_true", help="rewrite the expectations in place")
    t.set_defaults(func=cmd_test)

    m = sub.add_parser("simulate", help="bots play many deals; statistics per contract and seat")
    m.add_argument("target", metavar="FILE|NAME", type=target)
    m.add_argument("--deals", type=whole("--deals", 1, MAX_DEALS), default=1000)
    m.add_argument("--seed", type=whole("--seed", -(10**40), 10**40), default=0)
    m.add_argument("--workers", type=whole("--workers", 1, 4096), default=1,
                   help="worker processes (at most the number of cores)")
    m.add_argument("--bots", default="rule", help="rule, random, search or search:N; or one per seat: search,rule,rule")
    m.add_argument("--set", action="append", metavar="NAME=VALUE", help="a table option")
    m.add_argument("--json", action="store_true")
    m.add_argument("--log", metavar="FILE", type=file_arg, help="write one JSON line per deal")
    m.add_argument("--report", metavar="FILE.html", type=file_arg,
                   help="also write a self-contained HTML page: contract mix, made rates, money per seat (charts: [analysis])")
    m.add_argument("--session", type=whole("--session", 1, MAX_SESSION), metavar="K", default=None,
                   help="play --deals sessions of up to K deals each (or to the game's own end) and report results per seat")
    m.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="run the chunks as tasks on a Ray cluster (a local one without ADDRESS); needs the [ray] extra")
    m.set_defaults(func=cmd_simulate)

    sl = sub.add_parser("scenario-from-log", help="turn a `play --save` or `simulate --log` file into a scenario file")
    sl.add_argument("log", metavar="LOG", type=file_arg)
    sl.add_argument("-o", "--output", metavar="FILE", type=file_arg, help="the scenario file (default: LOG with .yaml)")
    sl.add_argument("--line", type=whole("--line", 1, 10**9), default=1, help="which deal of a simulate log (default 1)")
    sl.add_argument("--force", action="store_true", help="overwrite the scenario file if it exists")
    sl.set_defaults(func=cmd_scenario_from_log)

    r = sub.add_parser("replay", help="replay a logged deal step by step, checking every step")
    r.add_argument("log", metavar="LOG", type=file_arg)
    r.add_argument("-v", "--verbose", action="store_true")
    r.set_defaults(func=cmd_replay)

    pl = sub.add_parser("play", help="play in the terminal against bots")
    pl.add_argument("target", metavar="FILE|NAME", type=target)
    pl.add_argument("--seat", type=whole("--seat", 0, 63), default=0)
    pl.add_argument("--seed", type=whole("--seed", -(10**40), 10**40), default=None)
    pl.add_argument("--bots", default="rule", help="rule, random, search or search:N; or one per seat")
    pl.add_argument("--deals", type=whole("--deals", 1, MAX_SESSION), default=1)
    pl.add_argument("--set", action="append", metavar="NAME=VALUE")
    pl.add_argument("--save", metavar="FILE", type=file_arg,
                    help="keep the game in FILE (the log), rewritten after every action")
    pl.add_argument("--resume", metavar="FILE", type=file_arg, help="replay a saved game and play on")
    pl.add_argument("--force", action="store_true", help="let --save replace a file that is not a stichwort save, or one another game is writing")
    pl.set_defaults(func=cmd_play)

    from interpreter.present.analysis import add_commands  # compare, advise
    add_commands(sub, UsageError, _console, _options)
    from interpreter.present.generated import add_commands as add_compile  # compile [--show]
    add_compile(sub, UsageError, _options)
    from interpreter.present.scaffold import add_command as add_new  # new FILE --extends BASE
    add_new(sub, UsageError, target, file_arg)

    s = sub.add_parser("schema", help="print the JSON Schema of the rules document")
    s.add_argument("-o", "--output", metavar="FILE", type=file_arg)
    s.set_defaults(func=cmd_schema)

    f = sub.add_parser("fmt", help="write rule files in their canonical layout (comments kept)")
    f.add_argument("paths", nargs="*", metavar="FILE|DIR", help="files or folders of .stw files (default: .)")
    f.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would be reformatted")
    f.set_defaults(func=cmd_fmt)

    d = sub.add_parser("diff", help="what a variant changes, rule by rule: diff A B, or diff B against its base")
    d.add_argument("a", type=target, metavar="A|B")
    d.add_argument("b", type=target, nargs="?", metavar="B")
    d.add_argument("--format", choices=["terminal", "markdown"], default="terminal")
    d.set_defaults(func=cmd_diff)

    sv = sub.add_parser("serve", help="the web table: play in the browser with friends and bots (needs the [web] extra)")
    sv.add_argument("targets", nargs="*", metavar="FILE|NAME", type=target, help="games to offer (default: every built-in game)")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    sv.add_argument("--port", type=whole("--port", 1, 65535), default=8000)
    sv.add_argument("--set", action="append", metavar="NAME=VALUE", help="a table option (with one game)")
    sv.add_argument("--save-dir", metavar="DIR", type=file_arg, help="keep every table's save file in DIR")
    sv.add_argument("--resume", action="append", metavar="FILE", type=file_arg, help="open a table from a save file")
    sv.add_argument("--force", action="store_true", help="let --resume open a save another game is writing (both then write it)")
    sv.add_argument("--delay", type=float, default=0.6, help="seconds between bot moves (default 0.6)")
    sv.set_defaults(func=cmd_serve)

    ls = sub.add_parser("lsp", help="the language server for .stw files, over stdio (needs the [lsp] extra)")
    ls.set_defaults(func=cmd_lsp)
    return p


def main(argv=None) -> int:
    standard_streams()
    saved = stop_signals()
    try:
        code = _main(argv)
        if not sys.stdout.closed:       # the language server closes it on `exit`
            sys.stdout.flush()
        return code
    except BrokenPipeError:
        return quiet_pipe()
    finally:
        for signum, handler in saved:
            signal.signal(signum, handler)


def _main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) and exc.code in (0, 1, 2) else 2
    except Exception as err:  # a bug in the argument definitions: a clear note, no traceback
        print(printable(f"stichwort: internal error ({type(err).__name__}: {err}); please report it"), file=sys.stderr)
        return 2
    from interpreter.pipeline import NotPlayable

    try:
        return int(args.func(args) or 0)
    except NotPlayable as err:      # well formed, but needs mechanisms the engine lacks: one line, exit 1
        print(printable(f"stichwort: {err.summary}"), file=sys.stderr)
        return 1
    except DiagnosticError as err:
        print(printable(render_all(err.diagnostics, sources(err.diagnostics))), file=sys.stderr)
        return _exit_code(err.diagnostics) or 1
    except UsageError as err:
        print(f"stichwort: error: {printable(str(err))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise
    except MemoryError:
        print("stichwort: error: out of memory", file=sys.stderr)
        return 2
    except Exception as err:  # a bug in stichwort, never the user's fault: no traceback, a clear note
        if type(err).__name__ == "RuleRuntimeError":      # the rules themselves fail at play
            print(printable(f"stichwort: error: the rules fail at play: {err}"), file=sys.stderr)
            return 1
        print(printable(f"stichwort: internal error ({type(err).__name__}: {err}); please report it"), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
