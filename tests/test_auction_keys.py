"""A positional auction keeps the calls allowed by what its conditions read of the position
(phases/auction_keys.py), so that auctions reaching the same such parts by other calls share one answer: the
answers kept are the ones worked out afresh, and there are far fewer of them than positions."""
import random

import pytest

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.phases.auction_keys import _PARTS, legal_key
from interpreter.engine.phases.auction_plans import POSITION_FUNCTIONS, POSITION_VALUES
from interpreter.engine.rules import compile_uncached
from interpreter.engine.state import State


def _deal(R, rng, dealer):
    hands, talon = deal_cards(R, rng, dealer)
    return State(R, dealer, hands, talon)


def _play(R, deals, seed):
    rng = random.Random(seed)
    for i in range(deals):
        st = _deal(R, rng, i % R.n_seats)
        while not st.is_over():
            legal = st.legal_actions()
            if st.phase == "auction":
                fresh = st.clone()
                fresh.auction.key = None            # worked out again, not read from the memo
                assert sorted(fresh.legal_actions()) == sorted(legal), (i, st.auction.calls)
            st.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game", ["tarok-openspiel", "tarok-openspiel-3", "bridge-openspiel", "skat-openspiel",
                                  "skat", "koenigrufen", "priffe", "simple"])
def test_the_answers_kept_by_key_are_the_fresh_ones(game):
    R = compile_uncached(load(game), ())
    assert R.auction.legal_key is not None
    _play(R, 150, 5)
    _play(R, 150, 6)        # the second run meets the answers the first kept


@pytest.mark.rules("SLT-BID-02", "SLT-BID-03", "SLT-BID-04")
def test_tarok_keeps_few_answers_for_many_positions():
    """SLT-BID-02..04: the calls allowed read the highest call, the holder, the passes and whether the seat to
    call has spoken; hundreds of deals meet thousands of positions and a few hundred such keys."""
    R = compile_uncached(load("tarok-openspiel"), ())
    rng = random.Random(2)
    for _ in range(400):
        st = _deal(R, rng, 3)
        while not st.is_over():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
    assert len(R.auction.positions) > 1000
    assert 0 < len(R.auction.legal_by_key) < 400


@pytest.mark.parametrize("game", ["wien", "croatian"])
def test_an_auction_with_sealed_calls_keeps_the_position_as_its_key(game):
    R = compile_uncached(load(game), ())
    assert R.auction.positional and any(c.contest for c in R.calls)
    assert R.auction.legal_key is None


def test_every_built_in_a_positional_condition_reads_is_mapped():
    assert set(_PARTS) >= POSITION_VALUES | POSITION_FUNCTIONS
    assert legal_key(["spoke(me)"], {}, POSITION_VALUES | {"tricks"}, POSITION_FUNCTIONS, False) is None
    assert legal_key(["spoke(me)"], {}, POSITION_VALUES, POSITION_FUNCTIONS, True) is None
