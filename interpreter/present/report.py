"""Showing a comparison: terminal tables, and a self-contained HTML page with charts.

The page carries the same figures as `compare --json` (embedded as JSON and shown in its tables),
and charts drawn with matplotlib (the optional extra `stichwort[analysis]`) embedded as PNG data, so
the file can be mailed around on its own. Without matplotlib the page still has every table and says
what to install for the charts.
"""
from __future__ import annotations

import base64
import html
import io
import json
import math
from typing import Any


def fmt(x: float | None, digits: int = 3) -> str:
    if x is None:
        return "–"
    if isinstance(x, float) and not math.isfinite(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:+.{digits}f}"


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def interval(d: dict, key: str = "mean", as_pct: bool = False) -> str:
    """'value [low, high]' for a figure with its 95% interval."""
    f = pct if as_pct else fmt
    if d.get(key) is None:
        return "–"
    return f"{f(d[key])} [{f(d['low'])}, {f(d['high'])}]"


def _diff(d: dict, as_pct: bool = False) -> str:
    if d.get("mean") is None:
        return "–"
    if as_pct:
        text = f"{100 * d['mean']:+.1f} [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}] pts"
    else:
        text = f"{fmt(d['mean'])} [{fmt(d['low'])}, {fmt(d['high'])}]"
    return text + (" *" if d.get("significant") else "")


# ---- rows shared by the terminal and the page ------------------------------------------------------
def contract_rows(result: dict) -> tuple[list[str], list[list[str]]]:
    targets = result["targets"]
    names: list[str] = []
    for per in result["per_target"]:
        names += [c for c in per["contracts"] if c not in names]
    head = ["contract"]
    for k, t in enumerate(targets):
        head += [f"{t} share", f"{t} made"]
        if k:
            head += [f"Δ share ({t})"]
    rows = []
    for c in names:
        row = [c]
        for k, per in enumerate(result["per_target"]):
            rec = per["contracts"].get(c)
            row += [interval(rec["share"], "rate", True), interval(rec["made"], "rate", True)] if rec else ["–", "–"]
            if k:
                d = result["differences"][k - 1]["contracts"].get(c)
                row += [_diff(d["share"], True) if d else "–"]
        rows.append(row)
    return head, rows


def summary_rows(result: dict) -> tuple[list[str], list[list[str]]]:
    targets = result["targets"]
    head = ["figure"] + list(targets) + [f"{t} − {targets[0]}" for t in targets[1:]]
    rows: list[list[str]] = []

    def add(label: str, pick, diff_pick, as_pct: bool = False, key: str = "mean") -> None:
        row = [label] + [interval(pick(p), key, as_pct) for p in result["per_target"]]
        row += [_diff(diff_pick(d), as_pct) for d in result["differences"]]
        rows.append(row)

    add("all-pass rate", lambda p: p["all_pass"], lambda d: d["all_pass"], True, "rate")
    add("actions per deal", lambda p: p["deal_length"], lambda d: d["deal_length"])
    for s in range(result["seats"]):
        add(f"value, seat {s}", lambda p, s=s: p["value_per_seat"][s], lambda d, s=s: d["value_per_seat"][s])
    for role in ("first seat", "dealer", "declarer"):
        add(f"value, {role}", lambda p, r=role: p["value_per_role"][r], lambda d, r=role: d["value_per_role"][r])
    return head, rows


def print_result(result: dict, console: Any) -> None:
    from rich.table import Table

    console.print(f"[bold]{' vs '.join(result['targets'])}[/] — {result['deals']} deals each (the same cards), "
                  f"seed {result['seed']}, bots {','.join(result['bots'])}; value = {result['measure']}")
    for head, rows in (contract_rows(result), summary_rows(result)):
        t = Table(*head)
        for r in rows:
            t.add_row(*r)
        console.print(t)
    console.print("95% intervals in brackets; * marks a significant difference: for shares and the all-pass rate "
                  "the exact sign test on the deals that differ gives p < 0.05, for the other figures the interval "
                  "excludes zero")
    if result["findings"]:
        console.print("[bold]significant differences[/]")
        for line in result["findings"]:
            console.print(f"  • {line}")
    else:
        console.print("no significant difference at this number of deals")


