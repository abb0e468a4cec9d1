#!/usr/bin/env python3
"""Engine speed, measured (never asserted), for the reference interpreter and the generated code:

- per game: random full deals per second on one core, actions per deal and per second, and the mean
  time of legal_actions() and apply();
- clone() plus apply() of one action, on states taken from random deals;
- koenigrufen's deal closest to OpenSpiel's tarok with every bid a pass (Klop): forehand may not pass
  (KR-AUC-04), so it says mein spiel, the others pass, and it chooses trischaken, all against all;
- the front end: the largest built-in rule file parsed, checked and compiled, warm (again in this
  process) and cold (a fresh process, imports included: with the package's sources compiled, and with
  their bytecode cached).

    python tools/bench.py [NAME …] [--deals N] [--engine generated|interpreter|both]
    python tools/bench.py --steps [NAME …]   # what each step bought, interleaved in one process
    python tools/bench.py --phases [NAME …]  # where a deal's time goes: the deal, then each phase

For the comparison with the hand-written engine and OpenSpiel run `bash ../shared/bench/run.sh`.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load  # noqa: E402
from interpreter.backends import ENGINES, compile_rules  # noqa: E402
from interpreter.engine import deal_cards  # noqa: E402
from interpreter.engine.state import State  # noqa: E402
from interpreter.resources import builtin_games  # noqa: E402


def _deal(R, rng: random.Random, i: int) -> State:
    hands, talon = deal_cards(R, rng, i % R.n_seats)
    return State(R, i % R.n_seats, hands, talon)


def _play(R, rng: random.Random, deals: int, choose: Callable[[State, list[int]], int] | None = None,
          ended: Callable[[int, State], None] | None = None) -> tuple[int, float]:
    """(actions, seconds) of `deals` deals: each action drawn at random, or outside the play by `choose`;
    `ended` sees each deal at its end."""
    actions = 0
    t0 = time.perf_counter()
    for i in range(deals):
        st = _deal(R, rng, i)
        while st.phase != "end":
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))] if choose is None or st.phase == "play" else choose(st, legal))
            actions += 1
        if ended is not None:
            ended(i, st)
    return actions, time.perf_counter() - t0


def bench(name: str, deals: int, engine: str) -> dict:
    R = compile_rules(load(name), engine=engine)
    rng = random.Random(1)
    actions, whole = _play(R, rng, deals)
    t_legal = t_apply = 0.0
    calls = 0
    rng = random.Random(2)
    for i in range(max(deals // 4, 50)):
        st = _deal(R, rng, i)
        while st.phase != "end":
            a = time.perf_counter()
            legal = st.legal_actions()
            b = time.perf_counter()
            st.apply_unchecked(legal[rng.randrange(len(legal))])
            c = time.perf_counter()
            t_legal += b - a
            t_apply += c - b
            calls += 1
    return {"game": name, "engine": engine, "deals_per_s": deals / whole, "actions_per_deal": actions / deals,
            "actions_per_s": actions / whole, "legal_us": 1e6 * t_legal / calls, "apply_us": 1e6 * t_apply / calls}


def phases(name: str, deals: int, engine: str) -> list[tuple[str, float, float, float]]:
    """Where a random deal's time goes: (phase, calls per deal, µs per deal in legal_actions(), µs per
    deal in apply()), the deal itself first (deal_cards and State, whose phases start at once: its
    apply column). An apply() that ends a phase counts for it, the next phase's start included."""
    R = compile_rules(load(name), engine=engine)
    _play(R, random.Random(3), max(deals // 10, 20))        # warm: memos, code made at first use
    rng = random.Random(1)
    clock = time.perf_counter
    found: dict[str, list[float]] = {"(deal)": [0, 0.0, 0.0]}
    for i in range(deals):
        a = clock()
        st = _deal(R, rng, i)
        found["(deal)"][2] += clock() - a
        found["(deal)"][0] += 1
        while st.phase != "end":
            row = found.get(st.phase)
            if row is None:
                row = found[st.phase] = [0, 0.0, 0.0]
            a = clock()
            legal = st.legal_actions()
            b = clock()
            st.apply(legal[rng.randrange(len(legal))])
            c = clock()
            row[0] += 1
            row[1] += b - a
            row[2] += c - b
    return [(k, n / deals, 1e6 * t_l / deals, 1e6 * t_a / deals) for k, (n, t_l, t_a) in found.items()]


def clone_apply(name: str, engine: str, states: int = 400) -> dict[str, float]:
    """µs of clone() plus apply() of one legal action, the mean over states from random deals (as a search
    bot meets them), in the best of seven passes; also clone() alone, and clone() plus apply() over the
    card-play states only (where a search bot spends its playouts; the mean over all states carries the
    settlement at each deal's last card)."""
    R = compile_rules(load(name), engine=engine)
    rng = random.Random(3)
    taken = []
    for i in range(states // 10 + 1):
        st = _deal(R, rng, i)
        while st.phase != "end":
            legal = st.legal_actions()
            taken.append((st.clone(), legal[rng.randrange(len(legal))]))
            st.apply_unchecked(legal[rng.randrange(len(legal))])
    taken = taken[:states]
    in_play = [(st, a) for st, a in taken if st.phase == "play"]

    def best(pairs: list, apply: bool) -> float:
        t = float("inf")
        for _ in range(7):             # the best pass: the least disturbed by other work on the machine
            t0 = time.perf_counter()
            if apply:
                for st, a in pairs:
                    st.clone().apply_unchecked(a)
            else:
                for st, _a in pairs:
                    st.clone()
            t = min(t, time.perf_counter() - t0)
        return 1e6 * t / max(len(pairs), 1)
    return {"clone_apply": best(taken, True), "clone": best(taken, False), "play": best(in_play, True)}


def all_against_all(deals: int, engine: str) -> dict[str, float]:
    """koenigrufen dealt as OpenSpiel's Klop is: mein spiel, three passes, trischaken, then random cards.
    The words are read once per action id and only outside the play; in the play the card is drawn as
    in bench()."""
    R = compile_rules(load("koenigrufen"), engine=engine)
    rng = random.Random(1)
    words: dict[int, str] = {}

    def choose(st: State, legal: list[int]) -> int:
        said = [words.get(a) or words.setdefault(a, st.action_text(a)) for a in legal]
        for want in ("bid mein spiel", "pass"):
            if want in said:
                return legal[said.index(want)]
        chosen = [a for a, w in zip(legal, said) if w.endswith("trischaken")]
        return chosen[0] if chosen else legal[rng.randrange(len(legal))]

    def ended(i: int, st: State) -> None:
        if st.contract != "trischaken":
            raise RuntimeError(f"deal {i} ended in {st.contract}, not trischaken")

    actions, whole = _play(R, rng, deals, choose, ended)
    return {"deals_per_s": deals / whole, "actions_per_deal": actions / deals}


def steps(name: str, deals: int, reps: int = 5) -> dict[str, list[float]]:
    """Actions per second of random deals: the interpreter with apply() working the legal actions out
    again (as before they were kept), the interpreter as it is, and the generated code; interleaved."""
    from interpreter.engine.state import IllegalAction

    rs = load(name)
    engines = {"interpreter": compile_rules(rs, engine="interpreter"),
               "generated": compile_rules(rs, engine="generated")}
    kept = State.apply

    def recomputing(self: State, action: int) -> None:
        if self._component is None:
            raise IllegalAction("the deal is over")
        if action not in self._component.legal(self):
            raise IllegalAction(self.action_text(action))
        self.log.append((self.to_act, action))
        self._component.apply(self, action)

    def run(R) -> float:
        rng = random.Random(1)
        n = 0
        t0 = time.perf_counter()
        for i in range(deals):
            st = _deal(R, rng, i)
            while st.phase != "end":
                legal = st.legal_actions()
                st.apply(legal[rng.randrange(len(legal))])
                n += 1
        return n / (time.perf_counter() - t0)

    out: dict[str, list[float]] = {"interpreter, legal worked out twice": [], "interpreter": [], "generated": []}
    try:
        for _ in range(reps):
            State.apply = recomputing  # type: ignore[method-assign]
            out["interpreter, legal worked out twice"].append(run(engines["interpreter"]))
            State.apply = kept  # type: ignore[method-assign]
            out["interpreter"].append(run(engines["interpreter"]))
            out["generated"].append(run(engines["generated"]))
    finally:
        State.apply = kept  # type: ignore[method-assign]
    return out


def largest_rule_file() -> str:
    games = builtin_games()
    return max(games, key=lambda n: games[n].stat().st_size)


def front_end(name: str, engine: str, runs: int = 3) -> tuple[float, float, float]:
    """(warm ms, cold ms with the package's sources compiled, cold ms with their bytecode cached): load
    (parse, check) and compile_rules of `name`. Cold is a fresh process, imports included, the median of
    `runs`, in a bytecode folder of its own (PYTHONPYCACHEPREFIX): with every module's bytecode cached, and
    with all but this package's (as after an install that wrote no .pyc files for it, or with
    PYTHONDONTWRITEBYTECODE set and no __pycache__ in the checkout)."""
    compile_rules(load(name, playable=False), engine=engine)
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        from interpreter.engine import rules as rules_mod
        rs = load(name, playable=False)
        rules_mod._compile_cached.cache_clear()
        compile_rules(rs, engine=engine)
        best = min(best, time.perf_counter() - t0)
    code = ("import time; t0 = time.perf_counter(); from interpreter import load; "
            "from interpreter.backends import compile_rules; "
            f"compile_rules(load({name!r}, playable=False), engine={engine!r}); "
            "print(time.perf_counter() - t0)")

    def child(prefix: str, write: bool = True) -> float:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": prefix}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if not write:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                             env=env)
        return 1000 * float(out.stdout.strip())

    compiled, cached = [], []
    with tempfile.TemporaryDirectory() as prefix:
        child(prefix)                               # the bytecode of everything imported, written
        cached = [child(prefix) for _ in range(runs)]
        # without this package's bytecode (the rest, the standard library and the dependencies, kept)
        shutil.rmtree(Path(prefix) / str(ROOT / "interpreter").lstrip("/"), ignore_errors=True)
        compiled = [child(prefix, write=False) for _ in range(runs)]
    return 1000 * best, statistics.median(compiled), statistics.median(cached)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*")
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--engine", choices=[*ENGINES, "both"], default="both")
    ap.add_argument("--steps", action="store_true", help="what each step bought (median and best of 5)")
    ap.add_argument("--phases", action="store_true", help="where a random deal's time goes, phase by phase")
    a = ap.parse_args()
    if a.phases:
        for e in ["generated"] if a.engine == "both" else [a.engine]:
            for n in a.games or ["wien", "koenigrufen", "priffe"]:
                print(f"{n} ({e}, {a.deals} random deals): phase, calls per deal, µs per deal in legal_actions() "
                      "and in apply()")
                for ph, calls, t_l, t_a in phases(n, a.deals, e):
                    print(f"  {ph:<16} {calls:>6.1f} {t_l:>9.1f} {t_a:>9.1f}")
        return
    if a.steps:
        for n in a.games or ["wien", "wien-hearts", "koenigrufen"]:
            for label, v in steps(n, max(a.deals // 5, 50)).items():
                print(f"{n:<14} {label:<38} median {sorted(v)[len(v) // 2]:>9.0f}  best {max(v):>9.0f} actions/s")
        return
    engines = list(ENGINES) if a.engine == "both" else [a.engine]
    names = a.games or ["wien", "wien-hearts", "simple", "croatian", "koenigrufen", "priffe"]
    print(f"{'game':<14} {'engine':<12} {'deals/s':>9} {'actions/deal':>13} {'actions/s':>10} "
          f"{'legal µs':>9} {'apply µs':>9}")
    for n in names:
        for e in engines:
            try:
                r = bench(n, a.deals, e)
            except Exception as err:  # a game the engine cannot play yet
                print(f"{n:<14} {e:<12} not playable: {type(err).__name__}: {str(err)[:70]}")
                continue
            print(f"{n:<14} {e:<12} {r['deals_per_s']:>9.0f} {r['actions_per_deal']:>13.1f} "
                  f"{r['actions_per_s']:>10.0f} {r['legal_us']:>9.2f} {r['apply_us']:>9.2f}")
    for e in engines:
        ca = clone_apply("wien", e)
        print(f"clone() + apply() on wien, {e}: {ca['clone_apply']:.2f} µs (clone() alone {ca['clone']:.2f} µs; "
              f"card play only {ca['play']:.2f} µs)")
    if not a.games or "koenigrufen" in a.games:
        for e in engines:
            k = all_against_all(max(a.deals // 3, 100), e)
            print(f"koenigrufen all against all (mein spiel, three passes, trischaken; Klop's deal), {e}: "
                  f"{k['deals_per_s']:.0f} deals/s, {k['actions_per_deal']:.1f} actions/deal")
    big = largest_rule_file()
    for e in engines:
        warm, cold, cold_pyc = front_end(big, e)
        print(f"front end ({big}: load + compile_rules), {e}: warm {warm:.1f} ms, cold {cold:.0f} ms "
              f"(with imports, sources compiled; {cold_pyc:.0f} ms with their bytecode cached)")


if __name__ == "__main__":
    main()
