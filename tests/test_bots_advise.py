"""`stichwort advise`: the mean value of every legal call for a hand, over sampled deals."""
from __future__ import annotations

import json

import pytest

from interpreter.bots.advise import advise, read_hand
from interpreter.cli import main
from interpreter.pipeline import load

STRONG = "AC KC QC JC 10C 9C AS AD AH KH"     # six clubs from the top and three aces
WEAK = "7C 8C 7S 8S 9S 7D 8D 9D 7H 8H"


@pytest.fixture(scope="module")
def wien():
    return load("wien")


def test_every_legal_call_is_valued(wien):
    hand = read_hand(wien, STRONG)
    out = advise(wien, hand, samples=4, playouts=1, seed=1)
    calls = [r["action"] for r in out["calls"]]
    assert len(calls) == len(set(calls)) and "pass" in calls and len(calls) > 3
    assert all(r["n"] == 4 for r in out["calls"])
    assert [r["mean"] for r in out["calls"]] == sorted((r["mean"] for r in out["calls"]), reverse=True)
    assert out["calls"][0]["vs_best"] == 0
    assert out == advise(wien, hand, samples=4, playouts=1, seed=1)      # seeded


def test_strong_and_hopeless_hands_find_their_contracts(wien):
    """Six top trumps and three aces bid a trick contract; ten low cards cannot take a trick, so the
    best call is a contract that wants none (a sure win), never a trick contract."""
    strong = advise(wien, read_hand(wien, STRONG), samples=6, playouts=0, seed=2)
    low = advise(wien, read_hand(wien, WEAK), samples=6, playouts=0, seed=2)
    by_name = {r["action"]: r for r in low["calls"]}
    assert strong["calls"][0]["action"] != "pass" and strong["calls"][0]["mean"] > 0
    assert low["calls"][0]["mean"] > 0 and low["calls"][0]["low"] > 0      # a sure win
    assert by_name["bid one"]["mean"] < low["calls"][0]["mean"]
    assert strong["calls"][0]["action"] != low["calls"][0]["action"]


def test_after_an_auction(wien):
    out = advise(wien, read_hand(wien, STRONG), seat=1, dealer=2, auction=["bid one"], samples=3, playouts=0)
    assert out["seat"] == 1 and "bid one" not in [r["action"] for r in out["calls"]]


def test_read_hand_errors(wien):
    with pytest.raises(ValueError, match="not a card"):
        read_hand(wien, "AH KH XX")
    with pytest.raises(ValueError, match="10 cards"):
        read_hand(wien, "AH KH")
    with pytest.raises(ValueError, match="twice"):
        read_hand(wien, "AH AH 7C 8C 9C 10C JC QC KC AC")


