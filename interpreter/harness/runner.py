"""Running deals: simulation with bots (optionally in worker processes), logs, and replay.

Determinism: deal i of a simulation with seed S is dealt from random.Random(f"{S}:{i}") and each
bot seat draws from random.Random(f"{S}:{i}:{seat}"), so the results depend only on (S, i), never
on how the deals are split among workers.
"""
from __future__ import annotations

import contextlib
import json
import time
from fractions import Fraction

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span
from interpreter.harness.logs import deal_record
from interpreter.harness.logs import jsonable as _jsonable


def _bot(kind: str, seed, seat: int = 0):
    """The bot for `seat`: `kind` names one bot for every seat or one per seat (`search,rule,rule`)."""
    from interpreter.bots import make_bot

    kinds = kind.split(",")
    return make_bot(kinds[seat] if len(kinds) > 1 else kinds[0], seed)


def play_one(rs, options, seed, index, bot_kind="rule", accounts=None, dealer=None):
    import random

    from interpreter.engine import deal_cards
    from interpreter.engine.rules import compile_rules

    R = compile_rules(rs, options)
    if dealer is None:
        dealer = index % R.n_seats
    rng = random.Random(f"{seed}:{index}")
    hands, talon = deal_cards(R, rng, dealer, index, accounts)
    from interpreter.engine.state import State

    state = State(R, dealer, hands, talon, accounts=accounts, deal_number=index)
    bots = [_bot(bot_kind, f"{seed}:{index}:{s}", s) for s in range(R.n_seats)]
    start = (list(hands), list(talon))
    while not state.is_over():
        state.apply_unchecked(bots[state.current_player()].choose(state))
    return state, start


def _num(v):
    if isinstance(v, Fraction):
        return float(v)
    return v


LOG_VERSION = 1      # a log line may say `version`; none said is this one


def _known_record(rec: dict, where) -> None:
    """A log line this stichwort reads: not a save file's header, not a later version of the format."""
    if rec.get("format") == "stichwort-save":
        raise where.error("this is a `play --save` file, not a log", failed=False,
                          help="play on with `stichwort play NAME --resume FILE`, or turn it into a scenario "
                               "with `stichwort scenario-from-log FILE`")
    if "version" in rec and rec["version"] != LOG_VERSION:
        shown = repr(rec["version"])[:40]
        raise where.error(f"log version {shown} is not {LOG_VERSION}, the one this stichwort reads", failed=False)


def _dealt_by_seed(state, rec: dict, number: int, where) -> None:
    """A `simulate` log line deals its hands from its seed (random.Random(f"{seed}:{deal}")): hands that
    seed does not deal are a tampered line."""
    import random

    from interpreter.engine import deal_cards

    if "seed" not in rec or "deal" not in rec:
        return
    R = state.R
    hands, talon = deal_cards(R, random.Random(f"{rec['seed']}:{number}"), state.dealer, number, None)
    if [R.rs.codes(h) for h in hands] != rec.get("hands") or [R.codes[c] for c in talon] != rec.get("talon"):
        raise where.error(f"deal {number}: the hands are not those seed {str(rec['seed'])[:40]!r} deals; the line "
                          "was changed after it was written")


_LOADED: dict = {}


def _load_once(target: str):
    """A worker loads each rule file once, however many chunks it plays."""
    from interpreter.pipeline import load

    if target not in _LOADED:
        _LOADED[target] = load(target)
    return _LOADED[target]


@contextlib.contextmanager
def _which(what: str, index: int, seed):
    """A rule file failing at play says in which deal (or session) of the run, as the log numbers it."""
    from interpreter.engine.errors import RuleRuntimeError

    try:
        yield
    except RuleRuntimeError as err:
        raise RuleRuntimeError(f"{err} (in {what} {index} of seed {seed}, counted from 0 as --log counts)") from None


def _chunk(args):
    from interpreter.harness import sheet
    from interpreter.harness.batch import final_level, made_or_none

    rules_target, options, seed, indices, bot_kind, want_log = args
    rs = _load_once(rules_target)
    out = []
    for i in indices:
        with _which("deal", i, seed):
            state, start = play_one(rs, options, seed, i, bot_kind)
        r = state.result()
        rec = {"i": i, "contract": r["contract"], "declarer": r["declarer"], "made": made_or_none(state, r),
               "level": final_level(state), "all_passed": r["all_passed"], "dealer": state.dealer,
               "money": [_jsonable(r["payments"][s]) for s in range(state.n)],
               "accounts": _jsonable(sheet.seat_deltas(state)),
               "actions": len(state.log)}
        if want_log:
            rec["log"] = deal_record(state, start, rules_target, options, seed, i)
        out.append(rec)
    return out


