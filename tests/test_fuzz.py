"""Fuzzing the boundaries (issue 14): mutated rule files in all three spellings, schema-shaped mutations
of scenario files, logs and saves (Hypothesis), and random command lines. Whatever the input, the
command exits 0, 1 or 2, never says "internal error", and each case finishes within CASE_SECONDS.

The default run is short (a few seconds per test). The long run is behind the `fuzz` marker:

    STICHWORT_FUZZ_CASES=10000 pytest -m fuzz tests/test_fuzz.py --hypothesis-seed 1 -p no:cacheprovider

A case that files a failure is written to STICHWORT_FUZZ_OUT (default: the pytest tmp folder) so it can
become a regression case.
"""
from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import signal
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent
CASE_SECONDS = 20
LONG_CASES = int(os.environ.get("STICHWORT_FUZZ_CASES", "10000"))
QUICK = settings(max_examples=20, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
LONG = settings(max_examples=LONG_CASES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


class CaseTimeout(BaseException):
    """Not an Exception, so that the command's own last guard cannot swallow it."""


def _alarm(signum, frame):
    raise CaseTimeout


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, float]:
    """Run the command in this process with a time limit; (exit code, output, seconds)."""
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(CASE_SECONDS)
    t0 = time.perf_counter()
    saved_stdin = os.sys.stdin
    try:
        os.sys.stdin = io.StringIO(stdin)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except CaseTimeout:
        code = -1
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        os.sys.stdin = saved_stdin
    return code, out.getvalue() + err.getvalue(), time.perf_counter() - t0


class Findings:
    """What the fuzzing found: bad exits, internal errors and slow cases, with the input kept."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.cases = 0
        self.codes: dict[int, int] = {}
        self.bad: list[str] = []
        self.slowest = 0.0

    def check(self, label: str, code: int, output: str, seconds: float, payload: str, suffix: str) -> None:
        self.cases += 1
        self.codes[code] = self.codes.get(code, 0) + 1
        self.slowest = max(self.slowest, seconds)
        problem = None
        if code == -1:
            problem = f"took more than {CASE_SECONDS} s"
        elif code not in (0, 1, 2):
            problem = f"exit {code}"
        elif "internal error" in output or "Traceback" in output or "out of memory" in output:
            problem = output.strip().splitlines()[-1][:300]
        if problem:
            path = self.folder / f"case{len(self.bad)}{suffix}"
            path.write_text(payload, encoding="utf-8")
            self.bad.append(f"{label}: {problem} (input kept in {path})")

    def report(self, what: str) -> str:
        return (f"{what}: {self.cases} cases, exit codes {dict(sorted(self.codes.items()))}, "
                f"slowest {self.slowest:.2f} s, {len(self.bad)} problems")


@pytest.fixture
def findings(tmp_path):
    folder = Path(os.environ.get("STICHWORT_FUZZ_OUT") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return Findings(folder)


# ---- mutated rule files -------------------------------------------------------------------------

def _tool():
    """tools/fuzz.py: the mutations (and the differential fuzz of tests/test_fuzz_backends.py)."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("stichwort_fuzz", ROOT / "tools" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


_FUZZ = _tool()
TOKENS, mutate_text, _base_texts = _FUZZ.TOKENS, _FUZZ.mutate_text, _FUZZ.base_texts


def fuzz_rule_files(count: int, seed: int, folder: Path, findings: Findings, deadline: float | None = None) -> None:
    rng = random.Random(seed)
    bases = _base_texts()
    names = sorted(bases)
    for n in range(count):
        if deadline is not None and time.perf_counter() > deadline:
            break
        name = rng.choice(names)
        text = mutate_text(bases[name], rng)
        path = folder / f"m{n % 50}{Path(name).suffix}"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        code, output, seconds = run_cli(["validate", str(path)])
        findings.check(f"mutant {n} of {name}", code, output, seconds, text, Path(name).suffix)
        if code == 0:    # a file that validates must also play
            code, output, seconds = run_cli(["simulate", str(path), "--deals", "1", "--bots", "random", "--json",
                                             "--seed", str(n)])
            findings.check(f"mutant {n} of {name} (simulate)", code, output, seconds, text, Path(name).suffix)


@pytest.mark.slow
def test_mutated_rule_files_quick(tmp_path, findings):
    fuzz_rule_files(10_000, 14, tmp_path, findings, deadline=time.perf_counter() + 6)
    assert findings.cases >= 10
    assert not findings.bad, "\n".join(findings.bad)


@pytest.mark.fuzz
def test_mutated_rule_files_long(tmp_path, findings):
    fuzz_rule_files(LONG_CASES, int(os.environ.get("STICHWORT_FUZZ_SEED", "1")), tmp_path, findings)
    print(findings.report("mutated rule files"))
    assert not findings.bad, "\n".join(findings.bad[:50])


# ---- schema-shaped mutations of scenario files, logs and saves ----------------------------------

JUNK = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=-(10**40), max_value=10**40),
              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
              st.sampled_from(["A", "B", "C", "AH", "7C", "SK", "T21", "pass", "bid one", "play AH", "wien", "1/2",
                               "x" * 300, "../" * 3 + "etc/passwd", "/dev/zero", "\x1b[2J", "²", "-0", "1e999"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6) | st.sampled_from(
        ["A", "B", "C", "pot", "stake", "seat", "dealer"]), inner, max_size=4)),
    max_leaves=12)


