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


@pytest.mark.rules("EUC-BID-01", "EUC-BID-02", "EUC-BID-03")
def test_the_euchre_rule_bots_order_up_on_strong_hands_and_make_most_contracts():
    """Euchre's five cards leave the judge only a share of its slack (rule_judge.at_least_slack), and the
    dealer taking up the card turned up helps his own side and hurts the other (rule_levels.handler_help): the
    bots no longer order up at every first chance (a third made), and most of what they call is made."""
    summary = simulate("euchre", 400, 11, 1, {}, "rule", None, None)
    played = sum(c["played"] for c in summary["contracts"].values())
    made = sum(c["made"] for c in summary["contracts"].values())
    assert made > 0.6 * played
    assert 0.0 < summary["all_pass_rate"] < 0.2      # some deals go round twice and are thrown in


def test_the_euchre_dealer_s_partner_orders_up_more_often_than_the_opponents():
    """Ordering the card up gives it to the dealer: his partner gains by it, the opponents lose by it."""
    from interpreter.engine import actions as A
    from interpreter.harness.runner import play_one
    from interpreter.pipeline import load

    rs = load("euchre")
    first = {1: 0, 2: 0, 3: 0}             # the seat from the dealer's left that orders up in the first round
    for i in range(300):
        st, _ = play_one(rs, {}, 5, i)
        bids = [k for k, (_, a) in enumerate(st.log) if A.kind_of(a) in (A.BID, A.PASS)]
        calls = [k for k in bids if A.kind_of(st.log[k][1]) == A.BID]
        if calls and calls[0] < 3:
            first[calls[0] + 1] += 1
    assert first[2] > first[1] and first[2] > first[3]