def play_session(rs, options, seed, index, max_deals, bot_kind="rule", log=None, rules_name=None):
    """One session of at most `max_deals` deals (or to the game's own end), all seeded from (seed, index).
    With a `log` list, each deal's log line (harness/sessionlog.py) is appended to it."""
    import random

    from interpreter.engine.session import Session
    from interpreter.harness import sessionlog

    sess = Session(rs, options, dealer=0)
    edges: set[tuple[str, str]] = set()
    for d in range(max_deals):
        st = sess.start(rng=random.Random(f"{seed}:{index}:{d}"))
        start = (list(st.dealt_hands), list(st.talon))   # as dealt (a paused deal holds some back)
        bots = [_bot(bot_kind, f"{seed}:{index}:{d}:{s}", s) for s in range(sess.R.n_seats)]
        while not st.is_over():
            st.apply_unchecked(bots[st.current_player()].choose(st))
        deal = sess.deal_number
        result = sess.finish(st)        # as replay ends the deal (harness/sessionlog.py)
        if log is not None:
            log.append(sessionlog.record(st, start, rules_name or rs.name, options, seed, index, deal, result))
        edges |= payment_edges(st)
        if sess.ended:
            break
    sess.ended_by_rule = sess.ended
    final = sess.close()
    if log:
        sessionlog.close(log[-1], sess, sess.ended_by_rule)
    if sess.last is not None:
        edges |= payment_edges(sess.last)
    sess.money_edges = edges
    return sess, final


def _side(x) -> str | None:
    if isinstance(x, int) and not isinstance(x, bool):
        return "seat"
    return x[0] if isinstance(x, tuple) and x else None


def payment_edges(state) -> set[tuple[str, str]]:
    """Which accounts exchanged money in a deal ('seat' for the players' money)."""
    out = set()
    for src, dst, _amount, _note in getattr(state, "payments", []):
        a, b = _side(src), _side(dst)
        if a and b:
            out.add((a, b))
    return out


def money_accounts(R, edges) -> set[str]:
    """The table accounts that money reaches: those a seat paid into or was paid from, and those
    reached from them in turn (the pot, and a cup the pot overflows into)."""
    reached, grew = {"seat", "money"}, True
    while grew:
        grew = False
        for a, b in edges:
            if (a in reached) != (b in reached):
                reached |= {a, b}
                grew = True
    return {a for a in reached if a in R.accounts and R.accounts[a].per == "game"}


def _session_chunk(args):
    rules_target, options, seed, indices, bot_kind, max_deals, *want = args
    rs = _load_once(rules_target)
    out = []
    for i in indices:
        log: list | None = [] if want and want[0] else None
        with _which("session", i, seed):
            sess, final = play_session(rs, options, seed, i, max_deals, bot_kind, log, rules_target)
        kept = sum((Fraction(str(_jsonable(sess.accounts.get(a, 0)))) for a in money_accounts(sess.R, sess.money_edges)
                    if isinstance(sess.accounts.get(a, 0), (int, Fraction))), Fraction(0))
        out.append({"i": i, "deals": len(sess.deals), "ended": sess.ended_by_rule,
                    "result": [_jsonable(final[s]) for s in sorted(final)], "kept": _jsonable(kept),
                    "benches": [list(r["bench"]) for r in sess.table.sits]})   # who sat out, sit by sit
        if log is not None:
            out[-1]["log"] = log
    return out


def simulate_sessions(rules_target: str, sessions: int, max_deals: int, seed: int, workers: int = 1,
                      options=None, bot_kind="rule", log_path=None) -> dict:
    """`sessions` sessions of at most `max_deals` deals; Ctrl-C stops with the totals (and the log) so far.
    With `log_path`, every deal is logged with its session (harness/sessionlog.py), for `replay`."""
    from interpreter.files import AtomicWriter
    from interpreter.harness import balance
    from interpreter.harness.batch import SessionTally, chunk_size, chunks, run_ordered

    options = dict(options or {})
    want_log = log_path is not None
    log = AtomicWriter(log_path, "log") if want_log else None
    tally = SessionTally()
    t0 = time.perf_counter()
    jobs = ((rules_target, options, seed, c, bot_kind, max_deals, want_log)
            for c in chunks(sessions, chunk_size(sessions, workers)))

    def fold(part):
        for rec in part:
            tally.add(rec)
            for line in rec.get("log") or ():
                log.write(json.dumps(line, ensure_ascii=False) + "\n")

    with log if log is not None else contextlib.nullcontext():    # kept when the run ends, removed when it fails
        finished = run_ordered(_session_chunk, jobs, workers, fold)
    summary = tally.summary(rules_target, seed, bot_kind, max_deals, time.perf_counter() - t0)
    # the accounts the results are entered into seat by seat, not paid between seats: their sum need not be zero
    summary["results_entered"] = balance.entered_accounts(_load_once(rules_target))
    if options:
        summary["options"] = dict(options)      # to replay a session (the first one's protocol: present/report)
    if not finished:
        summary["interrupted"] = True
    return summary


