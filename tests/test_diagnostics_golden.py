"""Golden tests of the diagnostics: every bad rule file under tests/diagnostics/cases/ is validated
and the output of `stichwort validate <case>` (file:line:col, the source line with carets, help and
did-you-mean) must equal the golden file NAME.out beside it, whose first line records the exit code.

Rewrite the goldens after an intended change with `pytest --update-goldens` (or
STICHWORT_UPDATE_GOLDENS=1) and review the diff. Files under cases/helpers/ are bases that cases
extend; they are not cases themselves.
"""
from __future__ import annotations

import contextlib
import functools
import io
import re
from pathlib import Path

import pytest

from interpreter import cli, pipeline
from interpreter.pipeline import Report

ROOT = Path(__file__).resolve().parent.parent
CASES_DIR = ROOT / "tests" / "diagnostics" / "cases"
SUFFIXES = (".stw", ".yaml", ".yml", ".json")
CASES = sorted(p for p in CASES_DIR.iterdir() if p.is_file() and p.suffix in SUFFIXES)

# Cases whose error concerns the file as a whole, so no line can be named.
WHOLE_FILE = {"schema_missing_required"}

# Every code the cases must keep exercising.
REQUIRED_CODES = {
    "E100", "E102", "E110", "E111", "E112", "E113", "E114", "E120", "E121", "E122", "E123",
    "E130", "E131", "E132", "E133",
    "E201", "E202", "E203", "E204", "E205", "E207", "E208",
    "E301", "E302", "E303", "E304", "E305", "E306", "E307", "E308", "E309", "E317", "E318", "E319", "E325", "E327",
    "E401", "E402", "E403", "E404", "E410",
}


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@functools.cache
def run_case(case: Path) -> tuple[int, str, Report]:
    """Exit code and output of `stichwort validate <case>`, run in this process from the repo root
    with the case's path relative to it, and the pipeline's report behind that output."""
    reports: list[Report] = []
    original = pipeline.check

    def recording_check(target):
        reports.append(original(target))
        return reports[-1]

    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)
        mp.setattr(pipeline, "check", recording_check)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["validate", relative(case)])
    text = out.getvalue()
    if err.getvalue():
        text += "# stderr\n" + err.getvalue()
    assert len(reports) == 1
    return code, text, reports[0]


def golden_text(code: int, output: str) -> str:
    return f"# exit {code}\n{output}"


def test_there_are_enough_distinct_cases():
    assert len(CASES) >= 45
    stems = [p.stem for p in CASES]
    assert len(stems) == len(set(stems)), "two cases share a name; their goldens would collide"


def test_no_stale_goldens():
    outs = {p.stem for p in CASES_DIR.glob("*.out")}
    assert outs <= {p.stem for p in CASES}, f"goldens without a case: {sorted(outs - {p.stem for p in CASES})}"


@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_diagnostics_match_golden(case: Path, update_goldens):
    code, output, _ = run_case(case)
    assert "Traceback" not in output and "internal error" not in output, output
    assert code in (1, 2), f"a bad rule file must exit 1 or 2, not {code}:\n{output}"
    assert output.startswith(f"FAIL {relative(case)}\n"), output
    golden = case.with_suffix(".out")
    text = golden_text(code, output)
    if update_goldens:
        golden.write_text(text, encoding="utf-8")
        return
    assert golden.is_file(), f"no golden for {case.name}: run pytest --update-goldens"
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_diagnostics_are_placed(case: Path):
    """At least one diagnostic names a line (unless the error is about the whole file), every line
    and column named lies within its file, and every diagnostic says what to do or is self-evident."""
    _, _, report = run_case(case)
    assert not report.ok and report.diagnostics
    placed = [d for d in report.diagnostics if d.span is not None]
    if case.stem in WHOLE_FILE:
        assert all(d.span is None for d in report.diagnostics)
    else:
        assert placed, f"no diagnostic of {case.name} names a line"
    for d in placed:
        source = report.sources.get(d.file)
        assert source is not None, f"{d.code} points into {d.file}, whose text is not shown"
        lines = source.splitlines()
        assert 1 <= d.span.line <= d.span.end_line <= len(lines), d.to_json()
        assert 1 <= d.span.col <= len(lines[d.span.line - 1]) + 1, d.to_json()
        assert (d.span.end_line, d.span.end_col) > (d.span.line, d.span.col), d.to_json()


def test_cases_cover_the_codes():
    codes = set()
    for golden in CASES_DIR.glob("*.out"):
        codes.update(re.findall(r"^\S+: (E\d{3}) ", golden.read_text(encoding="utf-8"), re.M))
    assert codes >= REQUIRED_CODES, f"no case exercises {sorted(REQUIRED_CODES - codes)}"
