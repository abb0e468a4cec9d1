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
    """Workers leave Ctrl-C to the parent, which stops handing out work and keeps what is done."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_ordered(fn: Callable, jobs: Iterable, workers: int, on_result: Callable) -> bool:
    """Call `on_result(fn(job))` for every job, in order; with workers, at most 2 × workers jobs are
    in flight. Returns False if interrupted by Ctrl-C (the results so far have been passed on)."""
    try:
        if workers <= 1:
            for job in jobs:
                on_result(fn(job))
            return True
        import concurrent.futures as cf

        with cf.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupt) as pool:
            pending: deque = deque()
            it = iter(jobs)
            try:
                for job in it:
                    pending.append(pool.submit(fn, job))
                    if len(pending) >= 2 * workers:
                        on_result(pending.popleft().result())
                while pending:
                    on_result(pending.popleft().result())
            except KeyboardInterrupt:
                for f in pending:
                    f.cancel()
                pool.shutdown(wait=True, cancel_futures=True)
                return False
        return True
    except KeyboardInterrupt:
        return False


def _exact(v) -> Fraction:
    if isinstance(v, Fraction):
        return v
    if isinstance(v, bool) or v is None:
        return Fraction(0)
    if isinstance(v, (int, float)):
        return Fraction(v)
    return Fraction(str(v))


class Moments:
    """Count, mean and population spread of a stream of numbers, kept exact."""

    def __init__(self) -> None:
        self.n = 0
        self.total = Fraction(0)
        self.squares = Fraction(0)

    def add(self, v) -> None:
        x = _exact(v)
        self.n += 1
        self.total += x
        self.squares += x * x

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
        self.money: list[Moments] = []

    def add(self, rec: dict) -> None:
        self.n += 1
        self.all_passed += 1 if rec["all_passed"] else 0
        self.actions += rec["actions"]
        if rec["contract"] is not None:
            c = self.contracts.setdefault(rec["contract"], {"played": 0, "made": 0})
            c["played"] += 1
            c["made"] += 1 if rec["made"] else 0
        while len(self.money) < len(rec["money"]):
            self.money.append(Moments())
        for s, v in enumerate(rec["money"]):
            self.money[s].add(v)

    def summary(self, rules_target, seed, bot_kind, elapsed) -> dict:
        n = self.n
        return {
            "rules": rules_target, "seed": seed, "bots": bot_kind, "deals": n,
            "all_pass_rate": round(self.all_passed / n, 4) if n else 0,
            "contracts": dict(sorted(self.contracts.items(), key=lambda kv: -kv[1]["played"])),
            "money_per_seat": [{"seat": s, "mean": round(m.mean(), 4), "stdev": round(m.stdev(), 4)}
                               for s, m in enumerate(self.money)],
            "actions_per_deal": round(self.actions / n, 2) if n else 0,
            "_elapsed": elapsed,
        }


class SessionTally:
    """What `simulate --session` reports, folded session by session."""

    def __init__(self) -> None:
        self.n = 0
        self.deals = 0
        self.ended = 0
        self.results: list[Moments] = []
        self.imbalance = Fraction(0)

    def add(self, rec: dict) -> None:
        self.n += 1
        self.deals += rec["deals"]
        self.ended += 1 if rec["ended"] else 0
        while len(self.results) < len(rec["result"]):
            self.results.append(Moments())
        for s, v in enumerate(rec["result"]):
            self.results[s].add(v)
        total = sum((_exact(x) for x in rec["result"]), Fraction(0)) + _exact(rec["kept"])
        self.imbalance = max(self.imbalance, abs(total))

    def summary(self, rules_target, seed, bot_kind, max_deals, elapsed) -> dict:
        return {"rules": rules_target, "seed": seed, "bots": bot_kind, "sessions": self.n,
                "max_deals": max_deals, "mean_deals": round(self.deals / self.n, 2) if self.n else 0,
                "ended_by_rule": self.ended,
                "result_per_seat": [{"seat": s, "mean": round(m.mean(), 4), "stdev": round(m.stdev(), 4)}
                                    for s, m in enumerate(self.results)],
                "largest_imbalance": round(float(self.imbalance), 6),
                "_elapsed": elapsed}