def _paths(node, here=()):
    yield here
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, here + (i,))


def mutate_tree(data, draw):
    """Replace, delete or wrap a few nodes of a JSON-like tree."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(data))
        path = draw(st.sampled_from(paths))
        if not path:
            data = draw(JUNK) if draw(st.integers(0, 9)) == 0 else data
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        op = draw(st.integers(0, 3))
        if op == 0:
            del parent[path[-1]]
        elif op == 1:
            parent[path[-1]] = [parent[path[-1]]]
        else:
            parent[path[-1]] = draw(JUNK)
    return data


def _scenario_bases() -> list:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe")
    out = []
    for name in ("wien/scenarios/ex-02-lowest-bid.yaml", "wien/scenarios/hold.yaml",
                 "simple/scenarios/" + sorted(p.name for p in (ROOT / "games/simple/scenarios").glob("*.yaml"))[0]):
        out.append(yaml.load((ROOT / "games" / name).read_text(encoding="utf-8")))
    return out


SCENARIOS = _scenario_bases()


def _dump_yaml(data) -> str:
    from ruamel.yaml import YAML

    buf = io.StringIO()
    YAML(typ="safe").dump(data, buf)
    return buf.getvalue()


def scenario_case(data, tmp_path: Path, findings: Findings) -> None:
    base = data.draw(st.sampled_from(SCENARIOS))
    mutated = mutate_tree(base, data.draw)
    text = _dump_yaml(mutated) if data.draw(st.integers(0, 19)) else json.dumps(mutated, default=str)[:-1]
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    code, output, seconds = run_cli(["test", str(path)])
    findings.check("scenario", code, output, seconds, text, ".yaml")


@pytest.fixture(scope="module")
def log_record(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("log") / "log.jsonl"
    assert main(["simulate", "wien", "--deals", "1", "--seed", "9", "--log", str(path), "--json"]) == 0
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def log_case(data, record, tmp_path: Path, findings: Findings) -> None:
    lines = [json.dumps(mutate_tree(record, data.draw), default=str) for _ in range(data.draw(st.integers(1, 2)))]
    if data.draw(st.integers(0, 9)) == 0:
        lines.append(data.draw(st.sampled_from(["", "[" * 5000, "{}", "null", '{"rules": "wien", "dealer": NaN}'])))
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, output, seconds = run_cli(["replay", str(path)])
    findings.check("log", code, output, seconds, path.read_text(encoding="utf-8"), ".jsonl")


def save_case(data, record, tmp_path: Path, findings: Findings) -> None:
    header = {"format": "stichwort-save", "version": 1, "rules": "wien", "options": {}, "seat": 0, "seed": 9,
              "bots": "rule", "deals": 1}
    deal = {k: record[k] for k in ("dealer", "hands", "talon")} | {"actions": record["actions"][:data.draw(st.integers(0, 8))]}
    save = mutate_tree({"header": header, "deal": deal}, data.draw)
    parts = [save.get("header"), save.get("deal")] if isinstance(save, dict) else [save]
    text = "\n".join(json.dumps(p, default=str) for p in parts) + "\n"
    path = tmp_path / "game.save"
    path.write_text(text, encoding="utf-8")
    code, output, seconds = run_cli(["play", "wien", "--resume", str(path)], stdin=data.draw(st.sampled_from(
        ["", "q\n", "1\n", "²\n", "999\n", "bid one\n"])))
    findings.check("save", code, output, seconds, text, ".save")


@pytest.mark.slow
@QUICK
@given(data=st.data())
def test_scenario_files_quick(data, tmp_path, findings):
    scenario_case(data, tmp_path, findings)
    assert not findings.bad, "\n".join(findings.bad)


@QUICK
@given(data=st.data())
def test_logs_quick(data, log_record, tmp_path, findings):
    log_case(data, log_record, tmp_path, findings)
    assert not findings.bad, "\n".join(findings.bad)


@QUICK
@given(data=st.data())
def test_saves_quick(data, log_record, tmp_path, findings):
    save_case(data, log_record, tmp_path, findings)
    assert not findings.bad, "\n".join(findings.bad)


@pytest.mark.fuzz
def test_generated_files_long(log_record, tmp_path, findings):
    """Scenario files, logs and saves: LONG_CASES in all, a third each."""
    share = max(-(-LONG_CASES // 3), 1)

    def runner(case, extra):
        @settings(LONG, max_examples=share)
        @given(data=st.data())
        def one(data):
            case(data, *extra, tmp_path, findings)
        return one

    for name, case, extra in (("scenario", scenario_case, ()), ("log", log_case, (log_record,)),
                              ("save", save_case, (log_record,))):
        runner(case, extra)()
        print(findings.report(f"after the {name} files"))
    assert not findings.bad, "\n".join(findings.bad[:50])


# ---- command lines ------------------------------------------------------------------------------

WORDS = ["validate", "explain", "convert", "simulate", "replay", "play", "schema", "diff", "--json", "--all",
         "--format", "markdown", "html", "terminal", "--to", "stw", "yaml", "json", "-o", "out.md", "/dev/null",
         "--deals", "1", "2", "0", "-1", "1" * 30, "²", "--seed", "--workers", "--bots", "rule", "random",
         "--set", "stake=10", "stake=abc", "stake=true", "maximum=1/2", "x=1", "=", "--session", "--seat", "9",
         "--save", "--resume", "game.save", "--force", "-v", "wien", "simple", "nosuch", "x" * 300, "", "-", "--",
         "\x1b[2J", "--help", "--version", "-h"]


def command_line_case(argv: list[str], tmp_path: Path, findings: Findings) -> None:
    if "simulate" in argv:
        argv = argv + ["--deals", "1"]        # a bounded run, whatever else the line says
    code, output, seconds = run_cli(argv)
    if code == 0 and argv[:1] in (["-h"], ["--help"], ["--version"]):
        return
    findings.check(" ".join(argv), code, output, seconds, json.dumps(argv), ".json")


COMMAND_LINES = st.lists(st.sampled_from(WORDS), min_size=0, max_size=7)


@pytest.mark.slow
@given(argv=COMMAND_LINES)
@QUICK
def test_command_lines_quick(argv, tmp_path, findings, monkeypatch):
    monkeypatch.chdir(tmp_path)
    command_line_case(argv, tmp_path, findings)
    assert not findings.bad, "\n".join(findings.bad)


@pytest.mark.fuzz
def test_command_lines_long(tmp_path, findings, monkeypatch):
    """Command lines: a fiftieth of LONG_CASES (a line may validate every built-in game)."""
    monkeypatch.chdir(tmp_path)

    @settings(LONG, max_examples=max(LONG_CASES // 50, 1))
    @given(argv=COMMAND_LINES)
    def one(argv):
        command_line_case(argv, tmp_path, findings)

    one()
    print(findings.report("command lines"))
    assert not findings.bad, "\n".join(findings.bad[:50])
