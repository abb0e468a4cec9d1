"""Comparing rule files on the same deals: what does a house rule change?

Deal i (deal number i) is dealt from random.Random(f"{seed}:{i}") with dealer i mod seats under every rule file
(so the cards are the same, as in `simulate`), and seat s's bot draws from f"{seed}:{i}:{s}". Every
figure comes with a 95% interval (normal approximation; Wilson for rates), and each rule file after
the first is compared with the first deal by deal (paired differences), which removes the noise of
the cards. A difference is flagged significant when its interval excludes zero; for shares and the
all-pass rate (0/1 per deal) when the exact sign test on the deals that differ gives p < 0.05.

The value of a deal to a seat is its money, or for games that keep a score sheet the change in the
session's final reckoning (see interpreter/bots/value.py): the same measure the search bot optimises.
"""
from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from interpreter.harness.batch import final_level, made_or_none

Z95 = 1.959963984540054


# ---- statistics ---------------------------------------------------------------------------------
def mean_ci(values: Sequence[float]) -> dict:
    """Mean with its 95% interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "n": 0}
    m = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.inf
    return {"mean": _r(m), "low": _r(m - half), "high": _r(m + half), "n": n}


def rate_ci(k: int, n: int) -> dict:
    """A proportion k/n with its 95% Wilson interval."""
    if n == 0:
        return {"rate": None, "low": None, "high": None, "k": 0, "n": 0}
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return {"rate": _r(p), "low": _r(max(0.0, centre - half)), "high": _r(min(1.0, centre + half)), "k": k, "n": n}


def diff_ci(a: Sequence[float], b: Sequence[float], paired: bool = True) -> dict:
    """b − a with its 95% interval: paired (deal by deal) or, for unequal samples, Welch's."""
    if paired:
        out = mean_ci([y - x for x, y in zip(a, b)])
    else:
        na, nb = len(a), len(b)
        if na < 2 or nb < 2:
            return {"mean": None, "low": None, "high": None, "n": min(na, nb), "significant": False}
        m = statistics.fmean(b) - statistics.fmean(a)
        half = Z95 * math.sqrt(statistics.variance(a) / na + statistics.variance(b) / nb)
        out = {"mean": _r(m), "low": _r(m - half), "high": _r(m + half), "n": min(na, nb)}
    lo, hi = out["low"], out["high"]
    out["significant"] = lo is not None and hi is not None and math.isfinite(lo) and math.isfinite(hi) and (lo > 0 or hi < 0)
    return out