def simulate(rules_target: str, deals: int, seed: int, workers: int = 1, options=None, bot_kind="rule",
             log_path=None, progress=None) -> dict:
    """Bots play `deals` deals. Indices are made lazily and results folded into totals, so memory
    stays flat however many deals; Ctrl-C stops with the totals (and the log) so far."""
    from interpreter.files import AtomicWriter
    from interpreter.harness.batch import DealTally, chunk_size, chunks, run_ordered

    options = dict(options or {})
    want_log = log_path is not None
    log = AtomicWriter(log_path, "log") if want_log else None
    tally = DealTally()
    t0 = time.perf_counter()
    jobs = ((rules_target, options, seed, c, bot_kind, want_log) for c in chunks(deals, chunk_size(deals, workers)))

    def fold(part):
        for rec in part:
            tally.add(rec)
            if log is not None:
                log.write(json.dumps(rec["log"], ensure_ascii=False) + "\n")
        if progress:
            progress(tally.n)

    with log if log is not None else contextlib.nullcontext():
        finished = run_ordered(_chunk, jobs, workers, fold)
    summary = tally.summary(rules_target, seed, bot_kind, time.perf_counter() - t0)
    if not finished:
        summary["interrupted"] = True
    return summary


def replay(path, check=True, on_step=None) -> int:
    """Replay every deal of a JSON-lines log, each step checked; returns the number of deals replayed.
    Each rule file is loaded once per log, however many lines name it."""
    from interpreter.harness import logs, sessionlog
    from interpreter.harness.inputs import BadInput, check_options
    from interpreter.pipeline import load

    shown = str(path)
    lines = logs.lines_of(path, "log")
    rules: dict = {}
    count = 0
    carry = sessionlog.Carry()      # the accounts a deal of a logged session starts from
    for ln, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = logs.Where(shown, ln)
        rec = logs.record(line, where)
        _known_record(rec, where)
        name = rec.get("rules")
        if not isinstance(name, str) or not name or len(name) > 4096:
            raise where.error("the line does not say which 'rules' it was played by", failed=False)
        if name not in rules:
            try:
                rules[name] = load(name)
            except DiagnosticError as err:
                if any(d.file != "<command line>" for d in err.diagnostics):
                    raise                      # the rule file itself is at fault: its own diagnostics
                shown_name = name if len(name) <= 60 else name[:57] + "…"
                raise where.error(f"the rules {shown_name!r} named by this line: {err.diagnostics[0].message}",
                                  failed=False) from None
        try:
            number = rec.get("deal", 0)      # the deal's number: hands may depend on it (deal.hand)
            number = number if isinstance(number, int) and not isinstance(number, bool) and 0 <= number <= 10**15 else 0
            options = check_options(rules[name], rec.get("options"))
            accounts, in_session = carry.before(rules[name], rec, options)
            state = logs.start(rules[name], rec, where, options=options, accounts=accounts,
                               deal_number=number if in_session is None else in_session, seating=carry.seating())
        except BadInput as err:
            raise where.error(str(err)) from None
        if check and in_session is None:
            _dealt_by_seed(state, rec, number, where)
        logs.play(state, logs.actions_of(rec, where), where, on_step)
        if check and not state.is_over():
            raise where.error(f"deal {rec.get('deal')}: the log ends before the deal does "
                              f"(seat {state.current_player()} is to act)")
        got = _jsonable(carry.after(state))     # the deal's result, then the session's own steps
        problem = carry.closing(rec)
        if check:
            if got != rec.get("result"):
                raise where.error(f"deal {rec.get('deal')}: replay ends in {got}, the log says {rec.get('result')}")
            if problem:
                raise where.error(f"deal {rec.get('deal')}: {problem}")
        count += 1
    if not count:
        raise DiagnosticError([Diagnostic("E503", "the log holds no deals", shown, Span(1, 1, 1, 2) if lines else None,
                                          help="a log has one JSON line per deal, as `simulate --log` writes")])
    return count
