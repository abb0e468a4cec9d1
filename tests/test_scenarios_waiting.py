"""A scenario file of a game in development cannot run. `stichwort test` reads it without the engine
(interpreter/harness/waiting.py) and says, one line each, that it waits for its game: exit 1 when it was asked
for, no failure in a run over every game. A file that is wrong is an error at its line (E501, exit 2) even so.

No built-in game is in development now (Skat and Schafkopf, issue 34, are played: tests/test_scenarios.py runs
their files), so the machinery is tried on a game made for it: Skat with one construct the engine does not run
yet (a card value in a `hold_back`'s cards), and copies of Skat's and Schafkopf's scenario files naming it.
Skat's and Schafkopf's files each name the catalog rule ids they exercise, and the ids exist."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.harness.scenario_files import _rules_of
from interpreter.resources import games_dir
from tests.games_support import IN_DEVELOPMENT

FAMILY = sorted(p for game in ("skat", "schafkopf") for p in (games_dir() / game / "scenarios").glob("*.yaml"))
RULE_ID = re.compile(r"\b(?:SKAT|SCHAF)-[A-Z]+-\d{2}\b")
# a construct the engine does not run yet (E410): the game that uses it is in development
PENDING = "play { obligations = [follow_suit, { rule = hold_back  cards = [called_card] }] }\n"


def _in_development(folder: Path, game: str) -> Path:
    """A game in development made in `folder`: `game` with the pending construct."""
    path = folder / f"dev-{game}.stw"
    path.write_text(f'extends "{game}"\n{PENDING}', encoding="utf-8")
    return path


def _waiting(folder: Path, scenario: Path) -> Path:
    """A copy of a built-in scenario file in `folder` that names the game in development made from its game."""
    game = _rules_of(scenario)
    dev = _in_development(folder, game)
    text = scenario.read_text(encoding="utf-8").replace(f"rules: {game}\n", f"rules: {dev.name}\n", 1)
    copy = folder / scenario.name
    copy.write_text(text, encoding="utf-8")
    return copy


def _catalog_ids() -> set[str]:
    ids: set[str] = set()
    for game in ("skat", "schafkopf"):
        text = (games_dir() / game / "RULES.md").read_text(encoding="utf-8")
        ids.update(re.findall(r"\*\*((?:SKAT|SCHAF)-[A-Z]+-\d{2})\*\*", text))
    return ids


def test_no_built_in_game_is_in_development():
    assert not IN_DEVELOPMENT
    assert main(["validate", "skat", "schafkopf"]) == 0


def test_skat_and_schafkopf_have_ten_worked_examples_at_least():
    for game, prefix in (("skat", "SKAT-EX-"), ("schafkopf", "SCHAF-EX-")):
        files = [p for p in FAMILY if p.parent.parent.name == game and prefix in p.read_text(encoding="utf-8")]
        assert len(files) >= 10, (game, len(files))


@pytest.mark.parametrize("path", FAMILY, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_file_names_catalog_ids_that_exist(path):
    header = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#"))
    named = set(RULE_ID.findall(header))
    assert named and named <= _catalog_ids(), sorted(named - _catalog_ids())


@pytest.mark.parametrize("path", FAMILY[::4], ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_waiting_file_is_read_and_waits_for_its_game(path, tmp_path, capsys):
    copy = _waiting(tmp_path, path)
    assert main(["test", str(copy)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("dev   ") and "waiting for " in out[0] and "a game in development" in out[0], out
    assert out[-1].startswith("0 passed, 0 failed, 1 waiting for a game in development"), out


def test_a_run_over_every_game_lists_waiting_files_without_failing(monkeypatch, capsys, tmp_path):
    from interpreter.present import scenarios

    copies = [_waiting(tmp_path, p) for p in FAMILY[:3]]
    monkeypatch.setattr(scenarios, "find_scenarios", lambda targets: copies)
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
    text = _waiting(tmp_path, SKAT).read_text(encoding="utf-8")
    assert change[0] in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    assert main(["test", str(bad)]) == 2
    out = capsys.readouterr().out
    assert message in out and "E501" in out and "bad.yaml:" in out and "Traceback" not in out, out
