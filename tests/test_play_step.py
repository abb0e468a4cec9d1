"""The play step's fast paths: bits() unrolled below 2^64 and its loop above, the early end folded away
for contracts under which it is always false, and the legal-actions memo of State.apply()."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.cards import bits
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import IllegalAction, State


def test_bits_matches_the_set_bits_below_and_above_64_cards() -> None:
    rng = random.Random(7)
    for width in (0, 1, 8, 32, 33, 34, 54, 63, 64, 65, 66, 67, 100, 130):
        for _ in range(200):
            mask = rng.getrandbits(width) if width else 0
            assert bits(mask) == [i for i in range(mask.bit_length()) if mask >> i & 1]
    for top in (33, 64, 66, 70):
        assert bits((1 << top) - 1) == list(range(top))
        assert bits(1 << top) == [top]


def test_bits_of_masks_cut_in_halves_of_30_bits() -> None:
    rng = random.Random(11)
    for width in (31, 45, 54, 59, 60, 61):
        for _ in range(200):
            for mask in (rng.getrandbits(width), rng.getrandbits(width) >> 30 << 30):    # (the lower half empty)
                assert bits(mask) == [i for i in range(mask.bit_length()) if mask >> i & 1]
    for top in (29, 30, 31, 32, 33, 59, 60, 61):
        for mask in ((1 << top) - 1, 1 << top, (1 << top) | 1, ((1 << top) - 1) >> 30 << 30):
            assert bits(mask) == [i for i in range(mask.bit_length()) if mask >> i & 1]


def test_early_end_folded_only_where_it_is_always_false() -> None:
    R = compile_rules(load("koenigrufen"))
    never = set(R.generated.never_end)
    assert never and all(R.contracts[name].early_end is None for name in never)
    kept = [name for name, con in R.contracts.items() if con.early_end is not None]
    assert kept and not never & set(kept)
    assert not compile_rules(load("wien")).generated.never_end


def _at_play(game: str, seed: int) -> State:
    """A deal of `game` dealt by seed `seed`, brought to the play by each step's first legal action."""
    R = compile_rules(load(game))
    hands, talon = deal_cards(R, random.Random(seed), 0)
    st = State(R, 0, hands, talon)
    while st.phase != "play":
        st.apply(st.legal_actions()[0])
    return st


def test_apply_checks_against_the_memo_and_without_it() -> None:
    st = _at_play("koenigrufen", 3)
    legal = st.legal_actions()
    other = next(c for c in range(64) if c not in legal)
    with pytest.raises(IllegalAction):
        st.apply(other)                 # the memo answers
    twin = st.clone()
    with pytest.raises(IllegalAction):
        twin.apply(other)               # another state: worked out again
    twin.apply(legal[0])
    st.hands[st.to_act] &= ~(1 << legal[0])     # the hand changed since: the memo no longer answers
    with pytest.raises(IllegalAction):
        st.apply(legal[0])


def test_a_side_that_decides_and_or_leaves_the_other_side_ungenerated() -> None:
    from interpreter.codegen.expr import ExprGen
    from interpreter.model.expression import node_of

    R = compile_rules(load("wien"))
    constants: dict = {}
    gen = ExprGen(R.compiler, constants, {}, {}, R.players, 10)
    right = "sum(tricks(s) for s in active) > 5"      # generated, it adds a helper function
    for text, value in ((f"false and {right}", False), (f"true or {right}", True)):
        g = gen.expr(node_of(text))
        assert g.const and g.value is value and g.src == repr(value)
    assert not constants and not gen.helpers      # nothing was bound for the right side
    g = gen.expr(node_of(f"true and {right}"))
    assert not g.const and gen.helpers


@pytest.mark.parametrize("game", ["koenigrufen", "wien", "croatian", "priffe", "simple"])
def test_generated_listing_gives_the_interpreters_cards(game) -> None:
    """The generated listing (through the led suit's or the trump suit's own tables where the cards left
    are of one suit) gives the cards of the interpreter's filters, lowest first, at every card."""
    from interpreter.engine.phases.play import playable

    R = compile_rules(load(game))
    rng = random.Random(8)
    seen = 0
    for i in range(30):
        hands, talon = deal_cards(R, rng, i % R.n_seats)
        st = State(R, i % R.n_seats, hands, talon)
        while st.phase != "end":
            legal = st.legal_actions()
            gen = st.con.gen_playable if st.phase == "play" and st.con is not None else None
            if gen is not None and st.play.offer is None:
                assert list(gen(st, st.to_act)) == bits(playable(st, st.to_act))
                seen += 1
            st.apply(legal[rng.randrange(len(legal))])
    assert seen > 0


def test_the_play_tables_follow_the_contract() -> None:
    """The deck's other cards and the winner table the play reads are the contract's beaters; setting the
    contract in the play sets its table."""
    st = _at_play("wien", 2)
    R = st.R
    n = len(R.suit_of)
    assert st._others == tuple(((1 << n) - 1) & ~(1 << i) for i in range(n))
    assert all(st._beats[w][a] == bool(st.con.beaters[w] >> a & 1) for w in range(n) for a in range(n))
    other = next(con for con in R.contracts.values() if con.beaters is not st.con.beaters)
    st.con = other
    assert all(st._beats[w][a] == bool(other.beaters[w] >> a & 1) for w in range(n) for a in range(n))
