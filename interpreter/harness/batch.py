"""Many deals without holding them: deal indices generated lazily, chunks run in order (in this
process or a bounded window of worker processes), results folded into running totals.

So `simulate --deals 1000000000000` starts at once with flat memory, and Ctrl-C stops it cleanly
with the totals so far. Totals are exact (fractions) and taken in index order, so they do not
depend on the number of workers.
"""
from __future__ import annotations

import math
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import Any

MAX_CHUNK = 250


def chunks(total: int, size: int) -> Iterator[range]:
    """range(0, total) in consecutive pieces of at most `size`, made one at a time."""
    lo = 0
    while lo < total:
        yield range(lo, min(lo + size, total))
        lo += size


def chunk_size(total: int, workers: int) -> int:
    return max(1, min(MAX_CHUNK, math.ceil(total / (max(workers, 1) * 8))))


def _ignore_interrupt() -> None:
    """Workers leave Ctrl-C (and SIGTERM, SIGHUP, sent to the whole process group) to the parent, which
    stops handing out work and keeps what is done."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)


class RayUnavailable(RuntimeError):
    """`--ray` was asked for but Ray is not installed or cannot be reached."""


# Where run_ordered sends its jobs: None = this machine (processes), else ("ray", address or None).
_BACKEND: tuple[str, str | None] | None = None


def use_ray(address: str | None) -> None:
    """Send the chunks of the following runs to a Ray cluster (None: a local one started here). The jobs
    and their order are the same as on one machine, so the results are byte-identical."""
    global _BACKEND
    try:
        import ray  # noqa: F401
    except ImportError:
        raise RayUnavailable("--ray needs Ray: pip install 'stichwort[ray]'") from None
    from interpreter.harness.distributed import connect

    try:
        connect(address)        # now, so that a cluster that cannot be reached is said before any deal
    except Exception as err:
        where = f" at {address}" if address else ""
        raise RayUnavailable(f"cannot start or reach Ray{where}: {type(err).__name__}: {err}") from None
    _BACKEND = ("ray", address)


def use_local() -> None:
    global _BACKEND
    _BACKEND = None


_held = 0                   # inside how many results being folded
_looping = 0                # inside how many run_ordered loops (which look at _pending between jobs)
_pending = False            # a stop signal came while one of the two was


def stop(signum, frame) -> None:
    """The handler of Ctrl-C, SIGTERM and SIGHUP (present/boundary.stop_signals installs it). Inside a
    run_ordered loop it only notes the signal, and the loop stops after the job in hand (a chunk of at most
    MAX_CHUNK deals): an exception raised at an arbitrary point can land in a finaliser or a callback, where
    Python prints and drops it, and the run would go on. Elsewhere (a game in the terminal waiting for a
    key) a KeyboardInterrupt, held back while a result is being folded (see _whole)."""
    global _pending
    if _held or _looping:
        _pending = True
        return
    raise KeyboardInterrupt


def _whole(on_result: Callable) -> Callable:
    """`on_result` run whole: a stop signal that comes meanwhile is raised when it returns, so that a
    result is counted in the totals and written to the log, or neither."""
    def run(result):
        global _held, _pending
        _held += 1
        try:
            return on_result(result)
        finally:
            _held -= 1
            if not _held and not _looping and _pending:
                _pending = False
                raise KeyboardInterrupt
    return run


def _stopped() -> bool:
    """Whether a stop signal came since the loop began (and forget it: the loop ends)."""
    global _pending
    if _pending:
        _pending = False
        return True
    return False


def run_ordered(fn: Callable, jobs: Iterable, workers: int, on_result: Callable) -> bool:
    """Call `on_result(fn(job))` for every job, in order; with workers, at most 2 × workers jobs are
    in flight. Returns False if stopped by Ctrl-C, SIGTERM or SIGHUP (the results so far have been
    passed on)."""
    global _looping, _pending
    on_result = _whole(on_result)
    if _BACKEND is not None:
        from interpreter.harness.distributed import run_on_ray

        return run_on_ray(fn, jobs, _BACKEND[1], on_result)
    _looping += 1
    if _looping == 1:
        _pending = False
    try:
        return _local(fn, jobs, workers, on_result)
    except KeyboardInterrupt:
        return False
    finally:
        _looping -= 1


def _local(fn: Callable, jobs: Iterable, workers: int, on_result: Callable) -> bool:
    if workers <= 1:
        for job in jobs:
            on_result(fn(job))
            if _stopped():
                return False
        return True
    import concurrent.futures as cf

    with cf.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupt) as pool:
        pending: deque = deque()
        it = iter(jobs)
        finished = True
        for job in it:
            pending.append(pool.submit(fn, job))
            if len(pending) >= 2 * workers:
                on_result(pending.popleft().result())
                if _stopped():
                    finished = False
                    break
        while finished and pending:
            on_result(pending.popleft().result())
            if _stopped():
                finished = False
        if not finished:
            for f in pending:
                f.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
        return finished


def _exact(v) -> Fraction:
    if isinstance(v, Fraction):
        return v
    if isinstance(v, bool) or v is None:
        return Fraction(0)
    if isinstance(v, (int, float)):
        return Fraction(v)
    return Fraction(str(v))


class Moments:
    """Count, mean and population spread of a stream of numbers, kept exact: whole numbers (most money
    and scores) summed as ints, the rest as Fractions, and the two added only when read."""

    def __init__(self) -> None:
        self.n = 0
        self.whole = 0                  # the sum and the sum of squares of the int values
        self.whole_squares = 0
        self.parts = Fraction(0)        # the same of the other values, exact
        self.parts_squares = Fraction(0)

    def add(self, v) -> None:
        self.n += 1
        if type(v) is int:
            self.whole += v
            self.whole_squares += v * v
            return
        x = _exact(v)
        self.parts += x
        self.parts_squares += x * x

    @property
    def total(self) -> Fraction:
        return self.parts + self.whole

    @property
    def squares(self) -> Fraction:
        return self.parts_squares + self.whole_squares

    def mean(self) -> float:
        return float(self.total / self.n) if self.n else 0.0

    def stdev(self) -> float:
        if not self.n:
            return 0.0
        m = self.total / self.n
        return math.sqrt(max(float(self.squares / self.n - m * m), 0.0))


class DealTally:
    """What `simulate` reports, folded deal by deal."""

    def __init__(self) -> None:
        self.n = 0
        self.all_passed = 0
        self.actions = 0
        self.contracts: dict[str, dict[str, int]] = {}
        self.levels: dict[int, dict[str, float]] = {}    # by the final call's level (final_level)
        self.money: list[Moments] = []
        self.accounts: dict[str, list[Moments]] = {}   # sheet accounts' change per seat (harness/sheet.py)

    def add(self, rec: dict) -> None:
        self.n += 1
        for name, row in (rec.get("accounts") or {}).items():
            if name not in self.accounts:      # earlier deals wrote nothing in it: zeros
                self.accounts[name] = [Moments() for _ in row]
                for m in self.accounts[name]:
                    m.n = self.n - 1
        for name, moments in self.accounts.items():
            row = (rec.get("accounts") or {}).get(name) or [0] * len(moments)
            for m, v in zip(moments, row):
                m.add(v)
        self.all_passed += 1 if rec["all_passed"] else 0
        self.actions += rec["actions"]
        if rec["contract"] is not None:
            _count(self.contracts.setdefault(rec["contract"], {"played": 0, "made": 0, "judged": 0}), rec)
            if rec.get("level") is not None:
                row = self.levels.setdefault(rec["level"], {"played": 0, "made": 0, "judged": 0, "declared": 0, "gain": 0})
                _count(row, rec)
                if rec.get("declarer") is not None:
                    row["declared"] += 1
                    row["gain"] += _declarers_gain(rec)
        while len(self.money) < len(rec["money"]):
            self.money.append(Moments())
        for s, v in enumerate(rec["money"]):
            self.money[s].add(v)

    def summary(self, rules_target, seed, bot_kind, elapsed) -> dict:
        n = self.n
        levels = {"levels": {str(lv): _level_row(c) for lv, c in sorted(self.levels.items())}} if self.levels else {}
        return {
            "rules": rules_target, "seed": seed, "bots": bot_kind, "deals": n,
            "all_pass_rate": round(self.all_passed / n, 4) if n else 0,
            "contracts": {name: _contract_row(c) for name, c in sorted(self.contracts.items(), key=lambda kv: -kv[1]["played"])},
            "money_per_seat": [{"seat": s, "mean": round(m.mean(), 4), "stdev": round(m.stdev(), 4)}
                               for s, m in enumerate(self.money)],
            "actions_per_deal": round(self.actions / n, 2) if n else 0,
            "accounts_per_seat": {name: [{"seat": s, "mean": round(m.mean(), 4), "stdev": round(m.stdev(), 4)}
                                         for s, m in enumerate(ms)] for name, ms in self.accounts.items()},
            **levels,
            "_elapsed": elapsed,
        }


def _count(c: dict, rec: dict) -> None:
    c["played"] += 1
    if rec["made"] is not None:     # a contract nobody declares is neither made nor lost
        c["judged"] += 1
        c["made"] += 1 if rec["made"] else 0


def _declarers_gain(rec: dict) -> float:
    """What the declarer's seat gained in the deal: its money and its score accounts' change together."""
    d = rec["declarer"]
    return float(rec["money"][d]) + sum(float(row[d]) for row in (rec.get("accounts") or {}).values())


def _level_row(c: dict) -> dict:
    """A level's row: played and made as a contract's, and the declarer's mean gain per deal declared."""
    row = _contract_row(c)
    if c["declared"]:
        row["declarer_mean"] = round(c["gain"] / c["declared"], 2)
    return row


