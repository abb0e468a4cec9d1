#!/usr/bin/env python3
"""Front-end speed, measured (never asserted): parse + check + compile of a rule file.

By default it takes the largest built-in game, counting the bytes of its whole `extends` chain.

    python tools/bench_frontend.py [NAME] [--warm N] [--cold K] [--why | --no-why]

warm  in this process, after one warm-up run: the parser is built and cached
      (functools.lru_cache in interpreter/parser.py), expressions are cached by text. Also shown
      stage by stage, and once more with the expression cache cleared before every run.
cold  a fresh `python -c` process per run, imports included, as `stichwort validate NAME` pays it.
      Broken down inside the child: interpreter start-up, imports, building the LALR parser, and
      the check itself.

When the cold mean is above 500 ms (or with --why), it also shows where the time goes: the
slowest imports (python -X importtime) and what the parser build costs with other Lark options.
The figures are printed; the exit code is 0 whatever they are (1 only if the game is invalid).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

COLD_BUDGET_MS = 500.0

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from interpreter import pipeline
from interpreter.language import parser
t1 = time.perf_counter()
parser.get_parser()
t2 = time.perf_counter()
report = pipeline.check(sys.argv[1])
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "parser": t2 - t1, "check": t3 - t2, "ok": report.ok}))
"""

LARK_BUILD = r"""
import json, sys, time
from lark import Lark
from interpreter.resources import grammar_text
kw = json.loads(sys.argv[1])
text = grammar_text()
t0 = time.perf_counter()
Lark(text, parser="lalr", start=["start", "expr_start"], propagate_positions=True, maybe_placeholders=False, **kw)
print(json.dumps({"build": time.perf_counter() - t0}))
"""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f}"


def chain_size(name: str) -> tuple[int, list[str]]:
    from interpreter.language.loader import load

    loaded = load(name)
    return sum(len(t.encode("utf-8")) for t in loaded.sources.values()), list(loaded.chain)


def largest_game() -> tuple[str, int, list[str]]:
    from interpreter.resources import builtin_games

    best = None
    for name in builtin_games():
        try:
            size, chain = chain_size(name)
        except Exception:  # an invalid or half-written game elsewhere in the tree: skip it
            continue
        if best is None or size > best[1]:
            best = (name, size, chain)
    if best is None:
        raise SystemExit("no built-in game could be read")
    return best


def child_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def warm(name: str, runs: int) -> dict:
    from interpreter import checks, pipeline
    from interpreter.checks import schema
    from interpreter.language import expressions
    from interpreter.language.loader import load
    from interpreter.language.parser import parse
    from interpreter.model.ruleset import compile_ruleset

    report = pipeline.check(name)  # warm-up: builds and caches the parser
    if not report.ok:
        raise SystemExit(f"{name} is not valid; run: stichwort validate {name}")
    texts = list(report.sources.items())

    def timed(fn, clear=False):
        out = []
        for _ in range(runs):
            if clear:
                expressions._parse_cached.cache_clear()
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
        return out

    rows = {"total": timed(lambda: pipeline.check(name)),
            "total, expression cache cleared": timed(lambda: pipeline.check(name), clear=True)}
    stages = {"parse (Lark, every file of the chain)": [], "load (read, parse, build, merge)": [],
              "schema": [], "checks": [], "compile": []}
    for _ in range(runs):
        t0 = time.perf_counter()
        for path, text in texts:
            parse(text, path)
        t1 = time.perf_counter()
        loaded = load(name)
        t2 = time.perf_counter()
        schema.check(loaded.doc, loaded.origins)
        t3 = time.perf_counter()
        checks.run(loaded.doc, loaded.origins)
        t4 = time.perf_counter()
        compile_ruleset(loaded)
        t5 = time.perf_counter()
        for key, v in zip(stages, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
            stages[key].append(v)
    rows.update(stages)
    return rows


def cold(name: str, runs: int) -> dict:
    rows = {"wall (python start to exit)": [], "  interpreter start-up and exit": [], "  imports": [],
            "  building the LALR parser": [], "  check (parse, schema, checks, compile)": []}
    for _ in range(runs):
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CHILD, name], capture_output=True, text=True,
                             cwd=ROOT, env=child_env())
        wall = time.perf_counter() - t
        if out.returncode != 0:
            raise SystemExit(f"the cold run failed:\n{out.stderr}")
        inner = json.loads(out.stdout.strip().splitlines()[-1])
        rows["wall (python start to exit)"].append(wall)
        rows["  interpreter start-up and exit"].append(wall - inner["import"] - inner["parser"] - inner["check"])
        rows["  imports"].append(inner["import"])
        rows["  building the LALR parser"].append(inner["parser"])
        rows["  check (parse, schema, checks, compile)"].append(inner["check"])
    return rows


def table(title: str, rows: dict) -> None:
    print(f"\n{title}")
    width = max(len(k) for k in rows) + 2
    print(f"  {'':<{width}} {'mean ms':>8} {'min ms':>8}")
    for key, values in rows.items():
        print(f"  {key:<{width}} {ms(statistics.mean(values))} {ms(min(values))}")