# ---- charts ------------------------------------------------------------------------------------
def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def charts(result: dict) -> list[tuple[str, str]] | None:
    """(caption, base64 PNG) pairs, or None without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    targets = result["targets"]
    per = result["per_target"]
    names: list[str] = []
    for p in per:
        names += [c for c in p["contracts"] if c not in names]
    out = []
    width = 0.8 / max(1, len(targets))

    def bars(ax: Any, values: list[list[dict]], key: str) -> None:
        for k, t in enumerate(targets):
            xs = [i + k * width for i in range(len(names))]
            ys = [v[k][key] if v[k] and v[k][key] is not None else 0 for v in values]
            lo = [max(0.0, y - (v[k]["low"] if v[k] and v[k]["low"] is not None else y)) for y, v in zip(ys, values)]
            hi = [max(0.0, (v[k]["high"] if v[k] and v[k]["high"] is not None else y) - y) for y, v in zip(ys, values)]
            ax.bar(xs, ys, width, yerr=[lo, hi], capsize=2, label=t)
        ax.set_xticks([i + width * (len(targets) - 1) / 2 for i in range(len(names))])
        ax.set_xticklabels(names, rotation=45, ha="right")
        ax.legend()

    if names:
        fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(names) * len(targets)), 3.5))
        bars(ax, [[p["contracts"].get(c, {}).get("share") for p in per] for c in names], "rate")
        ax.set_ylabel("share of deals")
        out.append(("Contract mix (share of deals, 95% intervals)", _png(fig)))
        fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(names) * len(targets)), 3.5))
        bars(ax, [[p["contracts"].get(c, {}).get("made") for p in per] for c in names], "rate")
        ax.set_ylabel("made rate")
        ax.set_ylim(0, 1.05)
        out.append(("Made rate per contract (95% intervals)", _png(fig)))
    records = result.get("records")
    if records:
        seats = result["seats"]
        fig, ax = plt.subplots(figsize=(max(6, 1.2 * seats * len(targets)), 3.5))
        data, labels = [], []
        for s in range(seats):
            for t, recs in zip(targets, records):
                data.append([r["value"][s] for r in recs])
                labels.append(f"seat {s}\n{t}")
        ax.boxplot(data, showfliers=False)
        ax.set_xticks(range(1, len(labels) + 1))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("value per deal")
        out.append(("Distribution of each seat's value per deal (boxes: quartiles; whiskers: 1.5 IQR)", _png(fig)))
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for k, (t, p) in enumerate(zip(targets, per)):
        xs = [s + k * width for s in range(result["seats"])]
        ms = [v["mean"] for v in p["value_per_seat"]]
        err = [[m - v["low"] for m, v in zip(ms, p["value_per_seat"])], [v["high"] - m for m, v in zip(ms, p["value_per_seat"])]]
        ax.bar(xs, ms, width, yerr=err, capsize=3, label=t)
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_xticks([s + width * (len(targets) - 1) / 2 for s in range(result["seats"])])
    ax.set_xticklabels([f"seat {s}" for s in range(result["seats"])])
    ax.set_ylabel("mean value per deal")
    ax.legend()
    out.append(("Mean value per seat (95% intervals)", _png(fig)))
    return out


# ---- the page ----------------------------------------------------------------------------------
_CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:90%}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.sig{font-weight:bold;color:#a40}
figure{margin:1.5em 0}figcaption{font-size:90%;color:#555}.note{color:#555}"""


