#!/usr/bin/env python3
"""Differential fuzzing of rule files (issue 38): mutated and variant rule files are validated, and every
one that validates is played through both backends — the generated code and the reference interpreter
(`STICHWORT_ENGINE=interpreter`) — which must take the same legal actions, say the same action texts and
end with the same results, payments and accounts.

Two kinds of case, from a seeded random.Random (the same seed, the same files):
- mutants: a built-in game's text (.stw, or written as YAML or JSON) with a few characters, tokens or
  lines changed, inserted, swapped or deleted — mostly files that do not validate;
- variants: a layer that `extends` a playable game and sets one to three of its values (a number, an
  expression, a figure's points, an option's default, a payment row) to another value — mostly files
  that validate and play differently.

    python tools/fuzz.py --files 10000 --seed 1 [--deals 2] [--out DIR]

prints the files, the seconds, the validated and played counts, the internal errors, the backend
disagreements, the files that validate but fail at play, the slowest file and the peak memory; each
failing case is kept in --out. Exit 1 if anything was found. tests/test_fuzz_backends.py runs a fixed
number of cases of each kind in the default test run; tests/test_fuzz.py's long run uses the mutants.
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import random
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TOKENS = ['{', '}', '[', ']', '(', ')', '=', '"', '#', '\n', ',', '|', ':', '-', '*', '&a', '*a', '!!python/object:os.system',
          'extends "wien"', 'extends "/proc/self/environ"', 'extends "' + 'x' * 300 + '"', '9' * 30, '0x' + 'f' * 40,
          '2 ^ 2 ^ 2 ^ 2 ^ 2', '3 ^ 99', 'let f(x) = f(x)', 'players = 7', 'seats = 9', 'sit_out = nobody', 'discard = 40',
          'procedure = [play]', 'count(n for n in seats)', 'sum(sum(sum(sum(1 for a in seats) for b in seats) '
          'for c in seats) for d in seats)', '\x1b[2J', '\x00', 'é', '²', '1/0', '10 / 0', 'declarer', 'none', 'true',
          'contract one { rank = 1 }', 'option x { default = 1 }', 'table {', '| a | b |', '-1', '1e308', 'NaN',
          '３', '\u0661' * 20, '1\u0660\u0660', 'null', '3.5', '999999999999999 ^ 64', 'body: null']

MUTANT_BASES = ("wien", "simple", "croatian")
VARIANT_BASES = ("wien", "simple", "croatian", "koenigrufen", "priffe", "spades", "ohhell", "wien-4")
VALUES = [0, 1, 2, 3, -1, 7, 100, 999999999999999, "3.5", "1/2", "2 + 1", "0.25", "none", "true", "false", True, False,
          None, "stake", "tricks(declarer)", "1 / 0", "2 ^ 64", "999999999999999 ^ 64", "-(3.5)", "if made then 1 else 2"]


NUMBERS = [0, 1, 2, 3, 4, 5, 6, 10, 12, -1, -2, 99, 999999999999999, "3.5", "1/2", "2 + 1", "0.25", "7/3"]


def base_texts() -> dict[str, str]:
    """The texts mutants start from: three games as written, and two as YAML and JSON."""
    from interpreter.language import writer
    from interpreter.language.loader import read_layer, resolve

    out = {f"{name}.stw": resolve(name).read_text(encoding="utf-8") for name in MUTANT_BASES}
    doc = read_layer(resolve("wien-4")).doc
    out["wien4.yaml"] = writer.to_yaml(doc)
    out["wien4.json"] = writer.to_json(doc)
    out["simple.yaml"] = writer.to_yaml(read_layer(resolve("simple")).doc)
    return out


def mutate_text(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        if not text:
            text = rng.choice(TOKENS)
            continue
        op = rng.randrange(7)
        i = rng.randrange(len(text))
        if op == 0:
            text = text[:i] + text[i + rng.randint(1, 30):]
        elif op == 1:
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif op == 2:
            lines = text.splitlines(keepends=True)
            j = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[j])
            text = "".join(lines)
        elif op == 3:
            lines = text.splitlines(keepends=True)
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = "".join(lines)
        elif op == 4:
            digits = [k for k, ch in enumerate(text) if ch.isdigit()]
            if digits:
                k = rng.choice(digits)
                text = text[:k] + rng.choice(["0", "-1", "99", "1000001", "9" * 20, "7" * 5000, "３", "\u0663"]) + text[k + 1:]
        elif op == 5:
            j = rng.randrange(len(text))
            text = text[:i] + text[j: j + rng.randint(1, 40)] + text[i:]
        else:
            text = text[:i] + chr(rng.choice([0x1b, 0x7, 0x0, 0xa0, 0x2028, 0x202e, 0xfeff, rng.randrange(32, 0x2fff)])) + text[i:]
    return text


def _leaves(node, path=()):
    """(path, value) of every scalar in a document, and of every list (a value may replace a list too)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(node, list):
        yield path, node
        for i, v in enumerate(node):
            yield from _leaves(v, path + (i,))
    else:
        yield path, node