def import_costs(top: int = 8) -> list[tuple[str, float]]:
    """Cumulative import time per top-level package (python -X importtime), largest first."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import interpreter.pipeline"],
                         capture_output=True, text=True, cwd=ROOT, env=child_env())
    per_package: dict[str, float] = {}
    for line in out.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        try:
            _, self_us, _cumulative, module = (p.strip() for p in line.replace("import time:", "|").split("|"))
            own = int(self_us)
        except ValueError:
            continue
        package = module.strip().split(".")[0]
        per_package[package] = per_package.get(package, 0) + own / 1e6
    return sorted(per_package.items(), key=lambda kv: -kv[1])[:top]


def lark_build(options: dict) -> float:
    out = subprocess.run([sys.executable, "-c", LARK_BUILD, json.dumps(options)], capture_output=True, text=True,
                         cwd=ROOT, env=child_env())
    if out.returncode != 0:
        return float("nan")
    return json.loads(out.stdout.strip().splitlines()[-1])["build"]


def parse_positions(name: str, runs: int) -> tuple[float, float]:
    """Warm parse time of the chain's files (mean) with positions propagated (as now) and without."""
    from lark import Lark

    from interpreter.language.loader import load
    from interpreter.language.parser import get_parser
    from interpreter.resources import grammar_text

    texts = list(load(name).sources.values())
    bare = Lark(grammar_text(), parser="lalr", start=["start", "expr_start"], propagate_positions=False,
                maybe_placeholders=False)
    out = []
    for p in (get_parser(), bare):
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            for text in texts:
                p.parse(text, start="start")
            times.append(time.perf_counter() - t)
        out.append(statistics.mean(times))
    return out[0], out[1]


def why(name: str, runs: int) -> None:
    print("\nwhere the cold time goes")
    print("  imports, own time per top-level package (python -X importtime):")
    for package, seconds in import_costs():
        print(f"    {package:<28} {ms(seconds)} ms")
    print("  building the parser (mean of a few fresh processes) with the options of interpreter/parser.py,")
    print("  and with others:")
    with tempfile.TemporaryDirectory() as tmp:
        cache = str(Path(tmp) / "stichwort.lark.cache")
        variants = [("strict=True (as now)", {"strict": True}),
                    ("strict=False", {"strict": False}),
                    ("cache=FILE, first run (writes it)", {"strict": True, "cache": cache}),
                    ("cache=FILE, later runs (reads it)", {"strict": True, "cache": cache})]
        for label, options in variants:
            n = 1 if "first run" in label else max(runs, 2)
            times = [lark_build(options) for _ in range(n)]
            print(f"    {label:<36} {ms(statistics.mean(times))} ms")
    with_pos, without = parse_positions(name, max(runs, 3))
    print("  parsing the chain's files, warm: with positions (as now) "
          f"{ms(with_pos).strip()} ms, without {ms(without).strip()} ms")
    print("  proposals (not implemented here):")
    print("   - ship the LALR tables: build the parser once at release time (Lark.save, or lark's cache")
    print("     option pointed at a file inside the package) and load it at start-up; Lark.load is a few ms.")
    print("     Avoid lark's cache=True in a shared temp directory: it unpickles what it finds there.")
    print("     This also skips interegular's terminal-collision check, which lark runs for every state of")
    print("     the contextual lexer whenever interegular is installed, strict or not (so strict=False alone")
    print("     saves nothing: compare the first two build lines).")
    print("   - warm parsing: most of it is Lark's tree building with propagate_positions=True, one reduction per")
    print("     precedence level for every atom of an expression; positions only matter for diagnostics, so")
    print("     parse without them and re-parse with them only when a diagnostic needs a place.")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name", nargs="?", help="a built-in game or rule file (default: the largest built-in game)")
    ap.add_argument("--warm", type=int, default=10, metavar="N", help="in-process runs after a warm-up (10)")
    ap.add_argument("--cold", type=int, default=5, metavar="K", help="fresh-process runs (5)")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--why", action="store_true", help="always show where the cold time goes")
    group.add_argument("--no-why", action="store_true", help="never show it")
    args = ap.parse_args(argv)
    if args.warm < 1 or args.cold < 1:
        ap.error("--warm and --cold must be at least 1")

    if args.name:
        name = args.name
        size, chain = chain_size(name)
    else:
        name, size, chain = largest_game()
    print(f"front end: parse + check + compile of '{name}' ({size / 1024:.1f} KiB in {len(chain)} "
          f"file{'s' if len(chain) != 1 else ''}: {' → '.join(chain)})")
    load = f", load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else ""
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus{load} (other work on the machine inflates every figure)")

    warm_rows = warm(name, args.warm)
    table(f"warm, in process ({args.warm} runs after a warm-up)", warm_rows)
    cold_rows = cold(name, args.cold)
    table(f"cold, fresh process ({args.cold} runs)", cold_rows)
    cold_mean = statistics.mean(cold_rows["wall (python start to exit)"]) * 1000
    print(f"\ncold mean {cold_mean:.0f} ms; the budget is {COLD_BUDGET_MS:.0f} ms "
          f"({'within' if cold_mean <= COLD_BUDGET_MS else 'above'} it)")
    if args.why or (cold_mean > COLD_BUDGET_MS and not args.no_why):
        why(name, max(args.cold // 2, 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
