"""The rule bots bid and play Skat and Schafkopf sensibly (issue 34): a hand is judged under each contract's
ranking (bots/rule_play.ranked_estimate), so Skat's deals are mostly played rather than passed in, and most of
the games declared are made."""
from __future__ import annotations

import pytest

from interpreter.harness.runner import simulate


@pytest.mark.rules("SKAT-BID-01", "SKAT-BID-12", "SKAT-ORD-01", "SKAT-ORD-04")
def test_the_rule_bots_play_most_skat_deals_and_make_most_games():
    summary = simulate("skat", 300, 11, 1, {}, "rule", None, None)
    played = sum(c["played"] for c in summary["contracts"].values())
    made = sum(c["made"] for c in summary["contracts"].values())
    assert summary["all_pass_rate"] < 0.4
    assert made > 0.5 * played
    assert {"clubs", "spades", "hearts", "diamonds", "grand"} <= set(summary["contracts"])


@pytest.mark.rules("SCHAF-CON-02", "SCHAF-ORD-01")
def test_the_rule_bots_play_schafkopf_and_make_most_games():
    summary = simulate("schafkopf", 300, 11, 1, {}, "rule", None, None)
    played = sum(c["played"] for c in summary["contracts"].values())
    made = sum(c["made"] for c in summary["contracts"].values())
    assert summary["all_pass_rate"] < 0.2
    assert made > 0.5 * played
