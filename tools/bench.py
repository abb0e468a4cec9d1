#!/usr/bin/env python3
"""Engine speed, measured (never asserted): random full deals per second on one core, actions per
deal, and the mean time of legal_actions() and apply().

    python tools/bench.py [NAME …] [--deals N]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from interpreter.resources import builtin_games


def bench(name: str, deals: int) -> dict:
    rs = load(name)
    R = compile_rules(rs)
    rng = random.Random(1)
    # whole deals, the way a random simulation runs them
    actions = 0
    t0 = time.perf_counter()
    for i in range(deals):
        hands, talon = deal_cards(R, rng, i % R.n_seats)
        st = State(R, i % R.n_seats, hands, talon)
        while st.phase != "end":
            legal = st.legal_actions()
            st.apply_unchecked(legal[rng.randrange(len(legal))])
            actions += 1
    whole = time.perf_counter() - t0
    # the two calls timed apart
    t_legal = t_apply = 0.0
    calls = 0
    rng = random.Random(2)
    for i in range(max(deals // 4, 50)):
        hands, talon = deal_cards(R, rng, i % R.n_seats)
        st = State(R, i % R.n_seats, hands, talon)
        while st.phase != "end":
            a = time.perf_counter()
            legal = st.legal_actions()
            b = time.perf_counter()
            st.apply_unchecked(legal[rng.randrange(len(legal))])
            c = time.perf_counter()
            t_legal += b - a
            t_apply += c - b
            calls += 1
    return {"game": name, "deals_per_s": deals / whole, "actions_per_deal": actions / deals,
            "legal_us": 1e6 * t_legal / calls, "apply_us": 1e6 * t_apply / calls}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*")
    ap.add_argument("--deals", type=int, default=3000)
    a = ap.parse_args()
    names = a.games or [n for n in builtin_games() if load(n).doc.get("family") == "preference"]
    print(f"{'game':<22} {'deals/s':>9} {'actions/deal':>13} {'legal_actions µs':>17} {'apply µs':>9}")
    for n in names:
        r = bench(n, a.deals)
        print(f"{r['game']:<22} {r['deals_per_s']:>9.0f} {r['actions_per_deal']:>13.1f} {r['legal_us']:>17.2f} {r['apply_us']:>9.2f}")


if __name__ == "__main__":
    main()
