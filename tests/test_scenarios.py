"""Every shipped scenario file runs and matches its expectations; a wrong expectation fails with a
diff, `--update` rewrites it keeping comments, and bad scenario input is an error at its line."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.harness.scenario_files import _rules_of
from interpreter.resources import games_dir
from tests.games_support import IN_DEVELOPMENT

# the files of a game in development wait for it: tests/test_scenarios_waiting.py
SCENARIOS = sorted(p for p in games_dir().rglob("*.yaml") if _rules_of(p) not in IN_DEVELOPMENT)
WIEN = games_dir() / "wien" / "scenarios" / "ex-07-12-payment.yaml"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(games_dir())))
def test_shipped_scenario_passes(path, capsys):
    assert main(["test", str(path)]) == 0, capsys.readouterr().out


@pytest.mark.rules("WIEN-EX-07", "WIEN-EX-08", "WIEN-EX-09", "WIEN-EX-10", "WIEN-EX-11", "WIEN-EX-12")
def test_mismatch_gives_diff_and_update_keeps_comments(tmp_path, capsys):
    copy = tmp_path / "case.yaml"
    text = WIEN.read_text().replace("rules: wien", "rules: wien  # the base game").replace("B: -30", "B: -31")
    copy.write_text(text)
    assert main(["test", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "payments.B: expected -31, got -30" in out
    assert main(["test", "--update", str(copy)]) == 0
    fixed = copy.read_text()
    assert "B: -30" in fixed and "# the base game" in fixed and fixed.startswith("# WIEN-EX-07")
    assert main(["test", str(copy)]) == 0


@pytest.mark.parametrize("change,message", [
    ("- {A: pass}", "unknown"),
    ("AH", "unknown card"),
    ("bid", "not a legal action"),
])
def test_bad_scenario_input_is_an_error_at_its_line(tmp_path, capsys, change, message):
    text = WIEN.read_text()
    if change == "AH":
        text = text.replace("AH", "ZZ", 1)
    elif change == "bid":
        text = text.replace("bid ", "bid x", 1)
    else:
        text = text.replace("actions:\n", "actions:\n  - {Q: pass}\n", 1)
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    assert main(["test", str(bad)]) == 2
    out = capsys.readouterr().out
    assert message in out and "bad.yaml:" in out and "Traceback" not in out


def test_every_complete_example_in_the_scenario_docs_runs(tmp_path, capsys):
    import re

    text = (Path(__file__).resolve().parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if b.startswith("# complete scenario")]
    assert len(blocks) >= 3
    for i, block in enumerate(blocks):
        f = tmp_path / f"example-{i}.yaml"
        f.write_text(block, encoding="utf-8")
        assert main(["test", str(f)]) == 0, capsys.readouterr().out
