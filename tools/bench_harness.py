#!/usr/bin/env python3
"""What the shared comparison's own driver costs, measured (never asserted).

`../shared/bench/compare.py` drives the engine with policies that read each legal action's text
(`comparable_policy`, `all_pass_policy`) and deals with `deal_cards`. That work is charged to the
engine's actions per second, while the hand-written engine it is compared with chooses among its
own integers. This tool replays, against a state that costs nothing, the very legal-action lists the
engine produced, calls compare.py's policies on them, and times the deal; it then prints the best
figure the engine could reach in that comparison if legal_actions(), apply() and State() cost
nothing at all, next to the hand-written engine measured in the same run. It also times the policy
where compare.py pays it, between the engine's calls (`in_loop`): a higher cost, and a lower ceiling.

    python tools/bench_harness.py [--deals N] [--shared PATH]      # PATH: ../shared by default
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load  # noqa: E402
from interpreter.backends import compile_rules  # noqa: E402
from interpreter.engine import deal_cards  # noqa: E402
from interpreter.engine.state import State  # noqa: E402


def _module(path: Path, name: str, argv: list[str]):
    """Import a file of the shared bench (compare.py reads sys.argv when imported)."""
    saved = sys.argv
    sys.argv = argv
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.argv = saved


class _Free:
    """A state whose only method the policies call costs one dict look-up."""

    def __init__(self, texts: dict[int, str]):
        self.texts = texts

    def action_text(self, action: int) -> str:
        return self.texts[action]


def measure(compare, game: str, policy_name: str, deals: int) -> dict:
    R = compile_rules(load(game))
    policy = compare.comparable_policy if policy_name == "comparable" else compare.all_pass_policy
    rng = random.Random(1)
    seen: list[list[int]] = []
    texts: dict[int, str] = {}
    for i in range(deals):                     # the legal-action lists of real deals, recorded
        hands, talon = deal_cards(R, rng, i % R.n_seats)
        st = State(R, i % R.n_seats, hands, talon)
        while not st.is_over():
            legal = st.legal_actions()
            for a in legal:
                if a not in texts:
                    texts[a] = st.action_text(a)
            seen.append(list(legal))
            st.apply(policy(st, legal, rng))
    free = _Free(texts)
    compare._TEXT.clear()
    prng = random.Random(2)
    t = time.perf_counter()
    for legal in seen:
        policy(free, legal, prng)
    t_policy = (time.perf_counter() - t) / deals
    drng = random.Random(3)
    t = time.perf_counter()
    for i in range(deals):
        deal_cards(R, drng, i % R.n_seats)
    t_deal = (time.perf_counter() - t) / deals
    per_deal = len(seen) / deals
    t_in_loop = in_loop(R, policy, deals)
    return {"game": game, "policy": policy_name, "actions_per_deal": round(per_deal, 1),
            "policy_us_per_deal": round(t_policy * 1e6, 1), "deal_cards_us_per_deal": round(t_deal * 1e6, 1),
            "ceiling_deals_per_s": round(1 / (t_policy + t_deal)),
            "ceiling_actions_per_s": round(per_deal / (t_policy + t_deal)),
            "policy_in_loop_us_per_deal": round(t_in_loop * 1e6, 1),
            "ceiling_in_loop_actions_per_s": round(per_deal / (t_in_loop + t_deal))}


def in_loop(R, policy, deals: int, reps: int = 5) -> float:
    """The policy's time per deal where compare.py pays it, between the engine's calls: compare.py's loop
    run as it is, and again with a second call of the policy at every step (its own generator, so the deals
    stay the same); the median difference of `reps` alternations. The tight replay above leaves out what
    the engine's calls cost the policy's caches, and gives the lower figure."""
    def loop(twice: bool) -> float:
        rng, other = random.Random(1), random.Random(5)
        t = time.perf_counter()
        for i in range(deals):
            hands, talon = deal_cards(R, rng, i % R.n_seats)
            st = State(R, i % R.n_seats, hands, talon)
            while not st.is_over():
                legal = st.legal_actions()
                if twice:
                    policy(st, legal, other)
                st.apply(policy(st, legal, rng))
        return time.perf_counter() - t
    loop(False)
    diffs = []
    for _ in range(reps):
        once = loop(False)
        diffs.append(loop(True) - once)
    diffs.sort()
    return max(diffs[len(diffs) // 2], 0.0) / deals     # (below the timer's noise on a few deals: none)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    args = ap.parse_args(argv)
    bench = Path(args.shared) / "bench"
    if not (bench / "compare.py").is_file():
        print(f"bench_harness: no {bench / 'compare.py'}: give --shared PATH", file=sys.stderr)
        return 2
    sys.path.insert(0, str(bench))
    compare = _module(bench / "compare.py", "shared_compare", ["compare.py", str(ROOT), "1"])
    hw = _module(bench / "handwritten_wien.py", "shared_handwritten", ["handwritten_wien.py"])
    hand = hw.run(args.deals * 3, reps=1)
    print(json.dumps({"engine": "handwritten", "game": "vienna", **{k: hand[k] for k in
                      ("deals_per_s", "actions_per_deal", "actions_per_s")}}))
    for game, policy in (("wien", "comparable"), ("koenigrufen", "all_pass")):
        row = measure(compare, game, policy, args.deals)
        if game == "wien":
            row["ceiling_x_handwritten_actions"] = round(row["ceiling_actions_per_s"] / hand["actions_per_s"], 3)
            row["ceiling_in_loop_x_handwritten_actions"] = round(row["ceiling_in_loop_actions_per_s"]
                                                                 / hand["actions_per_s"], 3)
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
