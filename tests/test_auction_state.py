"""AuctionState.copy() names every attribute: a copy has the same values, and shares the lists (which
AuctionPhase.apply replaces, never changes in place)."""
import dataclasses
import random

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.phases.auction import AuctionState
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State


def test_copy_has_every_attribute():
    au = AuctionState(4)
    for i, f in enumerate(dataclasses.fields(AuctionState)):
        setattr(au, f.name, (f.name, i))
    assert vars(au.copy()) == vars(au)


def test_apply_never_changes_a_shared_list():
    R = compile_rules(load("wien"))
    rng = random.Random(7)
    for i in range(30):
        hands, talon = deal_cards(R, rng, i % R.n_seats)
        st = State(R, i % R.n_seats, hands, talon)
        while st.phase == "auction":
            before = {k: (v, list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else None)
                      for k, v in vars(st.auction).items()}
            twin = st.clone()
            legal = twin.legal_actions()
            twin.apply(legal[rng.randrange(len(legal))])
            for k, (v, seen) in before.items():
                if seen is not None:
                    assert v == seen, k
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
