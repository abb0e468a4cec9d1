#!/usr/bin/env python3
"""How fast the shared comparison's driver is on its own: the most the `run.sh` rows could read with an
engine that cost nothing. Measured and printed, never asserted.

`../shared/bench/compare.py` plays each deal through its own driver: at every step it reads the legal
actions' texts (cached by action id) and chooses by them. This tool plays compare.py's loop as `run.sh`
does, records every step's legal actions, then runs compare.py's policy alone over the recorded steps,
and the hand-written engine, alternating three times in one process:

    python tools/bench_driver.py [--deals N] [--bench DIR] [GAME:POLICY …]

GAME:POLICY is one of compare.py's rows, e.g. `wien:comparable` (the default, with
`koenigrufen:all_pass`). For each row it prints the loop's actions and deals per second, the driver's
alone, the driver's share of the loop's time, and the loop and the driver against the hand-written
engine's actions per second.
"""
from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load  # noqa: E402
from interpreter.engine import deal_cards  # noqa: E402
from interpreter.engine.rules import compile_rules  # noqa: E402
from interpreter.engine.state import State  # noqa: E402

POLICIES = {"comparable": True, "random": False, "all_pass": "all_pass"}


def _policy(C, kind):
    if kind is True:
        return C.comparable_policy
    if kind == "all_pass":
        return C.all_pass_policy
    return lambda st, legal, rng: legal[rng.randrange(len(legal))]


def row(C, hw, game: str, kind, deals: int, reps: int = 3) -> dict[str, float]:
    R = compile_rules(load(game))
    policy = _policy(C, kind)
    C.run_project(game, 50, kind)                       # warm, as compare.py does
    steps = []                                          # (state, legal) of every step of `deals` deals
    rng = random.Random(1)
    for i in range(deals):
        hands, talon = deal_cards(R, rng, i % R.n_seats)
        st = State(R, i % R.n_seats, hands, talon)
        while not st.is_over():
            legal = st.legal_actions()
            steps.append((st, legal))
            st.apply(policy(st, legal, rng))
    loop, loop_deals, alone, hand = [], [], [], []
    for _ in range(reps):
        r = C.run_project(game, deals, kind)
        loop.append(r["actions_per_s"])
        loop_deals.append(r["deals_per_s"])
        rng = random.Random(2)
        t = time.perf_counter()
        for st, legal in steps:
            policy(st, legal, rng)
        alone.append(len(steps) / (time.perf_counter() - t))
        hand.append(hw.run(deals, reps=1)["actions_per_s"])
    a_loop, a_alone, a_hand = (statistics.median(x) for x in (loop, alone, hand))
    per_deal = len(steps) / deals
    return {"loop_actions_per_s": a_loop, "loop_deals_per_s": statistics.median(loop_deals),
            "driver_actions_per_s": a_alone, "driver_deals_per_s": a_alone / per_deal,
            "driver_share": a_loop / a_alone, "handwritten_actions_per_s": a_hand,
            "x_handwritten_loop": a_loop / a_hand, "x_handwritten_driver_alone": a_alone / a_hand}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows", nargs="*", default=["wien:comparable", "koenigrufen:all_pass"])
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--bench", default=str(ROOT.parent / "shared" / "bench"),
                    help="the folder holding compare.py and handwritten_wien.py")
    a = ap.parse_args()
    bench = Path(a.bench)
    if not (bench / "compare.py").is_file():
        ap.exit(2, f"bench_driver: {bench / 'compare.py'}: not found (give the folder with --bench)\n")
    sys.path.insert(0, str(bench))
    argv, sys.argv = sys.argv, [sys.argv[0], str(ROOT), "1"]     # compare.py reads its arguments on import
    try:
        C = importlib.import_module("compare")
    finally:
        sys.argv = argv
    hw = importlib.import_module("handwritten_wien")
    for spec in a.rows:
        game, _, pol = spec.partition(":")
        if pol not in POLICIES:
            ap.exit(2, f"bench_driver: {spec}: the policy must be one of {', '.join(POLICIES)}\n")
        r = row(C, hw, game, POLICIES[pol], a.deals)
        print(f"{game} {pol}: loop {r['loop_actions_per_s']:,.0f} actions/s, {r['loop_deals_per_s']:,.0f} deals/s "
              f"({r['x_handwritten_loop']:.3f}x hand-written); driver alone {r['driver_actions_per_s']:,.0f} "
              f"actions/s, {r['driver_deals_per_s']:,.0f} deals/s ({r['x_handwritten_driver_alone']:.3f}x "
              f"hand-written); the driver takes {r['driver_share']:.0%} of the loop's time")


if __name__ == "__main__":
    main()
