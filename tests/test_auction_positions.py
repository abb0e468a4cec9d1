"""The auction keeps the calls allowed at each position it has met (AuctionSettings.legal_memo), and the
outcome of each step from it (AuctionSettings.steps), where the rules' conditions read the auction's state,
the dealer and the seats alone: the answers are the ones worked out afresh, and a condition reading
anything else turns the memo off."""
import dataclasses
import random

import pytest

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.phases.auction import own_auction
from interpreter.engine.phases.auction_plans import POSITION_FUNCTIONS, POSITION_VALUES
from interpreter.engine.phases.conditions import reads_only
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State


@pytest.mark.parametrize("game", ["wien", "koenigrufen", "croatian", "priffe", "simple"])
def test_kept_answers_are_the_fresh_ones(game):
    R = compile_rules(load(game))
    assert R.auction.positional
    rng = random.Random(11)
    met = 0
    for i in range(40):
        hands, talon = deal_cards(R, rng, i % R.n_seats)
        st = State(R, i % R.n_seats, hands, talon)
        while st.phase != "end":
            legal = st.legal_actions()
            if st.phase == "auction":
                met += st.auction.key in R.auction.legal_memo
                fresh = st.clone()
                fresh.auction.key = None            # worked out again, not read from the memo
                assert fresh.legal_actions() == legal
                legal.clear()                       # a caller may change the list it was given
                legal = st.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if st.phase == "auction":
                met += (st.auction.key, action) in R.auction.steps
                fresh = st.clone()
                fresh.auction.key = None
                fresh.apply(action)
                st.apply(action)
                assert (st.phase, st.to_act, fields(st.auction)) == (fresh.phase, fresh.to_act, fields(fresh.auction))
                assert st.auction.key is not None
            else:
                st.apply(action)
    assert met > 0


def test_a_field_written_from_outside_the_auction_forgets_the_position():
    """`own_auction(state).holder = …` makes the position one its actions did not make: from then on the
    calls allowed are worked out afresh, never read from the memo."""
    R = compile_rules(load("wien"))
    hands, talon = deal_cards(R, random.Random(4), 0)
    st = State(R, 0, hands, talon)
    st.apply(st.legal_actions()[0])
    assert st.auction.key is not None
    own_auction(st).holder = st.to_act
    assert st.auction.key is None
    fresh = st.clone()
    assert st.legal_actions() == fresh.legal_actions()


def fields(au):
    return {f.name: getattr(au, f.name) for f in dataclasses.fields(au) if f.name != "key"}


def test_what_a_condition_reads():
    R = compile_rules(load("koenigrufen"))
    lets = R.rs.game.lets

    def positional(text):
        return reads_only(R.compiler, text, lets, POSITION_VALUES, POSITION_FUNCTIONS)

    assert positional("me == forehand and turn == 0")
    assert positional("base_open(piccolo)")                 # a let function over latest() and active
    assert positional("sum(1 for s in seats if first_bid(s) == none) > 1")
    assert not positional("count_in(suit_cards, me) >= 6")  # the hand
    assert not positional("deal_number > 2")
    assert not positional("king_in_talon")                  # a let reading the talon
    assert not positional("declarer == me")
