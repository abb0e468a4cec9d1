"""AuctionState.copy() names every attribute: a copy has the same values, and shares the lists (which
AuctionPhase.apply replaces, never changes in place)."""
import dataclasses
import random

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.phases.auction import AuctionState, own_auction
from interpreter.engine.phases.play import own_play
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State


def values(au: AuctionState) -> dict:
    return {f.name: getattr(au, f.name) for f in dataclasses.fields(AuctionState)}


def test_copy_has_every_attribute():
    au = AuctionState(4)
    for i, f in enumerate(dataclasses.fields(AuctionState)):
        setattr(au, f.name, (f.name, i))
    assert values(au.copy()) == values(au)


def test_apply_never_changes_a_shared_list():
    R = compile_rules(load("wien"))
    rng = random.Random(7)
    for i in range(30):
        hands, talon = deal_cards(R, rng, i % R.n_seats)
        st = State(R, i % R.n_seats, hands, talon)
        while st.phase == "auction":
            before = {k: (v, list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else None)
                      for k, v in values(st.auction).items()}
            twin = st.clone()
            legal = twin.legal_actions()
            twin.apply(legal[rng.randrange(len(legal))])
            for k, (v, seen) in before.items():
                if seen is not None:
                    assert v == seen, k
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])


def test_clones_before_the_play_share_its_state_until_written():
    R = compile_rules(load("wien"))
    hands, talon = deal_cards(R, random.Random(3), 0)
    st = State(R, 0, hands, talon)
    twin = st.clone()
    assert twin.play is st.play                     # shared before the play (State.clone)
    own_play(twin).tricks_won = [1] * twin.n        # written: the clone's own
    assert twin.play is not st.play and st.play.tricks_won == [0] * st.n
    rng = random.Random(5)
    while twin.phase != "play" and twin.phase != "end":
        legal = twin.legal_actions()
        twin.apply(legal[rng.randrange(len(legal))])
    assert st.play.leader is None and st.trick == [] and st.play.tricks_won == [0] * st.n


def test_talon_state_copy_and_fresh_state():
    from interpreter.engine.phases.talon import TalonState, fresh_state

    fresh = fresh_state(4)                          # nothing set: every attribute its class default
    assert all(f.default is not dataclasses.MISSING for f in dataclasses.fields(TalonState))
    assert fresh == TalonState()
    tl = TalonState()
    for i, f in enumerate(dataclasses.fields(TalonState)):
        setattr(tl, f.name, (f.name, i))
    assert vars(tl.copy()) == vars(tl)


def test_clones_after_the_auction_share_its_state():
    """Nothing writes the auction's state once the auction is over: clones share it (State.clone), and a
    write from outside the auction's steps (own_auction) makes the writer's own copy."""
    R = compile_rules(load("wien"))
    hands, talon = deal_cards(R, random.Random(3), 0)
    st = State(R, 0, hands, talon)
    rng = random.Random(5)
    while st.phase == "auction":
        twin = st.clone()
        assert twin.auction is not st.auction       # copied in the auction
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    twin = st.clone()
    assert twin.auction is st.auction
    order = list(st.auction.bid_order)
    own_auction(twin).bid_order = order[::-1]
    assert twin.auction is not st.auction and st.auction.bid_order == order


def test_peek_reads_a_shared_part_without_copying_it():
    R = compile_rules(load("wien"))
    hands, talon = deal_cards(R, random.Random(3), 0)
    st = State(R, 0, hands, talon)
    twin = st.clone()                               # the talon is shared from now on (State._Part)
    assert twin.peek("talon") is st.peek("talon") and twin.peek("talon") == talon
    assert twin.peek("talon_state") is None         # not made yet, and peek does not make it
    assert twin.talon is not st.peek("talon") and twin.talon == talon   # the attribute copies it