_SKIP = {"title", "description", "customs", "doc", "rule", "note", "catalog", "source", "aka", "names", "family"}


def variant(docs: dict[str, dict], rng: random.Random) -> tuple[str, dict]:
    """A layer over a playable game: one to three of its values set to another (a value from VALUES, or
    another value of the same game). Lists are replaced whole, so a layer is a plain nested mapping."""
    name = rng.choice(sorted(docs))
    doc = docs[name]
    leaves = [(p, v) for p, v in _leaves(doc) if p and p[0] not in ("extends", "remove", "edit")
              and not set(map(str, p)) & _SKIP]
    layer: dict = {"extends": name}
    strings = [v for _, v in leaves if isinstance(v, str)]
    numbers = [(p, v) for p, v in leaves if isinstance(v, int) and not isinstance(v, bool)]
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        path, old = rng.choice(numbers if numbers and rng.random() < 0.6 else leaves)
        roll = rng.random()
        if isinstance(old, int) and not isinstance(old, bool) and roll < 0.6:
            new = rng.choice(NUMBERS)               # mostly of the kind that stood there: such files validate
        elif isinstance(old, str) and roll < 0.5 and strings:
            new = rng.choice(strings)
        else:
            new = rng.choice(VALUES) if roll < 0.8 else copy.deepcopy(rng.choice(leaves)[1])
        cut = next((k for k, p in enumerate(path) if isinstance(p, int)), len(path))   # the list holding it
        top = path[:cut]
        if not top:
            continue
        whole = copy.deepcopy(_get(doc, top)) if cut < len(path) else None
        if whole is not None:
            _set(whole, path[cut:], new)
            new = whole
        here = layer
        for p in top[:-1]:
            here = here.setdefault(p, {}) if isinstance(here.get(p, {}), dict) else here
        here[top[-1]] = new
    return name, layer


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def _set(node, path, value) -> None:
    if not path:
        return
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


@dataclass
class Findings:
    files: int = 0
    valid: int = 0
    played: int = 0
    internal: list = field(default_factory=list)
    disagree: list = field(default_factory=list)
    fails_at_play: list = field(default_factory=list)
    slowest: tuple = (0.0, "")
    slowest_validate: tuple = (0.0, "")     # `validate` alone (issue 38: under 2 s for any file within the caps)
    seconds: float = 0.0

    @property
    def bad(self) -> list:
        return self.internal + self.disagree + self.fails_at_play

    def report(self) -> str:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return (f"{self.files} files in {self.seconds:.0f} s: {self.valid} validated, {self.played} played through both "
                f"backends; {len(self.internal)} internal errors, {len(self.disagree)} backend disagreements, "
                f"{len(self.fails_at_play)} valid files failing at play; slowest file {self.slowest[0]:.2f} s "
                f"({self.slowest[1]}), slowest validate {self.slowest_validate[0]:.2f} s ({self.slowest_validate[1]}), "
                f"peak memory {peak:.0f} MB")


def validate(path: Path) -> tuple[int, str]:
    from interpreter.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["validate", str(path)])
    return code, out.getvalue()


def play_both(rs, deals: int, seed: int) -> str | None:
    """The deals played step by step through both backends; None if they agree, else what differs. A
    RuleRuntimeError (the rules fail at play) is raised if both backends raise it alike."""
    from interpreter.engine import deal_cards
    from interpreter.engine.rules import compile_rules
    from interpreter.engine.state import State

    ref, gen = compile_rules(rs, engine="interpreter"), compile_rules(rs, engine="generated")
    for i in range(deals):
        dealer = i % ref.n_seats
        hands, talon = deal_cards(ref, random.Random(f"{seed}:deal:{i}"), dealer)
        states = [State(R, dealer, hands, talon, deal_number=i) for R in (ref, gen)]
        rng = random.Random(f"{seed}:policy:{i}")
        steps = 0
        while True:
            outcome = [_step(lambda st=st: (st.is_over(), st.is_over() or st.legal_actions())) for st in states]
            if outcome[0] != outcome[1]:
                return f"deal {i} step {steps}: {outcome[0]!r:.200} against {outcome[1]!r:.200}"
            (over, legal), _ = outcome[0]
            if over:
                break
            a = legal[rng.randrange(len(legal))]
            texts = [_step(lambda st=st, a=a: st.action_text(a)) for st in states]
            if texts[0] != texts[1]:
                return f"deal {i} step {steps}: says {texts[0]!r} against {texts[1]!r}"
            applied = [_step(lambda st=st, a=a: st.apply(a)) for st in states]
            if applied[0][1] != applied[1][1]:
                return f"deal {i} step {steps}: {applied[0][1]!r} against {applied[1][1]!r}"
            if applied[0][1] is not None:
                raise applied[0][1][0](applied[0][1][1])
            steps += 1
        a, b = states
        for what in ("result", "payments", "accounts"):
            x = a.result() if what == "result" else getattr(a, what)
            y = b.result() if what == "result" else getattr(b, what)
            if x != y:
                return f"deal {i}: {what} {x!r:.200} against {y!r:.200}"
    return None


