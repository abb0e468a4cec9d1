"""The analysis commands of `stichwort`: `compare` (rule files on the same deals) and `advise` (what each
call is worth for a hand). `add_commands` registers them on the CLI's subparsers; the CLI passes in
its usage-error type and helpers, so that bad input ends in a clear message and exit code 2."""
from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any


def add_commands(sub: Any, usage_error: type[Exception], console: Callable[[], Any],
                 read_options: Callable[[Any, Any], dict]) -> None:
    """`read_options(ruleset, pairs)` types and checks `--set name=value` pairs for a rule file."""
    def run_compare(args: Any) -> int:
        try:
            return _compare(args, console, read_options)
        except ValueError as err:
            raise usage_error(str(err)) from None

    def run_advise(args: Any) -> int:
        try:
            return _advise(args, console, read_options)
        except ValueError as err:
            raise usage_error(str(err)) from None

    c = sub.add_parser("compare", help="play the same deals under several rule files; differences with 95%% intervals")
    c.add_argument("targets", nargs="+", metavar="FILE|NAME", help="two or more rule files; the first is the base")
    c.add_argument("--deals", type=int, default=1000)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--bots", default="rule", metavar="BOTS",
                   help="one bot for every seat or one per seat, comma-separated: rule, random, search, search:N")
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--set", action="append", metavar="NAME=VALUE", help="a table option (for every rule file)")
    c.add_argument("--json", action="store_true", help="the figures as JSON")
    c.add_argument("--report", metavar="FILE.html", help="write a self-contained HTML page with charts")
    c.set_defaults(func=run_compare)

    a = sub.add_parser("advise", help="what each legal call earns for a hand, on average over sampled deals")
    a.add_argument("target", metavar="FILE|NAME")
    a.add_argument("--hand", required=True, help="the cards, e.g. \"AH KH 10S 7C …\"")
    a.add_argument("--seat", type=int, default=None, help="the seat holding the hand (default: the first to speak, after the cut)")
    a.add_argument("--dealer", type=int, default=None, help="the dealer (default: the one for whom --seat speaks first)")
    a.add_argument("--auction", default="", help="the calls so far, separated by ';', e.g. \"bid one; pass\"")
    a.add_argument("--deal", type=int, default=None,
                   help="the deal's number in the session, from 0 (default 0; where the hand changes from deal to "
                        "deal, the first deal with as many cards as --hand)")
    a.add_argument("--samples", type=int, default=24, help="sampled deals (default 24)")
    a.add_argument("--playouts", type=int, default=8, help="the search bot's playouts per decision after the call (default 8; 0: the rule bot plays on)")
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--workers", type=int, default=1,
                   help="processes to play the sampled deals out in (the answer is the same for any number)")
    a.add_argument("--uniform", action="store_true",
                   help="deal the other hands at random, without reading them from the calls of --auction")
    a.add_argument("--set", action="append", metavar="NAME=VALUE")
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=run_advise)


def _compare(args: Any, console: Callable[[], Any], read_options: Callable[[Any, Any], dict]) -> int:
    from interpreter.bots import parse_bots
    from interpreter.harness.compare import compare
    from interpreter.pipeline import load
    from interpreter.present.report import print_result, to_html

    if len(args.targets) < 2:
        raise ValueError("compare needs at least two rule files (the first is the base)")
    if args.deals < 2:
        raise ValueError("--deals must be at least 2 (intervals need two deals)")
    if args.workers < 1:
        raise ValueError("--workers must be at least 1")
    if args.report:
        from pathlib import Path

        folder = Path(args.report).expanduser().resolve().parent
        if not folder.is_dir():
            raise ValueError(f"--report: the folder {folder} does not exist")
    from interpreter.present.boundary import say_warnings

    warnings: list = []
    rulesets = [load(t, warnings=warnings) for t in args.targets]
    say_warnings(list({(d.file, d.span, d.code, d.message): d for d in warnings}.values()))
    options = [read_options(rs, args.set) for rs in rulesets][0]
    bots = parse_bots(args.bots, rulesets[0].seats)
    progress = None
    bar = None
    if not args.json and sys.stderr.isatty():
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        tasks = {t: bar.add_task(t, total=args.deals) for t in args.targets}
        progress = lambda t, done: bar.update(tasks[t], completed=done)
    try:
        result = compare(list(args.targets), args.deals, args.seed, bots, options, args.workers, progress,
                         keep_records=bool(args.report))
    finally:
        if bar:
            bar.stop()
    result.pop("_elapsed", None)
    if args.report:
        from interpreter.files import write_atomic

        write_atomic(args.report, to_html(result))
    result.pop("records", None)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print_result(result, console())
        if args.report:
            print(f"report written to {args.report}")
    return 0