def final_level(state: Any) -> int | None:
    """The level of the deal's final call where it names the contract by level and strain (a ladder with
    `strains`: the level is how much the contract undertakes), else None: a ladder of values alone (bids worth
    18, 20, …) is tallied by contract, not by value."""
    final = state.final_call
    rec = getattr(getattr(final, "ref", None), "rec", None) if final is not None else None
    level = rec.get("level") if isinstance(rec, dict) and "strain" in rec else None
    return level if isinstance(level, int) and not isinstance(level, bool) else None


def made_or_none(state: Any, result: dict) -> bool | None:
    """Whether the deal's contract was made, for the tallies: None where no side plays for a goal (nobody
    declares, or each plays for himself, `side = nobody`, whoever chose the game)."""
    con = state.con
    return None if con is not None and con.side == "nobody" else result["made"]


def _contract_row(c: dict) -> dict:
    """A contract's row of the summary: played and made; made is None when no deal of it was made or
    lost (nobody declares it), and `judged` says how many were when only some were."""
    row = {"played": c["played"], "made": c["made"] if c["judged"] else None}
    if 0 < c["judged"] < c["played"]:
        row["judged"] = c["judged"]
    return row


class SessionTally:
    """What `simulate --session` reports, folded session by session."""

    def __init__(self) -> None:
        self.n = 0
        self.deals = 0
        self.ended = 0
        self.results: list[Moments] = []
        self.imbalance = Fraction(0)             # the largest sum of a session's results with what the table kept
        self.imbalance_ended = Fraction(0)       # the same over the sessions that ended by the game's own rule
        self.largest_sum = Fraction(0)           # that largest sum with its sign
        self.sits = 0                            # sits played (partnership games: engine/reseating.py)
        self.sat_out: list[int] = []             # sits each player spent on the bench
        self.bench_order: list[list[int]] = []   # the first session's bench, sit by sit

    def add(self, rec: dict) -> None:
        self.n += 1
        self.deals += rec["deals"]
        benches = rec.get("benches") or []
        self.sits += len(benches)
        for bench in benches:
            for p in bench:
                self.sat_out += [0] * (p + 1 - len(self.sat_out))
                self.sat_out[p] += 1
        if self.n == 1:
            self.bench_order = [list(b) for b in benches]
        self.ended += 1 if rec["ended"] else 0
        while len(self.results) < len(rec["result"]):
            self.results.append(Moments())
        for s, v in enumerate(rec["result"]):
            self.results[s].add(v)
        total = sum((_exact(x) for x in rec["result"]), Fraction(0)) + _exact(rec["kept"])
        if abs(total) > self.imbalance:
            self.imbalance, self.largest_sum = abs(total), total
        if rec["ended"]:
            self.imbalance_ended = max(self.imbalance_ended, abs(total))

    def summary(self, rules_target, seed, bot_kind, max_deals, elapsed) -> dict:
        return {"rules": rules_target, "seed": seed, "bots": bot_kind, "sessions": self.n,
                "max_deals": max_deals, "mean_deals": round(self.deals / self.n, 2) if self.n else 0,
                "ended_by_rule": self.ended,
                "result_per_seat": [{"seat": s, "mean": round(m.mean(), 4), "stdev": round(m.stdev(), 4)}
                                    for s, m in enumerate(self.results)],
                "largest_imbalance": round(float(self.imbalance), 6),
                "largest_imbalance_ended": round(float(self.imbalance_ended), 6),
                "largest_sum": round(float(self.largest_sum), 6),
                **({"sits": self.sits, "sat_out_per_player": list(self.sat_out),
                    "bench_first_session": self.bench_order} if self.sits else {}),
                "_elapsed": elapsed}