def _step(fn):
    """(value, None) or (None, (exception type, message)) — an exception is compared, not raised."""
    try:
        return fn(), None
    except Exception as err:
        return None, (type(err), str(err))


def run_case(path: Path, text: str, label: str, findings: Findings, deals: int, seed: int, out: Path | None) -> None:
    from interpreter.engine.errors import RuleRuntimeError
    from interpreter.pipeline import load

    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    findings.files += 1
    t0 = time.perf_counter()
    problem = None
    try:
        code, output = validate(path)
        took = time.perf_counter() - t0
        if took > findings.slowest_validate[0]:
            findings.slowest_validate = (took, label)
        if "internal error" in output or "Traceback" in output or code not in (0, 1, 2):
            problem = ("internal", output.strip().splitlines()[-1][:300] if output.strip() else f"exit {code}")
        elif code == 0:
            findings.valid += 1
            rs = load(str(path))
            try:
                differs = play_both(rs, deals, seed)
            except RuleRuntimeError as err:
                problem = ("fails_at_play", str(err)[:300])
            else:
                findings.played += 1
                if differs:
                    problem = ("disagree", differs)
    except Exception as err:
        problem = ("internal", f"{type(err).__name__}: {err}"[:300])
    seconds = time.perf_counter() - t0
    if seconds > findings.slowest[0]:
        findings.slowest = (seconds, label)
    if problem:
        kept = ""
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            kept_path = out / f"case{len(findings.bad)}{path.suffix}"
            kept_path.write_text(text, encoding="utf-8", errors="surrogatepass")
            kept = f" (kept in {kept_path})"
        getattr(findings, problem[0]).append(f"{label}: {problem[1]}{kept}")


def variant_docs() -> dict[str, dict]:
    from interpreter.pipeline import check

    out = {}
    for name in VARIANT_BASES:
        report = check(name)
        if report.ok and report.loaded is not None:
            out[name] = report.loaded.doc
    return out


def fuzz(files: int, seed: int, folder: Path, deals: int = 2, out: Path | None = None,
         kinds: tuple[str, ...] = ("mutant", "variant"), deadline: float | None = None, progress: int = 0,
         first: int = 0) -> Findings:
    """`files` cases, alternating the kinds, written in `folder` one at a time; the cases before `first` are
    made (the seeded sequence is the same) but not run, so that a long run can be split over processes."""
    rng = random.Random(seed)
    texts = base_texts() if "mutant" in kinds else {}
    docs = variant_docs() if "variant" in kinds else {}
    names = sorted(texts)
    findings = Findings()
    t0 = time.perf_counter()
    for n in range(files):
        if deadline is not None and time.perf_counter() > deadline:
            break
        kind = kinds[n % len(kinds)]
        if kind == "mutant":
            name = rng.choice(names)
            text, suffix = mutate_text(texts[name], rng), Path(name).suffix
        else:
            name, layer = variant(docs, rng)
            text, suffix = json.dumps(layer, ensure_ascii=False, default=str) + "\n", ".json"
        if n < first:
            continue
        run_case(folder / f"case{n % 20}{suffix}", text, f"{kind} {n} of {name}", findings, deals, seed + n, out)
        if progress and findings.files % progress == 0:
            findings.seconds = time.perf_counter() - t0
            print("so far: " + findings.report(), flush=True)
    findings.seconds = time.perf_counter() - t0
    return findings


def main(argv=None) -> int:
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=2, help="deals played through both backends per valid file")
    ap.add_argument("--kinds", default="mutant,variant")
    ap.add_argument("--out", type=Path, help="keep each failing case here")
    ap.add_argument("--first", type=int, default=0, metavar="N",
                    help="run the cases from number N of the sequence on (a long run split over processes)")
    ap.add_argument("--progress", type=int, default=0, metavar="N", help="print the figures so far every N files")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        found = fuzz(args.files, args.seed, Path(folder), args.deals, args.out, tuple(args.kinds.split(",")),
                     progress=args.progress, first=args.first)
    print(found.report())
    for line in found.bad[:50]:
        print("  " + line)
    return 1 if found.bad else 0


if __name__ == "__main__":
    sys.exit(main())
