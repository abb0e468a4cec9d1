"""The `stichwort` command. Exit codes: 0 ok, 1 a rule or expectation failed, 2 bad usage or
unreadable input. No input ever produces a traceback."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import __version__
from .diagnostics import Diagnostic, DiagnosticError, render_all

UNREADABLE = {"E100", "E101", "E130"}


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
    from .pipeline import check
    from .resources import builtin_games

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
    from .pipeline import load

    return load(target)


def cmd_explain(args) -> int:
    from . import explain

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
    path = Path(output)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as err:
        raise DiagnosticError([Diagnostic("E100", f"cannot write file: {err.strerror or err}", output)]) from None


def cmd_convert(args) -> int:
    from . import writer
    from .loader import read_layer, resolve
    from .pipeline import check

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
    from .resources import schema

    _write_or_print(json.dumps(schema(), indent=1, ensure_ascii=False) + "\n", args.output)
    return 0


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
