"""`simulate --ray` against the local run: a local Ray instance is started (in a subprocess, so that it
is shut down with it) and the `--json` summaries and the logs must be byte-identical.

Marked `ray` (it needs the [ray] extra and starts a cluster, ~10 s): CI runs it in its own step,
`pip install -e '.[ray]'` then `pytest -m ray`."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ray
ROOT = Path(__file__).resolve().parent.parent


def _simulate(*extra: str, log: Path) -> str:
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "interpreter", "simulate", "wien", "--deals", "400", "--seed", "3",
                           "--json", "--log", str(log), *extra], capture_output=True, text=True, env=env,
                          timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_simulate_on_ray_gives_the_local_results_byte_for_byte(tmp_path):
    local = _simulate(log=tmp_path / "local.jsonl")
    two = _simulate("--workers", "2", log=tmp_path / "two.jsonl")
    on_ray = _simulate("--ray", log=tmp_path / "ray.jsonl")
    assert '"deals": 400' in local
    assert on_ray == local == two
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert (tmp_path / "two.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_ray_sessions_match_too(tmp_path):
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", PYTHONPATH=str(ROOT))
    base = [sys.executable, "-m", "interpreter", "simulate", "wien", "--deals", "30", "--session", "4", "--json"]
    outs = [subprocess.run(base + extra, capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
            for extra in ([], ["--ray"])]
    assert all(o.returncode == 0 for o in outs), outs[1].stderr[-2000:]
    assert outs[0].stdout == outs[1].stdout
    assert '"sessions": 30' in outs[0].stdout
