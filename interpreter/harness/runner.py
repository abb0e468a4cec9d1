"""Running deals: simulation with bots (optionally in worker processes), logs, and replay.

Determinism: deal i of a simulation with seed S is dealt from random.Random(f"{S}:{i}") and each
bot seat draws from random.Random(f"{S}:{i}:{seat}"), so the results depend only on (S, i), never
on how the deals are split among workers.
"""
from __future__ import annotations

import json
import math
import statistics
import time
from fractions import Fraction

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span


def _bot(kind: str, seed):
    from interpreter.engine.bots import RandomBot, RuleBot

    return RandomBot(seed) if kind == "random" else RuleBot(seed)


def play_one(rs, options, seed, index, bot_kind="rule", accounts=None, dealer=None):
    import random

    from interpreter.engine import deal_cards
    from interpreter.engine.rules import compile_rules

    R = compile_rules(rs, options)
    if dealer is None:
        dealer = index % R.n_seats
    rng = random.Random(f"{seed}:{index}")
    hands, talon = deal_cards(R, rng, dealer)
    from interpreter.engine.state import State

    state = State(R, dealer, hands, talon, accounts=accounts, deal_number=index)
    bots = [_bot(bot_kind, f"{seed}:{index}:{s}") for s in range(R.n_seats)]
    start = (list(hands), list(talon))
    while not state.is_over():
        state.apply_unchecked(bots[state.current_player()].choose(state))
    return state, start


def _num(v):
    if isinstance(v, Fraction):
        return float(v)
    return v


def deal_record(state, start, rules_name, options, seed, index) -> dict:
    R = state.R
    hands, talon = start
    return {
        "rules": rules_name, "options": options, "seed": seed, "deal": index, "dealer": state.dealer,
        "hands": [R.rs.codes(h) for h in hands], "talon": [R.codes[c] for c in talon],
        "actions": [[s, state.action_text(a)] for s, a in state.log],
        "result": _jsonable(state.result()),
    }


def _jsonable(v):
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, Fraction):
        return str(v) if v.denominator != 1 else int(v)
    return v


_LOADED: dict = {}


def _load_once(target: str):
    """A worker loads each rule file once, however many chunks it plays."""
    from interpreter.pipeline import load

    if target not in _LOADED:
        _LOADED[target] = load(target)
    return _LOADED[target]


def _chunk(args):
    rules_target, options, seed, indices, bot_kind, want_log = args
    rs = _load_once(rules_target)
    out = []
    for i in indices:
        state, start = play_one(rs, options, seed, i, bot_kind)
        r = state.result()
        rec = {"i": i, "contract": r["contract"], "declarer": r["declarer"], "made": r["made"],
               "all_passed": r["all_passed"], "dealer": state.dealer,
               "money": [_jsonable(r["payments"][s]) for s in range(state.n)],
               "actions": len(state.log)}
        if want_log:
            rec["log"] = deal_record(state, start, rules_target, options, seed, i)
        out.append(rec)
    return out


def play_session(rs, options, seed, index, max_deals, bot_kind="rule"):
    """One session of at most `max_deals` deals (or to the game's own end), all seeded from (seed, index)."""
    import random

    from interpreter.engine.session import Session

    sess = Session(rs, options, dealer=0)
    for d in range(max_deals):
        st = sess.start(rng=random.Random(f"{seed}:{index}:{d}"))
        bots = [_bot(bot_kind, f"{seed}:{index}:{d}:{s}") for s in range(sess.R.n_seats)]
        while not st.is_over():
            st.apply_unchecked(bots[st.current_player()].choose(st))
        sess.finish(st)
        if sess.ended:
            break
    sess.ended_by_rule = sess.ended
    return sess, sess.close()


def _session_chunk(args):
    rules_target, options, seed, indices, bot_kind, max_deals = args
    rs = _load_once(rules_target)
    out = []
    for i in indices:
        sess, final = play_session(rs, options, seed, i, max_deals, bot_kind)
        out.append({"i": i, "deals": len(sess.deals), "ended": sess.ended_by_rule,
                    "result": [_jsonable(final[s]) for s in sorted(final)],
                    "kept": _jsonable(sess.accounts.get("pot", 0))})
    return out


def simulate_sessions(rules_target: str, sessions: int, max_deals: int, seed: int, workers: int = 1,
                      options=None, bot_kind="rule") -> dict:
    options = dict(options or {})
    indices = list(range(sessions))
    t0 = time.perf_counter()
    if workers <= 1:
        records = _session_chunk((rules_target, options, seed, indices, bot_kind, max_deals))
    else:
        import concurrent.futures as cf

        size = max(1, math.ceil(sessions / (workers * 4)))
        chunks = [indices[i:i + size] for i in range(0, sessions, size)]
        records = []
        with cf.ProcessPoolExecutor(max_workers=workers) as pool:
            for part in pool.map(_session_chunk, [(rules_target, options, seed, c, bot_kind, max_deals) for c in chunks]):
                records += part
    records.sort(key=lambda r: r["i"])
    seats = len(records[0]["result"]) if records else 0
    per_seat = []
    for s in range(seats):
        values = [float(Fraction(str(r["result"][s]))) for r in records]
        per_seat.append({"seat": s, "mean": round(statistics.fmean(values), 4),
                         "stdev": round(statistics.pstdev(values), 4)})
    totals = [sum(float(Fraction(str(x))) for x in r["result"]) + float(Fraction(str(r["kept"]))) for r in records]
    return {"rules": rules_target, "seed": seed, "bots": bot_kind, "sessions": len(records),
            "max_deals": max_deals, "mean_deals": round(statistics.fmean(r["deals"] for r in records), 2),
            "ended_by_rule": sum(1 for r in records if r["ended"]),
            "result_per_seat": per_seat, "largest_imbalance": round(max(abs(t) for t in totals), 6) if totals else 0,
            "_elapsed": time.perf_counter() - t0}


