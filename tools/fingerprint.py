#!/usr/bin/env python3
"""A fingerprint of what the engine and the bots do: for every built-in game and each kind of bot, the
md5 of `stichwort simulate NAME --json` and of its `--log`, one line each. A change meant to make
things faster, and nothing else, leaves every line as it was.

    python tools/fingerprint.py [--deals N] [--bots rule,random] [--jobs J] > before.txt
    ... change ...
    python tools/fingerprint.py --against before.txt      # lists the lines that differ; exit 1 if any

Each line runs the installed command in a process of its own, as a user would (`--jobs` at a time).
"""
from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _command() -> list[str]:
    return [sys.executable, "-m", "interpreter"]


def games() -> list[str]:
    out = subprocess.run([*_command(), "validate"], capture_output=True, text=True, cwd=ROOT)
    return sorted(line.split()[1] for line in out.stdout.splitlines() if line.startswith("ok "))


def one(game: str, bots: str, deals: int, seed: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log.jsonl"
        run = subprocess.run([*_command(), "simulate", game, "--deals", str(deals), "--seed", str(seed),
                              "--bots", bots, "--json", "--log", str(log)], capture_output=True, cwd=ROOT)
        if run.returncode != 0:
            return f"{game} {bots} exit {run.returncode}: {run.stderr.decode(errors='replace').strip()[:200]}"
        logged = log.read_bytes() if log.exists() else b""
    return f"{game} {bots} {hashlib.md5(run.stdout).hexdigest()} {hashlib.md5(logged).hexdigest()}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="rule,random", help="bot kinds, comma separated")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--against", type=Path, help="an earlier output: list the lines that differ")
    a = ap.parse_args()
    jobs = [(g, b) for g in games() for b in a.bots.split(",")]
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        lines = list(pool.map(lambda job: one(job[0], job[1], a.deals, a.seed), jobs))
    if a.against is None:
        print("\n".join(lines))
        return 0
    before = {" ".join(line.split()[:2]): line for line in a.against.read_text().splitlines() if line.strip()}
    changed = [(before.get(" ".join(line.split()[:2]), "(none)"), line) for line in lines
               if before.get(" ".join(line.split()[:2])) != line]
    for old, new in changed:
        print(f"- {old}\n+ {new}")
    print(f"{len(lines) - len(changed)} of {len(lines)} lines as before")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
