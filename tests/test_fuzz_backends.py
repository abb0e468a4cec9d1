"""Issue 38, deliverable 2: both backends on every file that validates — beyond the built-in games.
tools/fuzz.py writes mutated rule files and variant layers (a value of a playable game set to another);
each that validates is played through the generated code and the reference interpreter, which must
agree step by step (legal actions, action texts, results, payments, accounts). The default run plays a
fixed number of cases from a fixed seed; the long run (`-m fuzz`, STICHWORT_FUZZ_CASES files) is the
same function, and so is `python tools/fuzz.py --files N`."""
from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("stichwort_fuzz", ROOT / "tools" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module         # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


fuzz = _tool()
QUICK_FILES = 40


def test_mutated_and_variant_files_play_alike_in_both_backends(tmp_path):
    found = fuzz.fuzz(QUICK_FILES, 38, tmp_path, deals=2, out=tmp_path / "cases")
    assert found.files == QUICK_FILES
    assert found.played >= 8, found.report()        # enough of them validate to compare something
    assert not found.bad, "\n".join(found.bad)


def test_the_cases_are_the_same_for_the_same_seed():
    docs = fuzz.variant_docs()
    one = [fuzz.variant(docs, random.Random(5)) for _ in range(3)]
    two = [fuzz.variant(docs, random.Random(5)) for _ in range(3)]
    assert one == two
    texts = fuzz.base_texts()
    assert fuzz.mutate_text(texts["wien.stw"], random.Random(7)) == fuzz.mutate_text(texts["wien.stw"], random.Random(7))


def test_a_disagreement_is_found(monkeypatch):
    """The comparison can fail: a backend that pays one token more is caught."""
    from interpreter import load
    from interpreter.engine.state import State

    real = State.result

    def skewed(self):
        out = real(self)
        if self.R.generated is not None and isinstance(out, dict):
            out = dict(out) | {"skewed": True}
        return out

    monkeypatch.setattr(State, "result", skewed)
    assert "result" in (fuzz.play_both(load("simple"), 1, 3) or "")


@pytest.mark.fuzz
def test_mutated_and_variant_files_long(tmp_path):
    files = int(os.environ.get("STICHWORT_FUZZ_CASES", "10000"))
    out = Path(os.environ.get("STICHWORT_FUZZ_OUT") or tmp_path / "cases")
    found = fuzz.fuzz(files, int(os.environ.get("STICHWORT_FUZZ_SEED", "1")), tmp_path, deals=2, out=out)
    print(found.report())
    assert not found.bad, "\n".join(found.bad[:50])
