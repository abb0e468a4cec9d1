"""The rule bot bids in tarok (games/tarok/): a talon bought in smaller packets helps the declarer less (one card
taken fewer is a card's share of a trick for the exchange, for its discard and for its points), so three,
two and one are told apart; forced to bid (SLT-BID-03), forehand names the all-against-all klop only when no
other call looks better by the bot's `fallback_cost`; and over many deals the bots play a spread of contracts."""
from __future__ import annotations

import pytest

from interpreter.bots.rule import RuleBot
from interpreter.bots.rule_judge import talon_help
from interpreter.engine import new_game
from interpreter.harness.runner import simulate
from interpreter.pipeline import load
from interpreter.resources import games_dir
from tests.helpers import act

TAROK = games_dir() / "tarok"


@pytest.mark.rules("SLT-TAL-01", "SLT-TAL-03", "SLT-TAL-04", "SLT-OS-05")
@pytest.mark.parametrize("name, seats, helps", [
    # talon 6, half of it 3 cards: threes takes 3 (none fewer), twos 2 (one fewer), ones 1 (two fewer), aside
    # none (three fewer). Each card fewer: the exchange, the discard that counts for the declarer, and the card
    # that is not the declarer side's (the packets left go to the opponents, in OpenSpiel's form to nobody):
    # 3 / seats
    ("tarok.stw", 4, {"threes": 0.5, "twos": 0.5 - 3 / 4, "ones": 0.5 - 6 / 4, "aside": 0.5 - 9 / 4}),
    ("tarok-openspiel.stw", 4, {"threes": 0.5, "twos": 0.5 - 3 / 4, "ones": 0.5 - 6 / 4, "aside": 0.5 - 9 / 4}),
    ("tarok-3.stw", 3, {"threes": 0.5, "twos": 0.5 - 3 / 3, "ones": 0.5 - 6 / 3, "aside": 0.5 - 9 / 3}),
])
def test_a_talon_in_smaller_packets_helps_the_declarer_less(name, seats, helps):
    st = new_game(load(str(TAROK / name)), seed=1)
    assert len(st.active) == seats
    for talon, want in helps.items():
        assert talon_help(st.R, st.R.talons[talon], seats) == pytest.approx(want)


def test_a_talon_bought_in_halves_helps_as_before():
    """Königrufen's two packets of three: half the talon, the kind's own 0.5."""
    st = new_game(load("koenigrufen"), seed=1)
    halves = [t for t in st.R.talons.values() if t.kind == "halves"]
    assert halves and all(talon_help(st.R, t, 4) == 0.5 for t in halves)


@pytest.mark.rules("SLT-BID-01", "SLT-TAL-01")
def test_the_margins_fall_from_two_to_one_by_the_talon_and_the_rank():
    st = new_game(load(str(TAROK / "tarok.stw")), seed=3)
    bot = RuleBot(0)
    hand = st.hands[st.to_act]
    margins = {}
    for a in st.legal_actions():
        text = st.action_text(a)
        if text in ("bid two", "bid one"):
            margins[text] = bot._call_margin(st, hand, a)
    # the same hand and goal: one differs by its talon (one card fewer, 3 / 4 less) and its rank (one more, 0.05)
    assert margins["bid two"] - margins["bid one"] == pytest.approx(0.75 + 0.05)


FOREHAND_3 = {   # three players: forehand's 16 cards (seat 0, dealer 2); the others get the rest of the deck
    "strong": ["SK", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "KH", "QH", "KD", "KS", "KC", "QC"],
    # two low taroks and the four kings with low cards: too weak to play alone, a king too many for beggar
    "weak": ["T2", "T3", "KH", "QH", "4H", "KD", "4D", "3D", "KS", "7S", "8S", "9S", "KC", "7C", "8C", "9C"],
}


@pytest.mark.rules("SLT-BID-03", "SLT-SEAT-01")
@pytest.mark.parametrize("hand, want", [("strong", "bid three"), ("weak", "bid klop")])
def test_forehand_forced_to_bid_names_klop_only_with_a_weak_hand(hand, want):
    rs = load(str(TAROK / "tarok-3.stw"))
    mine = FOREHAND_3[hand]
    rest = [c for c in rs.card_index if c not in mine]
    st = new_game(rs, deal={"hands": [mine, rest[:16], rest[16:32]], "talon": rest[32:]}, dealer=2)
    act(st, "pass")         # seat 1
    act(st, "pass")         # seat 2
    assert st.to_act == 0 and "pass" not in {st.action_text(a) for a in st.legal_actions()}
    assert st.action_text(RuleBot(0).choose(st)) == want


@pytest.mark.rules("SLT-BID-01", "SLT-BID-02", "SLT-BID-03", "SLT-CON-02")
@pytest.mark.parametrize("name, klop_at_most, spread", [("tarok.stw", 0.1, 3), ("tarok-3.stw", 0.55, 2)])
def test_the_rule_bots_play_a_spread_of_contracts(name, klop_at_most, spread):
    """Not everyone passing into klop, not one contract for every deal: klop at most so often, and at least
    `spread` contracts besides klop played in a twentieth of the deals or more; each of them made more often
    than not."""
    rows = simulate(str(TAROK / name), 300, seed=7)["contracts"]
    played = {c: row["played"] for c, row in rows.items()}
    total = sum(played.values())
    assert total == 300
    assert played.get("klop", 0) <= klop_at_most * total, played
    common = [c for c, n in played.items() if c != "klop" and n >= total / 20]
    assert len(common) >= spread, played
    for c in common:
        assert rows[c]["made"] > rows[c].get("judged", rows[c]["played"]) / 2, (c, rows[c])