def _table(head: list[str], rows: list[list[str]]) -> str:
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for r in rows:
        cells = []
        for c in r:
            cls = ' class="sig"' if c.endswith(" *") else ""
            cells.append(f"<td{cls}>{html.escape(c)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def to_html(result: dict) -> str:
    """The whole page as one string."""
    public = {k: v for k, v in result.items() if k != "records" and not k.startswith("_")}
    title = " vs ".join(result["targets"])
    single = result.get("kind") == "simulate"       # `simulate --report`: one rule file, no differences
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>stichwort {'simulate' if single else 'compare'}: "
             f"{html.escape(title)}</title>",
             f"<style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>",
             f"<p>{result['deals']} deals under each rule file, the same cards and dealer deal by deal (seed "
             f"{result['seed']}); bots per seat: {html.escape(', '.join(result['bots']))}. Value = "
             f"{html.escape(result['measure'])}. Brackets give 95% intervals; differences are paired deal by deal "
             f"and marked * (bold) where the interval excludes zero.</p>" if not single else
             f"<p>{result['deals']} deals of {html.escape(result['titles'][0])} as <code>simulate</code> plays them "
             f"(seed {result['seed']}); bots per seat: {html.escape(', '.join(result['bots']))}. Value = "
             f"{html.escape(result['measure'])}. Brackets give 95% intervals (Wilson for rates).</p>"]
    if single:
        pass
    elif result["findings"]:
        parts.append("<h2>Significant differences</h2><ul>" +
                     "".join(f"<li>{html.escape(x)}</li>" for x in result["findings"]) + "</ul>")
    else:
        parts.append("<h2>Significant differences</h2><p>None at this number of deals.</p>")
    parts.append("<h2>Contracts</h2>" + _table(*contract_rows(result)))
    parts.append("<h2>Deals and seats</h2>" + _table(*summary_rows(result)))
    pics = charts(result)
    parts.append("<h2>Charts</h2>")
    if pics is None:
        parts.append("<p class='note'>Charts need matplotlib: <code>pip install 'stichwort[analysis]'</code>. "
                     "The tables above have every figure.</p>")
    else:
        for caption, data in pics:
            parts.append(f"<figure><img alt='{html.escape(caption)}' src='data:image/png;base64,{data}'>"
                         f"<figcaption>{html.escape(caption)}</figcaption></figure>")
    data = json.dumps(public, ensure_ascii=False).replace("</", "<\\/")
    parts.append(f"<script type='application/json' id='stichwort-data'>{data}</script>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def embedded_data(page: str) -> dict:
    """The figures a page carries (the same as `compare --json`)."""
    start = page.index("id='stichwort-data'>") + len("id='stichwort-data'>")
    end = page.index("</script>", start)
    return json.loads(page[start:end].replace("<\\/", "</"))


# ---- simulate ----------------------------------------------------------------------------------
def _moments_table(title: str, rows: list[dict], by_player: bool = False) -> Any:
    """Mean and spread per seat; `by_player`: per player (numbered from 1), who change seats between sits."""
    from rich.table import Table

    t = Table("player" if by_player else "seat", title, "spread (sd)")
    for row in rows:
        t.add_row(str(row["seat"] + 1 if by_player else row["seat"]), f"{row['mean']:+.3f}", f"{row['stdev']:.3f}")
    return t


def sheet_scored(summary: dict) -> bool:
    """No money moves in any deal, but score accounts do: the game is scored on a sheet."""
    still = all(r["mean"] == 0 and r["stdev"] == 0 for r in summary.get("money_per_seat", []))
    return still and bool(summary.get("accounts_per_seat"))


def print_simulation(summary: dict, rs: Any, bots: str, seed: int, workers: int, elapsed: float, con: Any) -> None:
    """The terminal report of `simulate`: contract mix, then money per seat, or, for a game scored only
    on a sheet, what each score account gains per seat and deal."""

    con.print(f"[bold]{rs.title}[/] — {summary['deals']} deals, seed {seed}, {bots} bots")
    n = summary["deals"]
    con.print(_rows_table("contract", summary["contracts"], n))
    if summary.get("levels"):
        con.print(_rows_table("level", summary["levels"], n))
    con.print(f"all-pass rate: {100 * summary['all_pass_rate']:.1f}%   actions per deal: {summary['actions_per_deal']}")
    if sheet_scored(summary):
        con.print("no money changes hands in a deal: the game is scored on a sheet; per seat and deal:")
        titles = {name: (acc or {}).get("title") or name for name, acc in (rs.doc.get("account") or {}).items()}
        for name, rows in summary["accounts_per_seat"].items():
            con.print(_moments_table(f"mean {titles.get(name, name)} per deal", rows))
    else:
        con.print(_moments_table("mean money per deal", summary["money_per_seat"]))
    con.print(f"{rate_text(n / max(elapsed, 1e-9))} deals per second ({workers} worker{'s' if workers > 1 else ''})")


def _rows_table(head: str, rows: dict, n: int) -> Any:
    """Rows of played and made (by contract, or by the final call's level): count, share of the deals, made, made %."""
    from rich.table import Table

    gains = any("declarer_mean" in c for c in rows.values())
    t = Table(head, "played", "share", "made", "made %", *(["declarer's side, mean per deal"] if gains else []))
    for name, c in rows.items():
        judged = c.get("judged", c["played"])
        cells = [name, str(c["played"]), f"{100 * c['played'] / n:.1f}%", "–" if c["made"] is None else str(c["made"]),
                 "–" if c["made"] is None or not judged else f"{100 * c['made'] / judged:.1f}%"]
        if gains:
            cells.append(f"{c['declarer_mean']:+.1f}" if "declarer_mean" in c else "–")
        t.add_row(*cells)
    return t


def rate_text(rate: float) -> str:
    """A rate for people: whole numbers from 10 up, two significant figures below (a search bot's 0.16
    deals per second is not 0), and seconds per deal below one a minute."""
    if rate >= 10:
        return f"{rate:,.0f}"
    if rate >= 1 / 60:
        return f"{rate:.2g}"
    return f"{rate:.2g} (a deal every {1 / rate:,.0f} s)"


def balance_line(summary: dict) -> str:
    """What the seats' results add up to, with what the table accounts keep (harness/balance.py): zero-sum
    money is checked, results entered seat by seat (scores) are only summed."""
    from interpreter.harness.balance import sentence

    return sentence(summary)


def _print_protocol(summary: dict, rs: Any, max_deals: int, seed: int, con: Any) -> None:
    """A partnership game in sits: the first session's written protocol, that session played again
    (seeded, so the same)."""
    from rich.markup import escape

    from interpreter.backends import compile_rules
    from interpreter.harness.runner import play_session
    from interpreter.present.protocol import has_protocol, protocol_lines

    options = dict(summary.get("options") or {})
    if not has_protocol(compile_rules(rs, options)):
        return
    sess, _ = play_session(rs, options, seed, 0, max_deals, summary.get("bots", "rule"))
    con.print("\nthe first session's protocol:")
    for line in protocol_lines(sess):
        con.print(escape(line))


def print_sessions(summary: dict, rs: Any, max_deals: int, seed: int, elapsed: float, con: Any) -> None:
    con.print(f"[bold]{rs.title}[/] — {summary['sessions']} sessions of up to {max_deals} deals, seed {seed}")
    con.print(f"mean deals per session {summary['mean_deals']}; {summary['ended_by_rule']} ended by the game's own rule")
    con.print(_moments_table("mean result per session", summary["result_per_seat"], bool(summary.get("sits"))))
    if summary.get("sits"):
        bench = summary.get("sat_out_per_player") or []
        con.print(f"{summary['sits']} sits" + ("; sits on the bench per player: "
                                                + ", ".join(f"{p + 1}: {k}" for p, k in enumerate(bench)) if bench else ""))
        order = summary.get("bench_first_session") or []
        if any(order):
            con.print("first session, on the bench sit by sit: "
                      + " ".join("/".join(str(p + 1) for p in b) or "–" for b in order))
        _print_protocol(summary, rs, max_deals, seed, con)
    con.print(f"{balance_line(summary)}; {summary['sessions'] / max(elapsed, 1e-9):.1f} sessions per second")
