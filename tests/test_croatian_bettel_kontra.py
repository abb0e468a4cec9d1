"""Kontra on Bettel in every game of the Croatian family (CRO-AMB-11 (iii) as revised): the kontra-sayer is
host and the other defender his guest. Stated by outcome for each rule file, the numbers worked by hand:
a game Bettel (value 7, BS 14) with kontra (M 2) made costs the host 28 in his declarer column and gives the
declarer 28; lost, it pays the host 2 × 70 × 2 = 280 against the declarer and the guest nothing, and the
declarer loses 28; rekontra'd (M 4) and made, 56 each way."""
from __future__ import annotations

import pytest

from interpreter.cli import main

FAMILY = ["croatian", "serbian", "serbian-preferans", "slovenian", "slovenian-hidden"]

SCENARIO = """rules: {rules}
seats: [A, B, C]
dealer: C
accounts: {{score: {{A: -30, B: -30, C: -30}}}}
deals:
- outcome: {{declarer: B, contract: bettel_g, tricks: {{A: 5, B: 0, C: 5}}, host: A, kontra: 1}}
  expect:
    made: true
    accounts:
      score: {{A: -58, B: -2, C: -30}}
      juha: {{}}
- outcome: {{declarer: C, contract: bettel_g, tricks: {{A: 0, B: 0, C: 1}}, host: B, kontra: 1}}
  expect:
    made: false
    accounts:
      score: {{A: -58, B: -2, C: -58}}
      juha: {{B/C: 280, A/C: 0}}
- outcome: {{declarer: A, contract: bettel_g, tricks: {{A: 0, B: 0, C: 10}}, host: B, kontra: 2}}
  expect:
    made: true
    accounts:
      score: {{A: -2, B: -58, C: -58}}
      juha: {{B/C: 280}}
"""


@pytest.mark.rules("CRO-AMB-11", "CRO-DEF-14", "CRO-SCORE-11", "CRO-SCORE-13", "CRO-SCORE-14", "CRO-SCORE-15",
                   "CRO-VAR-01", "CRO-VAR-07")
@pytest.mark.parametrize("rules", FAMILY)
def test_kontra_on_bettel_makes_host_and_guest_in_every_game_of_the_family(tmp_path, capsys, rules):
    path = tmp_path / f"{rules}.yaml"
    path.write_text(SCENARIO.format(rules=rules), encoding="utf-8")
    assert main(["test", str(path)]) == 0, capsys.readouterr().out


def test_explain_states_the_rule_in_words(capsys):
    assert main(["explain", "croatian", "--format", "markdown"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "On Bettel it undertakes that the declarer takes a trick: the kontra-sayer is host and the other " \
           "defender his guest." in text
    assert "2 × 60 × M (2 × 70 × M in a game Bettel)" in text and "loses BS × M in his declarer column" in text