def test_cli(capsys):
    code = main(["advise", "wien", "--hand", STRONG, "--samples", "3", "--playouts", "0", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["calls"] and out["hand"][0] == "AC"
    code = main(["advise", "wien", "--hand", STRONG, "--samples", "3", "--playouts", "0"])
    text = capsys.readouterr().out
    assert code == 0 and "mean value" in text and "pass" in text
    for argv, msg in ((["advise", "wien", "--hand", "AH"], "10 cards"),
                      (["advise", "wien", "--hand", STRONG, "--seat", "7"], "--seat"),
                      (["advise", "wien", "--hand", STRONG, "--auction", "bid nonsense"], "not a legal action")):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and msg in err and "Traceback" not in err


def _high_cards(st, seat: int) -> int:
    R = st.R
    return sum(1 for c in range(len(R.cards)) if st.dealt_hands[seat] >> c & 1 and R.order_of[c] >= 6)


def test_the_auction_conditions_the_sampled_deals(wien):
    """After forehand bids, the deals sampled for middlehand give forehand a hand a rule-bot model would
    bid with; after forehand passes, one it would pass with. So the bidder holds more aces and kings."""
    import random

    from interpreter.bots.advise import _explained, sample_deals
    from interpreter.bots.rule import RuleBot
    from interpreter.engine import new_game
    from interpreter.engine.text import parse

    hand = read_hand(wien, "7C 8C 9C 7S 8S 9S 7D 8D 7H 8H")
    mean = {}
    for said in ("bid one", "pass"):
        states, consistent = sample_deals(wien, hand, 1, 2, [said], 30, random.Random(3))
        assert len(states) == 30 and consistent == 30
        for st in states:
            assert st.current_player() == 1 and sorted(wien.codes(st.dealt_hands[1])) == sorted(hand)
            # replayed from its deal, the model in forehand's seat makes forehand's call again
            again = new_game(wien, deal={"hands": [wien.codes(h) for h in st.dealt_hands],
                                         "talon": [st.R.codes[c] for c in st.talon]}, dealer=2)
            assert _explained(RuleBot("advise-model"), again, parse(again, said))
        mean[said] = sum(_high_cards(st, 0) for st in states) / len(states)
    uniform, _ = sample_deals(wien, hand, 1, 2, ["pass"], 30, random.Random(3), condition=False)
    plain = sum(_high_cards(st, 0) for st in uniform) / len(uniform)
    assert mean["bid one"] > plain > mean["pass"] - 0.5 and mean["bid one"] > mean["pass"] + 0.5


def test_advise_reports_the_conditioning(wien):
    out = advise(wien, read_hand(wien, STRONG), seat=1, dealer=2, auction=["bid one"], samples=3, playouts=0)
    assert out["conditioned"] and out["consistent"] == 3
    flat = advise(wien, read_hand(wien, STRONG), seat=1, dealer=2, auction=["bid one"], samples=3, playouts=0,
                  condition=False)
    assert not flat["conditioned"] and flat["consistent"] is None


def test_cli_uniform(capsys):
    args = ["advise", "wien", "--hand", STRONG, "--seat", "1", "--dealer", "2", "--auction", "bid one",
            "--samples", "3", "--playouts", "0"]
    assert main(args) == 0
    assert "read from the calls: 3 of 3" in capsys.readouterr().out
    assert main(args + ["--uniform"]) == 0
    assert "read from the calls" not in capsys.readouterr().out


@pytest.mark.rules("KR-DEAL-07", "KR-SEAT-01", "KR-SEAT-08")
def test_a_game_that_cuts_before_the_bidding_advises_the_first_call():
    """Königrufen starts with the cut (or a knock), before anyone has seen a card: advise cuts, then
    values forehand's calls; forehand is found by the engine for any dealer, in the direction of play."""
    from interpreter.bots.advise import first_to_speak
    from interpreter.engine import new_game

    kr = load("koenigrufen")
    st = new_game(kr, seed=4, dealer=0)
    assert st.phase == "knock" and {st.action_text(a) for a in st.legal_actions()} == {"knock", "cut"}
    firsts = [first_to_speak(kr, d) for d in range(4)]
    assert sorted(firsts) == [0, 1, 2, 3] and all(f != d for d, f in enumerate(firsts))
    hand = read_hand(kr, " ".join(kr.codes(st.hands[firsts[0]])))
    out = advise(kr, hand, samples=2, playouts=0, seed=1)
    assert (out["seat"], out["dealer"]) == (firsts[0], 0)
    calls = [r["action"] for r in out["calls"]]
    assert calls and all(c.startswith("bid ") for c in calls) and "cut" not in calls
    # a seat given alone: the dealer is the one for whom it speaks first
    other = advise(kr, hand, seat=firsts[2], samples=2, playouts=0, seed=1)
    assert other["dealer"] == 2
    # the calls given may start with the cut or a knock themselves
    assert advise(kr, hand, auction=["cut"], samples=2, playouts=0, seed=1)["calls"] == out["calls"]


def test_a_hand_that_changes_from_deal_to_deal_finds_its_deal():
    """Oh Hell deals 1, 2, … cards as the session goes on (deal.hand): a hand of k cards is advised in the
    first deal that deals k, or in the deal given, whose hand must have that size."""
    from interpreter.engine import compile_rules
    from interpreter.engine.deals import cards_each

    oh = load("oh-hell")
    rules = compile_rules(oh)
    one = advise(oh, read_hand(oh, "KH"), samples=2, playouts=0, seed=1)
    assert one["deal"] == 0 and cards_each(rules, one["dealer"], 0) == 1
    assert {r["action"] for r in one["calls"]} == {"bid 0", "bid 1"}
    five = advise(oh, read_hand(oh, "KH QS 7D 2C 9H"), samples=2, playouts=0, seed=1)
    assert cards_each(rules, five["dealer"], five["deal"]) == 5
    assert all(cards_each(rules, five["dealer"], d) != 5 for d in range(five["deal"]))   # the first such deal
    assert {r["action"] for r in five["calls"]} <= {f"bid {k}" for k in range(6)} and len(five["calls"]) >= 5
    later = next(d for d in range(five["deal"] + 1, 60) if cards_each(rules, 0, d) == 5)
    assert advise(oh, read_hand(oh, "KH QS 7D 2C 9H"), dealer=0, deal_number=later, samples=2, playouts=0)["deal"] == later
    with pytest.raises(ValueError, match="in deal 0 of oh-hell a hand has 1 card, not 5"):
        advise(oh, read_hand(oh, "KH QS 7D 2C 9H"), deal_number=0, samples=2, playouts=0)


def test_workers_give_the_same_answer(wien, capsys):
    """The sampled deals played out in two processes, rebuilt there from their cards and the calls so far,
    give the answer of one process, byte for byte (here with an auction that conditions the deals)."""
    args = ["advise", "wien", "--hand", STRONG, "--seat", "1", "--dealer", "2", "--auction", "bid one",
            "--samples", "4", "--playouts", "1", "--seed", "5", "--json"]
    assert main(args) == 0
    one = capsys.readouterr().out
    assert main(args + ["--workers", "2"]) == 0
    assert capsys.readouterr().out == one and json.loads(one)["calls"]
    assert main(args + ["--workers", "0"]) == 2
    assert "--workers must be 1 or more" in capsys.readouterr().err
