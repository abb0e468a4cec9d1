"""Golden tests of the scenario format: each file under tests/scenario_cases/ is run with `stichwort test` from
the repository root, and its exit code and output must equal the golden NAME.out beside it. The cases are
what a scenario may not say (an empty `expect`, a key the game never records, a decimal, an outcome key the
game has no use for, `tricks` for an all-pass deal where nothing is played, a view or trick key that does
not exist, draw seats a game does not give) and what it fails on with a clear line (card points in another
spelling of a wrong number, a view key expected but absent).

Rewrite the goldens after an intended change with `pytest --update-goldens` (or
STICHWORT_UPDATE_GOLDENS=1) and review the diff.
"""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from interpreter import cli

ROOT = Path(__file__).resolve().parent.parent
CASES_DIR = ROOT / "tests" / "scenario_cases"
CASES = sorted(CASES_DIR.glob("*.yaml"))


def run_case(case: Path, monkeypatch) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.chdir(ROOT)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main(["test", case.relative_to(ROOT).as_posix()])
    return code, out.getvalue()


def test_there_are_cases_and_no_stale_goldens():
    assert len(CASES) >= 12
    outs = {p.stem for p in CASES_DIR.glob("*.out")}
    assert outs <= {p.stem for p in CASES}, f"goldens without a case: {sorted(outs - {p.stem for p in CASES})}"


@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_scenario_case_matches_golden(case: Path, monkeypatch, update_goldens):
    code, output = run_case(case, monkeypatch)
    assert "Traceback" not in output, output
    assert code in (1, 2), f"a case is a scenario that fails (1) or is wrong (2), not {code}:\n{output}"
    text = f"# exit {code}\n{output}"
    golden = case.with_suffix(".out")
    if update_goldens:
        golden.write_text(text, encoding="utf-8")
        return
    assert golden.is_file(), f"no golden for {case.name}: run pytest --update-goldens"
    assert text == golden.read_text(encoding="utf-8")