def simulate(rules_target: str, deals: int, seed: int, workers: int = 1, options=None, bot_kind="rule",
             log_path=None, progress=None) -> dict:
    options = dict(options or {})
    indices = list(range(deals))
    want_log = log_path is not None
    t0 = time.perf_counter()
    records: list = []
    if workers <= 1:
        step = max(1, deals // 50)
        for lo in range(0, deals, step):
            records += _chunk((rules_target, options, seed, indices[lo:lo + step], bot_kind, want_log))
            if progress:
                progress(len(records))
    else:
        import concurrent.futures as cf

        size = max(1, math.ceil(deals / (workers * 8)))
        chunks = [indices[i:i + size] for i in range(0, deals, size)]
        with cf.ProcessPoolExecutor(max_workers=workers) as pool:
            for part in pool.map(_chunk, [(rules_target, options, seed, c, bot_kind, want_log) for c in chunks]):
                records += part
                if progress:
                    progress(len(records))
    elapsed = time.perf_counter() - t0
    records.sort(key=lambda r: r["i"])
    if log_path:
        _write_lines(log_path, [json.dumps(r["log"], ensure_ascii=False) for r in records])
    return summarise(records, rules_target, seed, bot_kind, elapsed)


def _write_lines(path, lines):
    from interpreter.files import write_atomic

    write_atomic(path, "\n".join(lines) + "\n", "log")


def summarise(records, rules_target, seed, bot_kind, elapsed) -> dict:
    n = len(records)
    contracts: dict = {}
    for r in records:
        if r["contract"] is None:
            continue
        c = contracts.setdefault(r["contract"], {"played": 0, "made": 0})
        c["played"] += 1
        if r["made"]:
            c["made"] += 1
    seats = len(records[0]["money"]) if records else 0
    money = []
    for s in range(seats):
        values = [float(Fraction(str(r["money"][s]))) for r in records]
        money.append({"seat": s, "mean": round(statistics.fmean(values), 4) if values else 0,
                      "stdev": round(statistics.pstdev(values), 4) if values else 0})
    return {
        "rules": rules_target, "seed": seed, "bots": bot_kind, "deals": n,
        "all_pass_rate": round(sum(1 for r in records if r["all_passed"]) / n, 4) if n else 0,
        "contracts": dict(sorted(contracts.items(), key=lambda kv: -kv[1]["played"])),
        "money_per_seat": money,
        "actions_per_deal": round(sum(r["actions"] for r in records) / n, 2) if n else 0,
        "_elapsed": elapsed,
    }


def replay(path, check=True, on_step=None) -> int:
    """Replay every deal of a JSON-lines log; returns the number of deals replayed."""
    from pathlib import Path

    from interpreter.engine import new_game
    from interpreter.engine.text import parse
    from interpreter.pipeline import load

    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise DiagnosticError([Diagnostic("E100", f"cannot read log: {err}", str(path))]) from None
    count = 0
    for ln, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = (str(path), Span(ln, 1, ln, 2))
        try:
            rec = json.loads(line)
            rs = load(rec["rules"])
            state = new_game(rs, deal={"hands": rec["hands"], "talon": rec["talon"]},
                             options=rec.get("options") or {}, dealer=int(rec["dealer"]))
            actions = rec["actions"]
        except DiagnosticError:
            raise
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as err:
            raise DiagnosticError([Diagnostic("E502", f"not a valid log line: {type(err).__name__}: {err}", *where)]) from None
        for step, item in enumerate(actions):
            try:
                seat, text = int(item[0]), str(item[1])
            except (ValueError, TypeError, IndexError):
                raise DiagnosticError([Diagnostic("E502", f"step {step + 1}: not a [seat, action] pair", *where)]) from None
            if state.is_over() or seat != state.current_player():
                raise DiagnosticError([Diagnostic("E503", f"step {step + 1}: the log says seat {seat} acts, "
                                                  f"the rules say {state.current_player()}", *where)])
            try:
                state.apply(parse(state, text))
            except ValueError as err:
                raise DiagnosticError([Diagnostic("E503", f"step {step + 1}: {err}", *where)]) from None
            if on_step:
                on_step(state, seat, text)
        if check:
            got = _jsonable(state.result())
            if not state.is_over() or got != rec.get("result"):
                raise DiagnosticError([Diagnostic("E503", f"deal {rec.get('deal')}: replay ends in {got}, the log says {rec.get('result')}", *where)])
        count += 1
    return count
