"""Issue 34, the silent mistakes: `auction { pass_final = false }` was accepted and ignored (a seat that
passed was never asked again). Now a pass lasts until the next bid or hold, which voids the passes before
it: every seat is asked in turn, and `passes` counts the seats that have passed since the last bid, so
Vienna's own end condition (`passes == players or (passes == players - 1 and high != none)`) ends the
auction when all the others have passed after the last bid, as in a rotation auction such as bridge's.
Run with both engines."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.engine import new_game
from tests.helpers import act, legal_texts
from tests.test_engine_defects import WIEN_HANDS

ENGINES = ("generated", "interpreter")


@pytest.fixture(params=ENGINES)
def rotation(request, tmp_path: Path, monkeypatch):
    """Vienna with passes that are not final, under the engine of the parameter."""
    if request.param == "interpreter":
        monkeypatch.setenv("STICHWORT_ENGINE", "interpreter")
    else:
        monkeypatch.delenv("STICHWORT_ENGINE", raising=False)
    path = tmp_path / "rotation.stw"
    path.write_text('extends "wien"\nauction { pass_final = false }\n', encoding="utf-8")
    return load(str(path))


def test_a_seat_that_passed_may_bid_after_a_later_bid(rotation):
    st = new_game(rotation, deal=WIEN_HANDS, dealer=2)       # forehand is seat 0
    for text in ("pass", "bid one", "pass"):
        act(st, text)
    assert st.phase == "auction" and st.current_player() == 0  # forehand passed, and is asked again
    assert "bid two" in legal_texts(st)
    act(st, "bid two")
    act(st, "pass")                                           # middlehand, overbid: may call again too
    assert st.current_player() == 2 and "pass" in legal_texts(st)
    act(st, "pass")                                           # rearhand, who passed before forehand's bid
    # two passes in a row after forehand's bid: the auction is over, forehand declares
    assert st.phase != "auction"
    assert st.declarer == 0 and [c for _, c in st.auction.calls] == ["pass", "one", "pass", "two", "pass", "pass"]


def test_the_passes_before_a_bid_do_not_end_the_auction(rotation):
    st = new_game(rotation, deal=WIEN_HANDS, dealer=2)
    act(st, "pass")
    act(st, "pass")
    act(st, "bid one")                # two passes, then a bid: with final passes rearhand would declare now
    assert st.phase == "auction" and st.current_player() == 0
    act(st, "pass")
    assert st.phase == "auction" and st.current_player() == 1
    act(st, "pass")
    assert st.phase != "auction" and st.declarer == 2


def test_everyone_passing_is_still_an_all_pass(rotation):
    st = new_game(rotation, deal=WIEN_HANDS, dealer=2)
    for text in ("pass", "pass", "pass"):
        act(st, text)
    assert st.phase != "auction" and st.all_passed


@pytest.mark.rules("WIEN-AUC-04")
def test_final_passes_stay_final():
    st = new_game(load("wien"), deal=WIEN_HANDS, dealer=2)
    for text in ("pass", "bid one", "pass"):
        act(st, text)
    assert st.phase != "auction" and st.declarer == 1       # forehand was out: one pass more ended it


def test_random_rotation_auctions_end_after_the_others_pass(rotation):
    """Random calls: every auction ends, and it ends when every other seat has passed since the last
    bid (or all three passed): the last bidder declares."""
    rng = random.Random(34)
    asked_again = 0
    for _ in range(300):
        st = new_game(rotation, seed=rng.randrange(1 << 30), dealer=rng.randrange(3))
        while st.phase == "auction":
            st.apply(rng.choice(st.legal_actions()))
        calls = st.auction.calls
        assert len(calls) < rotation_bound(st)
        bids = [i for i, (_, c) in enumerate(calls) if c != "pass"]
        if not bids:
            assert [c for _, c in calls] == ["pass"] * 3 and st.all_passed
            continue
        last = bids[-1]
        assert [c for _, c in calls[last + 1:]] == ["pass", "pass"], calls
        assert st.declarer == calls[last][0] and not st.all_passed
        passed_once = {s for s, c in calls[:last] if c == "pass"}
        asked_again += any(s in passed_once for s, _ in calls[last:])
    assert asked_again > 0                  # seats that had passed did call again


def rotation_bound(st) -> int:
    return st.R.max_auction_calls
