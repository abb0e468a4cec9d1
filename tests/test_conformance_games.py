"""Every game with an OpenSpiel mapping (games/<game>/openspiel.yml) agrees with OpenSpiel move for move: a short
run of every config by default and 2,000 deals a config in the slow run (`pytest -m slow`); and every game with a
catalog (games/<game>/RULES.md) names each rule id of DECK to SESS, VAR and OPENSPIEL in its rule files, where a
file expresses it (or, in its customs, says why it cannot yet)."""
from __future__ import annotations

import re

import pytest

from interpreter.adapters.conformance import Pair, run
from interpreter.adapters.conformance_map import load_mapping
from interpreter.resources import games_dir

GAMES = games_dir()
MAPPINGS = {p.parent.name: load_mapping(p) for p in sorted(GAMES.glob("*/openspiel.yml"))}
# what each game's agreement run exercises: the rules OpenSpiel plays as the table game does, and its own
PLAYED = {
    "ohhell": ("OHH-SEAT-01", "OHH-SEAT-02", "OHH-DECK-01", "OHH-DECK-02", "OHH-BID-01", "OHH-BID-02", "OHH-BID-03",
               "OHH-BID-04", "OHH-PLAY-01", "OHH-PLAY-02", "OHH-PLAY-03", "OHH-PLAY-04", "OHH-DEAL-03", "OHH-OS-01",
               "OHH-OS-02", "OHH-OS-03", "OHH-OS-04", "OHH-OS-05", "OHH-OS-06", "OHH-VAR-03", "OHH-VAR-04"),
    "spades": ("SPD-DECK-01", "SPD-DECK-02", "SPD-DECK-03", "SPD-SEAT-01", "SPD-SEAT-02", "SPD-BID-01", "SPD-BID-02",
               "SPD-BID-03", "SPD-PLAY-01", "SPD-PLAY-02", "SPD-PLAY-04", "SPD-SCORE-01", "SPD-SCORE-02",
               "SPD-OS-01", "SPD-OS-02", "SPD-OS-03", "SPD-OS-04", "SPD-OS-05", "SPD-OS-06", "SPD-VAR-02"),
    "hearts": ("HRT-DECK-01", "HRT-DECK-02", "HRT-SEAT-01", "HRT-SEAT-02", "HRT-PASS-01", "HRT-PASS-03",
               "HRT-PLAY-01", "HRT-PLAY-02", "HRT-PLAY-03", "HRT-PLAY-04", "HRT-PLAY-05", "HRT-SCORE-01",
               "HRT-SCORE-02", "HRT-VAR-01", "HRT-VAR-03", "HRT-VAR-04", "HRT-OS-01", "HRT-OS-02", "HRT-OS-03",
               "HRT-OS-04", "HRT-OS-05", "HRT-OS-06", "HRT-OS-07"),
    "tarok": ("SLT-DECK-01", "SLT-DECK-02", "SLT-DECK-03", "SLT-DECK-04", "SLT-SEAT-01", "SLT-BID-01", "SLT-BID-02",
              "SLT-BID-03", "SLT-BID-04", "SLT-KING-01", "SLT-KING-02", "SLT-TAL-01", "SLT-TAL-02", "SLT-TAL-04",
              "SLT-PLAY-01", "SLT-PLAY-02", "SLT-PLAY-03", "SLT-PLAY-04", "SLT-PLAY-05", "SLT-CON-01", "SLT-CON-02",
              "SLT-CON-03", "SLT-CON-04", "SLT-CON-05", "SLT-OS-01", "SLT-OS-02", "SLT-OS-03", "SLT-OS-04",
              "SLT-OS-05", "SLT-OS-06", "SLT-OS-07", "SLT-OS-08", "SLT-OS-09", "SLT-OS-10", "SLT-OS-11", "SLT-OS-12",
              "SLT-OS-13", "SLT-OS-14", "SLT-OS-15"),
    "skat": ("SKAT-DECK-01", "SKAT-DECK-03", "SKAT-DECK-04", "SKAT-SEAT-01", "SKAT-DEAL-02", "SKAT-DEAL-03",
             "SKAT-CON-01", "SKAT-ORD-01", "SKAT-ORD-02", "SKAT-ORD-03", "SKAT-ORD-04", "SKAT-ORD-05", "SKAT-PLAY-01",
             "SKAT-PLAY-02", "SKAT-PLAY-03", "SKAT-PLAY-04", "SKAT-PLAY-05", "SKAT-SCORE-01", "SKAT-SCORE-02",
             "SKAT-OS-01", "SKAT-OS-02", "SKAT-OS-03", "SKAT-OS-04", "SKAT-OS-05", "SKAT-OS-06", "SKAT-OS-07",
             "SKAT-OS-08", "SKAT-OS-09", "SKAT-OS-10", "SKAT-OS-11", "SKAT-OS-12"),
}
CASES = [pytest.param(game, c.name, id=f"{game}-{c.name}", marks=pytest.mark.rules(*PLAYED.get(game, ())))
         for game, m in MAPPINGS.items() for c in m.configs]
CATALOGS = sorted(p.parent.name for p in GAMES.glob("*/RULES.md") if list(p.parent.glob("*.stw")))


def test_the_mapped_games_are_there():
    assert {"ohhell", "spades", "hearts", "tarok", "skat"} <= set(MAPPINGS) and set(PLAYED) <= set(MAPPINGS)


@pytest.mark.parametrize("game, config", CASES)
def test_the_rule_file_agrees_with_openspiel_move_for_move(game, config):
    report = run(Pair(MAPPINGS[game], config), 30, seed="default-run")
    assert report.deals == 30 and not report.disagreements, report.disagreements[:1]
    assert report.decisions > 30 * 4


@pytest.mark.slow
@pytest.mark.parametrize("game, config", CASES)
def test_the_rule_file_agrees_with_openspiel_over_2000_deals(game, config):
    report = run(Pair(MAPPINGS[game], config), 2000, seed=35)
    assert report.deals == 2000 and not report.disagreements, report.disagreements[:1]


def _named(text: str) -> set[str]:
    named = set(re.findall(r"[A-Z]+-[A-Z]+-\d{2}", text))
    for m in re.finditer(r"([A-Z]+-[A-Z]+-)(\d{2})\.\.(\d{2})", text):
        named |= {f"{m.group(1)}{k:02d}" for k in range(int(m.group(2)), int(m.group(3)) + 1)}
    return named


@pytest.mark.parametrize("game", CATALOGS)
def test_every_rule_id_of_the_catalog_is_named_in_the_rule_files(game):
    folder = GAMES / game
    ids = re.findall(r"^- \*\*([A-Z]+-([A-Z]+)-\d{2})\*\*", (folder / "RULES.md").read_text(encoding="utf-8"), re.M)
    wanted = [i for i, section in ids if section not in {"EX", "AMB"}]
    named = _named("".join(p.read_text(encoding="utf-8") for p in folder.glob("*.stw")))
    assert len(wanted) >= 15 and not [i for i in wanted if i not in named]
