"""tools/bench.py keeps working: it measures and prints (never judges a time), for both engines."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_bench_prints_every_figure():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bench.py"), "wien", "--deals", "20"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    rows = [ln.split() for ln in lines if ln.startswith("wien ")]
    assert {r[1] for r in rows} == {"generated", "interpreter"}
    for r in rows:
        assert float(r[2]) > 0 and float(r[3]) > 0      # deals/s, actions per deal
    assert sum("clone() + apply() on wien" in ln for ln in lines) == 2
    assert sum(ln.startswith("front end (") and "warm" in ln and "cold" in ln for ln in lines) == 2


def test_all_against_all_reaches_trischaken_in_every_deal():
    """KR-AUC-04, KR-AUC-07: forehand opens mein spiel, the others pass, forehand chooses trischaken; the
    function raises if any deal ends in another contract."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("stichwort_bench", ROOT / "tools" / "bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for engine in ("generated", "interpreter"):
        r = bench.all_against_all(15, engine)
        assert r["deals_per_s"] > 0
        assert r["actions_per_deal"] >= 48 + 4 + 1      # every card, the four calls, the choice


def test_phases_accounts_for_every_action_of_a_deal():
    """`bench.py --phases`: the deal comes first, once per deal and with a time; then each phase the deals
    went through, once, with its calls per deal (the auction in every deal of wien)."""
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bench.py"), "--phases", "--deals", "30", "wien"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [ln.split() for ln in out.stdout.splitlines()[1:]]
    assert rows[0][0] == "(deal)" and float(rows[0][1]) == 1.0 and float(rows[0][3]) > 0
    names = [r[0] for r in rows[1:]]
    assert "auction" in names and len(names) == len(set(names))
    assert float(rows[names.index("auction") + 1][1]) >= 3     # three seats call at least once each


def _tool(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"stichwort_{name}", ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_fingerprint_is_the_same_for_the_same_run_and_tells_a_different_one(tmp_path):
    """tools/fingerprint.py: a line per game and kind of bot, equal for equal runs; --against lists what differs."""
    fp = _tool("fingerprint")
    a = fp.one("wien", "random", 4, 1)
    assert a == fp.one("wien", "random", 4, 1)
    game, bots, out_md5, log_md5 = a.split()
    assert (game, bots) == ("wien", "random") and len(out_md5) == len(log_md5) == 32
    other = fp.one("wien", "random", 4, 2)
    assert other.split()[:2] == ["wien", "random"] and other != a
    bad = fp.one("no-such-game", "random", 4, 1)
    assert bad.startswith("no-such-game random exit 2")