def sign_test(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided exact p-value of the paired sign test (McNemar's exact test for 0/1 outcomes): among
    the pairs that differ, are increases and decreases equally likely?"""
    up = sum(1 for x, y in zip(a, b) if y > x)
    down = sum(1 for x, y in zip(a, b) if y < x)
    n = up + down
    if n == 0:
        return 1.0
    k = min(up, down)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def paired_rate_diff(a: Sequence[float], b: Sequence[float]) -> dict:
    """b − a for 0/1 outcomes paired by deal: the interval of the mean difference, and significance by
    the exact sign test, which stays honest when only a handful of deals differ."""
    out = diff_ci(a, b)
    out["p"] = _r(sign_test(a, b))
    out["significant"] = out["p"] < 0.05
    return out


def _r(x: float) -> float:
    return round(x, 6) if math.isfinite(x) else x


# ---- playing the deals ---------------------------------------------------------------------------
def _play(rs: Any, options: dict, seed: int, i: int, bots: list[str]) -> dict:
    from interpreter.bots import make_bot
    from interpreter.bots.value import deal_values
    from interpreter.engine import new_game

    dealer = i % rs.seats
    st = new_game(rs, seed=f"{seed}:{i}", options=options, dealer=dealer,  # type: ignore[arg-type]  # random.Random takes a str
                  deal_number=i)
    start = st.clone()
    players = [make_bot(bots[s], f"{seed}:{i}:{s}") for s in range(rs.seats)]
    while not st.is_over():
        st.apply_unchecked(players[st.current_player()].choose(st))
    r = st.result()
    forehand = next(s for k in range(1, rs.seats + 1) if (s := (dealer + k) % rs.seats) in st.active)
    return {"i": i, "contract": r["contract"], "declarer": r["declarer"], "made": made_or_none(st, r),
            "all_passed": bool(r["all_passed"]), "dealer": dealer, "forehand": forehand,
            "actions": len(st.log), "value": [round(v, 9) for v in deal_values(start, st)]}


_LOADED: dict = {}


def _chunk(args: tuple) -> list[dict]:
    from interpreter.pipeline import load

    target, options, seed, indices, bots = args
    if target not in _LOADED:
        _LOADED[target] = load(target)
    rs = _LOADED[target]
    return [_play(rs, options, seed, i, bots) for i in indices]


def pairing_problem(rulesets: list[Any]) -> str | None:
    """Why these rule files cannot be played on the same deals, or None."""
    first = rulesets[0]
    for rs in rulesets[1:]:
        if rs.seats != first.seats:
            return f"{first.name} has {first.seats} seats and {rs.name} {rs.seats}: the deals cannot be the same"
        if [c.code for c in rs.cards] != [c.code for c in first.cards]:
            return f"{first.name} and {rs.name} use different decks: the deals cannot be the same"
        if rs.doc.get("deal") != first.doc.get("deal"):
            return f"{first.name} and {rs.name} deal differently: the deals cannot be the same"
    return None


def play_all(target: str, deals: int, seed: int, bots: list[str], options: dict, workers: int = 1,
             progress: Callable[[int], None] | None = None) -> list[dict]:
    indices = list(range(deals))
    records: list[dict] = []
    if workers <= 1:
        step = max(1, deals // 50)
        for lo in range(0, deals, step):
            records += _chunk((target, options, seed, indices[lo:lo + step], bots))
            if progress:
                progress(len(records))
    else:
        import concurrent.futures as cf

        size = max(1, math.ceil(deals / (workers * 8)))
        chunks = [indices[k:k + size] for k in range(0, deals, size)]
        with cf.ProcessPoolExecutor(max_workers=workers) as pool:
            for part in pool.map(_chunk, [(target, options, seed, c, bots) for c in chunks]):
                records += part
                if progress:
                    progress(len(records))
    records.sort(key=lambda r: r["i"])
    return records


# ---- summaries -----------------------------------------------------------------------------------
def summarise(records: list[dict], seats: int) -> dict:
    n = len(records)
    names = sorted({r["contract"] for r in records if r["contract"]},
                   key=lambda c: (-sum(1 for r in records if r["contract"] == c), c))
    contracts = {}
    for c in names:
        played = [r for r in records if r["contract"] == c]
        judged = [r for r in played if r["made"] is not None]     # nobody declares it: neither made nor lost
        contracts[c] = {"share": rate_ci(len(played), n),
                        "made": rate_ci(sum(1 for r in judged if r["made"]), len(judged))}
    return {
        "deals": n,
        "contracts": contracts,
        "all_pass": rate_ci(sum(1 for r in records if r["all_passed"]), n),
        "made": rate_ci(sum(1 for r in records if r["made"]), sum(1 for r in records if r["made"] is not None)),
        "deal_length": mean_ci([r["actions"] for r in records]),
        "value_per_seat": [mean_ci([r["value"][s] for r in records]) for s in range(seats)],
        "value_per_role": {
            "first seat": mean_ci([r["value"][r["forehand"]] for r in records]),
            "dealer": mean_ci([r["value"][r["dealer"]] for r in records]),
            "declarer": mean_ci([r["value"][r["declarer"]] for r in records if r["declarer"] is not None]),
        },
    }


def differences(base: list[dict], other: list[dict], seats: int) -> dict:
    """other − base, deal by deal where both have the figure."""
    names = sorted({r["contract"] for r in base + other if r["contract"]})
    contracts = {}
    for c in names:
        share = paired_rate_diff([float(r["contract"] == c) for r in base], [float(r["contract"] == c) for r in other])
        made = diff_ci([float(bool(r["made"])) for r in base if r["contract"] == c and r["made"] is not None],
                       [float(bool(r["made"])) for r in other if r["contract"] == c and r["made"] is not None],
                       paired=False)
        contracts[c] = {"share": share, "made": made}
    return {
        "contracts": contracts,
        "all_pass": paired_rate_diff([float(r["all_passed"]) for r in base], [float(r["all_passed"]) for r in other]),
        "deal_length": diff_ci([r["actions"] for r in base], [r["actions"] for r in other]),
        "value_per_seat": [diff_ci([r["value"][s] for r in base], [r["value"][s] for r in other]) for s in range(seats)],
        "value_per_role": {
            "first seat": diff_ci([r["value"][r["forehand"]] for r in base], [r["value"][r["forehand"]] for r in other]),
            "dealer": diff_ci([r["value"][r["dealer"]] for r in base], [r["value"][r["dealer"]] for r in other]),
            "declarer": diff_ci([r["value"][r["declarer"]] for r in base if r["declarer"] is not None],
                                [r["value"][r["declarer"]] for r in other if r["declarer"] is not None], paired=False),
        },
    }


def significant_findings(diffs: dict, label: str) -> list[str]:
    """Plain sentences for the differences whose interval excludes zero."""
    out = []

    def say(what: str, d: dict, pct: bool = False) -> None:
        if d.get("significant"):
            f = (lambda x: f"{100 * x:+.1f} points") if pct else (lambda x: f"{x:+.3f}")
            test = f"; sign test p = {d['p']:.2g}" if "p" in d else ""
            out.append(f"{label}: {what} {f(d['mean'])} (95% interval {f(d['low'])} … {f(d['high'])}{test})")

    for c, d in diffs["contracts"].items():
        say(f"share of {c}", d["share"], pct=True)
        say(f"made rate of {c}", d["made"], pct=True)
    say("all-pass rate", diffs["all_pass"], pct=True)
    say("actions per deal", diffs["deal_length"])
    for s, d in enumerate(diffs["value_per_seat"]):
        say(f"value for seat {s}", d)
    for role, d in diffs["value_per_role"].items():
        say(f"value for the {role}", d)
    return out


def compare(targets: list[str], deals: int, seed: int, bots: list[str], options: dict | None = None,
            workers: int = 1, progress: Callable[[str, int], None] | None = None,
            keep_records: bool = False) -> dict:
    """Play the same `deals` under each rule file and compare each with the first."""
    from interpreter.pipeline import load

    rulesets = [load(t) for t in targets]
    problem = pairing_problem(rulesets)
    if problem:
        raise ValueError(problem)
    seats = rulesets[0].seats
    opts = dict(options or {})
    t0 = time.perf_counter()
    all_records = []
    for t in targets:
        cb = (lambda done, t=t: progress(t, done)) if progress else None
        all_records.append(play_all(t, deals, seed, bots, opts, workers, cb))
    per = [summarise(r, seats) for r in all_records]
    out: dict = {"targets": list(targets), "titles": [rs.title for rs in rulesets], "deals": deals, "seed": seed,
                 "bots": list(bots), "options": opts, "seats": seats, "measure": "money or score per deal",
                 "per_target": per, "differences": [], "findings": []}
    for t, recs in zip(targets[1:], all_records[1:]):
        d = differences(all_records[0], recs, seats)
        d["target"] = t
        out["differences"].append(d)
        out["findings"] += significant_findings(d, f"{t} − {targets[0]}")
    if keep_records:
        out["records"] = all_records
    out["_elapsed"] = time.perf_counter() - t0
    return out


# ---- bots against bots ---------------------------------------------------------------------------
def _margin_chunk(args: tuple) -> list[dict]:
    from interpreter.bots import make_bot
    from interpreter.bots.value import deal_values
    from interpreter.engine import new_game
    from interpreter.pipeline import load

    target, options, seed, indices, kinds, others = args
    if target not in _LOADED:
        _LOADED[target] = load(target)
    rs = _LOADED[target]
    out = []
    for i in indices:
        seat = i % rs.seats
        row: dict = {"i": i, "seat": seat}
        for kind in kinds:
            st = new_game(rs, seed=f"{seed}:{i}", options=options, dealer=i % rs.seats,  # type: ignore[arg-type]
                          deal_number=i)
            start = st.clone()
            bots = [make_bot(kind if s == seat else others, f"{seed}:{i}:{s}") for s in range(rs.seats)]
            while not st.is_over():
                st.apply_unchecked(bots[st.current_player()].choose(st))
            row[kind] = deal_values(start, st)[seat]
        out.append(row)
    return out


def bot_margin(target: str, deals: int, seed: int, kinds: list[str], others: str = "rule",
               options: dict | None = None, workers: int = 1) -> dict:
    """How much better each bot in `kinds` plays one seat than the next one in the list, on the same deals.

    Deal i (deal number i, dealer i mod seats) is played once per bot kind: seat i mod seats by that bot,
    the other seats by `others`.
    Returns each kind's mean value for that seat and, for consecutive kinds, the paired difference."""
    opts = dict(options or {})
    indices = list(range(deals))
    if workers <= 1:
        rows = _margin_chunk((target, opts, seed, indices, kinds, others))
    else:
        import concurrent.futures as cf

        size = max(1, math.ceil(deals / (workers * 8)))
        chunks = [indices[k:k + size] for k in range(0, deals, size)]
        rows = []
        with cf.ProcessPoolExecutor(max_workers=workers) as pool:
            for part in pool.map(_margin_chunk, [(target, opts, seed, c, kinds, others) for c in chunks]):
                rows += part
    rows.sort(key=lambda r: r["i"])
    return {"rules": target, "deals": deals, "seed": seed, "others": others,
            "value": {k: mean_ci([r[k] for r in rows]) for k in kinds},
            "margins": [dict(diff_ci([r[b] for r in rows], [r[a] for r in rows]), better=a, than=b)
                        for a, b in zip(kinds, kinds[1:])]}


# ---- one rule file, as `simulate` plays it (for `simulate --report`) -------------------------------
def _sim_chunk(args: tuple) -> list[dict]:
    """The deals of `simulate` (the same deal and bot seeds as harness/runner.play_one), each kept as a
    record: the figures `simulate` folds (money exact) and the value of the deal to each seat."""
    import random

    from interpreter.bots.value import deal_values
    from interpreter.engine import deal_cards
    from interpreter.engine.rules import compile_rules
    from interpreter.engine.state import State
    from interpreter.harness import sheet
    from interpreter.harness.logs import jsonable
    from interpreter.harness.runner import _bot
    from interpreter.pipeline import load

    target, options, seed, indices, bot_kind = args
    if target not in _LOADED:
        _LOADED[target] = load(target)
    rs = _LOADED[target]
    R = compile_rules(rs, options)
    out = []
    for i in indices:
        dealer = i % R.n_seats
        hands, talon = deal_cards(R, random.Random(f"{seed}:{i}"), dealer, i, None)
        st = State(R, dealer, hands, talon, accounts=None, deal_number=i)
        start = st.clone()
        bots = [_bot(bot_kind, f"{seed}:{i}:{s}", s) for s in range(R.n_seats)]
        while not st.is_over():
            st.apply_unchecked(bots[st.current_player()].choose(st))
        r = st.result()
        forehand = next(s for k in range(1, R.n_seats + 1) if (s := (dealer + k) % R.n_seats) in st.active)
        out.append({"i": i, "contract": r["contract"], "declarer": r["declarer"], "made": made_or_none(st, r),
                    "level": final_level(st), "all_passed": bool(r["all_passed"]), "dealer": dealer, "forehand": forehand,
                    "actions": len(st.log), "money": [jsonable(r["payments"][s]) for s in range(st.n)],
                    "accounts": jsonable(sheet.seat_deltas(st)),
                    "value": [round(v, 9) for v in deal_values(start, st)]})
    return out


def simulate_report(target: str, deals: int, seed: int, bot_kind: str, options: dict | None = None,
                    workers: int = 1, progress: Callable[[int], None] | None = None) -> tuple[dict, dict]:
    """Play `simulate`'s deals keeping every record: (simulate's summary, folded by its own tally, so
    it is what `simulate --json` prints; the report's figures with 95% intervals and the records)."""
    from interpreter.harness.batch import DealTally, chunk_size, chunks, run_ordered
    from interpreter.pipeline import load

    rs = load(target)
    opts = dict(options or {})
    tally = DealTally()
    records: list[dict] = []
    t0 = time.perf_counter()

    def fold(part: list[dict]) -> None:
        for rec in part:
            tally.add(rec)
            records.append(rec)
        if progress:
            progress(tally.n)

    jobs = ((target, opts, seed, c, bot_kind) for c in chunks(deals, chunk_size(deals, workers)))
    finished = run_ordered(_sim_chunk, jobs, workers, fold)
    summary = tally.summary(target, seed, bot_kind, time.perf_counter() - t0)
    if not finished:
        summary["interrupted"] = True
    moves_money = any(float(_num(x)) != 0 for r in records for x in r["money"])
    for r in records:
        r["value"] = [float(_num(x)) for x in r["money"]] if moves_money else r["value"]
    per = summarise(records, rs.seats) if len(records) else None
    page = {"kind": "simulate", "targets": [target], "titles": [rs.title], "deals": len(records), "seed": seed,
            "bots": bot_kind.split(","), "options": opts, "seats": rs.seats,
            "measure": "money per deal" if moves_money else "change in the session's final reckoning per deal",
            "per_target": [per] if per else [], "differences": [], "findings": [],
            "money_per_seat": [mean_ci([float(_num(r["money"][s])) for r in records]) for s in range(rs.seats)],
            "records": [records]}
    return summary, page


def _num(x: Any) -> float:
    """A money amount as simulate's JSON writes it (int, or a fraction as text) as a float."""
    if isinstance(x, str):
        from fractions import Fraction

        return float(Fraction(x))
    return float(x)