def _advise(args: Any, console: Callable[[], Any], read_options: Callable[[Any, Any], dict]) -> int:
    from interpreter.bots.advise import advise, read_hand
    from interpreter.pipeline import load

    rs = load(args.target)
    options = read_options(rs, args.set)
    if args.samples < 2:
        raise ValueError("--samples must be at least 2")
    if args.playouts < 0:
        raise ValueError("--playouts must be 0 (the seat plays on with the rule bot) or more")
    if args.workers < 1:
        raise ValueError("--workers must be 1 or more")
    for name in ("seat", "dealer"):
        v = getattr(args, name)
        if v is not None and not 0 <= v < rs.seats:
            raise ValueError(f"--{name} must be a seat from 0 to {rs.seats - 1}")
    hand = read_hand(rs, args.hand)
    auction = [x.strip() for x in args.auction.split(";") if x.strip()]
    progress = None
    bar = None
    if not args.json and sys.stderr.isatty():           # the sampled deals, as they are played out
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        task = bar.add_task("sampled deals", total=args.samples)
        progress = lambda done: bar.update(task, completed=done)
    try:
        result = advise(rs, hand, seat=args.seat, dealer=args.dealer, auction=auction, samples=args.samples,
                        playouts=args.playouts, seed=args.seed, options=options, condition=not args.uniform,
                        deal_number=args.deal, progress=progress, workers=args.workers, target=args.target)
    finally:
        if bar:
            bar.stop()
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0
    from rich.table import Table

    con = console()
    deal = f", deal {result['deal']}" if result["deal"] or args.deal is not None else ""
    con.print(f"[bold]{rs.title}[/] — seat {result['seat']} (dealer {result['dealer']}{deal}) holding {' '.join(hand)}"
              + (f", after {'; '.join(auction)}" if auction else ""))
    t = Table("call", "mean value", "95% interval", "vs best")
    for r in result["calls"]:
        vs = "best" if r["vs_best"] == 0 and r is result["calls"][0] else f"{r['vs_best']:+.2f} ± {r['vs_best_half']:.2f}"
        t.add_row(r["action"], f"{r['mean']:+.2f}", f"[{r['low']:+.2f}, {r['high']:+.2f}]", vs)
    con.print(t)
    who = f"the search bot ({result['playouts']} playouts per decision)" if result["playouts"] else "the rule bot"
    con.print(f"{result['samples']} sampled deals (the same for every call); the seat plays on with {who}, "
              f"the others with rule bots")
    if result["conditioned"]:
        con.print(f"the other hands are read from the calls: {result['consistent']} of {result['samples']} deals "
                  f"explain every call a rule-bot model of the caller would have made (the rest explain the most)")
    return 0


def simulate_with_report(args: Any, options: dict, progress: Callable[[int], None] | None,
                         usage_error: type[Exception]) -> dict:
    """`simulate --report FILE.html`: the deals `simulate` plays, its summary (returned, printed by the CLI
    as usual) and a page with the contract mix, made rates and money per seat with 95% intervals."""
    from pathlib import Path

    from interpreter.files import write_atomic
    from interpreter.harness.compare import simulate_report
    from interpreter.present.report import to_html

    folder = Path(args.report).expanduser().resolve().parent
    if not folder.is_dir():
        raise usage_error(f"--report: the folder {folder} does not exist")
    summary, page = simulate_report(args.target, args.deals, args.seed, args.bots, options, args.workers, progress)
    if not page["per_target"]:
        raise usage_error("--report: no deal was played")
    write_atomic(args.report, to_html(page))
    if not args.json:
        print(f"report written to {args.report}", file=sys.stderr)
    return summary
