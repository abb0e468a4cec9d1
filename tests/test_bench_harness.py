"""tools/bench_harness.py measures the shared comparison's driver and prints; it never judges a time."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# a stand-in for ../shared/bench with the names the tool reads: two policies, their text memo, a run()
_COMPARE = '''
import sys
_TEXT = {}
def comparable_policy(st, legal, rng):
    texts = [_TEXT.get(a) or _TEXT.setdefault(a, st.action_text(a)) for a in legal]
    return legal[texts.index("go along")] if "go along" in texts else rng.choice(legal)
def all_pass_policy(st, legal, rng):
    texts = [_TEXT.get(a) or _TEXT.setdefault(a, st.action_text(a)) for a in legal]
    return legal[texts.index("pass")] if "pass" in texts else rng.choice(legal)
'''
_HANDWRITTEN = '''
def run(n, reps=1):
    return {"deals_per_s": 1000, "actions_per_deal": 30.0, "actions_per_s": 30000}
'''


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "bench_harness.py"), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_prints_the_driver_cost_and_the_ceiling(tmp_path):
    bench = tmp_path / "bench"
    bench.mkdir()
    (bench / "compare.py").write_text(_COMPARE)
    (bench / "handwritten_wien.py").write_text(_HANDWRITTEN)
    out = _run("--deals", "30", "--shared", str(tmp_path))
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r.get("game") for r in rows] == ["vienna", "wien", "koenigrufen"]
    for r in rows[1:]:
        assert r["policy_us_per_deal"] > 0 and r["deal_cards_us_per_deal"] > 0
        assert r["actions_per_deal"] > 5
        # the ceiling is what the driver alone allows: one deal's driver time, inverted
        expect = 1e6 / (r["policy_us_per_deal"] + r["deal_cards_us_per_deal"])
        assert abs(r["ceiling_deals_per_s"] - expect) / expect < 0.05
        # … and where compare.py's loop pays it, between the engine's calls
        assert r["policy_in_loop_us_per_deal"] >= 0
        expect = r["actions_per_deal"] * 1e6 / (r["policy_in_loop_us_per_deal"] + r["deal_cards_us_per_deal"])
        assert abs(r["ceiling_in_loop_actions_per_s"] - expect) / expect < 0.05
    assert rows[1]["ceiling_x_handwritten_actions"] == round(rows[1]["ceiling_actions_per_s"] / 30000, 3)
    assert rows[1]["ceiling_in_loop_x_handwritten_actions"] == round(rows[1]["ceiling_in_loop_actions_per_s"] / 30000, 3)


def test_missing_shared_bench_is_a_clear_error(tmp_path):
    out = _run("--shared", str(tmp_path / "nowhere"))
    assert out.returncode == 2
    assert "compare.py" in out.stderr and "Traceback" not in out.stderr
