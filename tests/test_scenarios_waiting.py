"""Scenario files of the games in development (Skat, Schafkopf: issue 34) cannot run yet. `stichwort test` reads
them without the engine (interpreter/harness/waiting.py) and says, one line each, that they wait for their
game: exit 1 when they were asked for, no failure in a run over every game. A file that is wrong is an error
at its line (E501, exit 2) even so. Each names the catalog rule ids it exercises, and the ids exist."""
from __future__ import annotations

import re

import pytest

from interpreter.cli import main
from interpreter.harness.scenario_files import _rules_of
from interpreter.resources import games_dir
from tests.games_support import IN_DEVELOPMENT

WAITING = sorted(p for p in games_dir().rglob("*.yaml") if _rules_of(p) in IN_DEVELOPMENT)
RULE_ID = re.compile(r"\b(?:SKAT|SCHAF)-[A-Z]+-\d{2}\b")


def _catalog_ids() -> set[str]:
    ids: set[str] = set()
    for game in ("skat", "schafkopf"):
        text = (games_dir() / game / "RULES.md").read_text(encoding="utf-8")
        ids.update(re.findall(r"\*\*((?:SKAT|SCHAF)-[A-Z]+-\d{2})\*\*", text))
    return ids


def test_each_game_in_development_has_ten_worked_examples_at_least():
    for game, prefix in (("skat", "SKAT-EX-"), ("schafkopf", "SCHAF-EX-")):
        files = [p for p in WAITING if p.parent.parent.name == game and prefix in p.read_text(encoding="utf-8")]
        assert len(files) >= 10, (game, len(files))


@pytest.mark.parametrize("path", WAITING, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_waiting_file_is_read_and_waits_for_its_game(path, capsys):
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("dev   ") and "waiting for " in out[0] and "a game in development" in out[0], out
    assert out[-1].startswith("0 passed, 0 failed, 1 waiting for a game in development"), out


@pytest.mark.parametrize("path", WAITING, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_waiting_file_names_catalog_ids_that_exist(path):
    header = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#"))
    named = set(RULE_ID.findall(header))
    assert named and named <= _catalog_ids(), sorted(named - _catalog_ids())


def test_a_run_over_every_game_lists_waiting_files_without_failing(monkeypatch, capsys):
    from interpreter.present import scenarios

    monkeypatch.setattr(scenarios, "find_scenarios", lambda targets: WAITING[:3])
    assert main(["test"]) == 0
    out = capsys.readouterr().out
    assert out.count("\ndev   ") + out.startswith("dev   ") == 3 and "3 waiting for a game in development" in out


SKAT = games_dir() / "skat" / "scenarios" / "ex-01-clubs-ouvert.yaml"


@pytest.mark.parametrize("change,message", [
    (("A: [JC, JS,", "A: [JC, JX,"), "unknown card 'JX'"),
    (("- A: play AD", "- A: play AS"), "'AS' is played twice in this deal"),
    (("- B: play JH", "- B: play JD"), "'B' plays 'JD', which was dealt to another seat"),
    (("- C: play JD", "- C: play QZ"), "unknown card 'QZ'"),
    (("- B: bid 18", "- Q: bid 18"), "unknown seat 'Q'"),
    (("made: true", "maed: true"), "'maed' is not part of a deal's result"),
    (("  list: {A: 108", "  lisst: {A: 108"), "unknown account 'lisst'"),
    (("made: true", "made: 1.5"), "is a decimal"),
    (("seats: [A, B, C]", "seats: [A, B]"), "'seats' must name 3 seats"),
])
def test_a_wrong_waiting_file_is_an_error_at_its_line(tmp_path, capsys, change, message):
    text = SKAT.read_text(encoding="utf-8")
    assert change[0] in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    assert main(["test", str(bad)]) == 2
    out = capsys.readouterr().out
    assert message in out and "E501" in out and "bad.yaml:" in out and "Traceback" not in out, out
