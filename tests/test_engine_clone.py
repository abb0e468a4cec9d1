"""clone() copies everything the next move can change: at every step of random deals of every playable
game, a clone is played to the end, and the original's observations, legal actions and result (and
its cards, log and accounts) must be exactly as they were."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.state import State
from tests.test_playout import GAMES


def snapshot(st: State) -> tuple:
    n = st.R.n_seats
    return ([st.observation(s) for s in range(n)], st.legal_actions(), st.result(), st.current_player(),
            list(st.hands), list(st.log), repr(st.accounts), list(st.payments), st.phase)


def check_clones(name: str, seed: int) -> int:
    rs = load(name)
    st = new_game(rs, seed=seed, dealer=seed % rs.seats)
    rng = random.Random(seed)
    clones = 0
    while not st.is_over():
        before = snapshot(st)
        copy = st.clone()
        crng = random.Random(seed * 1000 + clones)
        while not copy.is_over():
            legal = copy.legal_actions()
            copy.apply(legal[crng.randrange(len(legal))])
        clones += 1
        assert snapshot(st) == before, f"{name} seed {seed}: playing a clone changed the original at step {clones}"
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return clones


@pytest.mark.parametrize("name", GAMES)
def test_a_played_clone_leaves_the_original_unchanged(name):
    assert sum(check_clones(name, seed) for seed in range(3)) > 0


def test_simple_seed_0_defence_queue_is_not_shared():
    # the defect of issue 7: a clone's defence answers emptied the original's queue
    st = new_game(load("simple"), seed=0)
    while st.phase != "defence" and not st.is_over():
        st.apply(st.legal_actions()[0])
    assert st.phase == "defence"
    asked = st.current_player()
    copy = st.clone()
    copy.apply(copy.legal_actions()[0])
    assert st.defence.queue[0] == asked and len(st.defence.queue) == len(copy.defence.queue) + 1


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_many_clones(name):
    for seed in range(3, 40):
        check_clones(name, seed)


@pytest.mark.parametrize("name", GAMES)
def test_playing_the_original_on_leaves_its_clones_unchanged(name):
    """The other way round: clones taken at every step keep what they had while the original plays on to
    the end (the play's state is shared and copied by whichever state writes it first)."""
    rs = load(name)
    for seed in range(2):
        st = new_game(rs, seed=seed, dealer=seed % rs.seats)
        rng = random.Random(seed)
        kept = []
        while not st.is_over():
            copy = st.clone()
            kept.append((copy, snapshot(copy)))
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        for k, (copy, before) in enumerate(kept):
            assert snapshot(copy) == before, f"{name} seed {seed}: the original changed its clone of step {k}"
