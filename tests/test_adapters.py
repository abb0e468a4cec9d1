"""The game-AI adapters (extra `stichwort[rl]`, part of the `test` extra): PettingZoo's own API test and
OpenSpiel's random-simulation test pass for every built-in game that plays, OpenSpiel's ISMCTS bot plays
on it, and what an agent observes is its seat's information set only."""
from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

import interpreter.adapters.openspiel_game  # noqa: F401  (registers python_stichwort)
from interpreter.adapters.encoding import ActionCatalog
from interpreter.adapters.pettingzoo_env import env
from interpreter.engine import new_game
from interpreter.pipeline import load

PLAYABLE = ["wien", "wien-4", "wien-five-six", "wien-hearts", "wien-trumpf", "simple", "simple-4",
            "croatian", "serbian", "serbian-preferans", "slovenian", "slovenian-hidden"]


@pytest.mark.filterwarnings("ignore:Observation")        # api_test's notes on dict observations (as for its own games)
@pytest.mark.parametrize("name", PLAYABLE)
def test_pettingzoo_api(name):
    api_test(env(name, seed=1), num_cycles=400)


@pytest.mark.parametrize("name", PLAYABLE)
def test_openspiel_random_simulation(name):
    game = pyspiel.load_game("python_stichwort", {"rules": name})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("name", ["wien", "simple", "croatian", "wien-4"])
def test_catalogue_covers_every_action_played(name):
    rs = load(name)
    cat = ActionCatalog(rs)
    rng = random.Random(4)
    for i in range(60):
        st = new_game(rs, seed=i, dealer=i % rs.seats)
        while not st.is_over():
            legal = st.legal_actions()
            for a in legal:
                assert cat.to_action(cat.to_index(a)) == a
            st.apply(legal[rng.randrange(len(legal))])


def test_episode_rewards_are_the_deal_money():
    e = env("wien", seed=3)
    e.reset(seed=11)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            result = info["result"]
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
    assert {a: float(v) for a, v in total.items()} == {f"seat_{s}": float(v) for s, v in result["payments"].items()}


def test_observation_hides_other_hands():
    """Seat 0's observation is the same whichever way the other hands lie."""
    rs = load("wien")
    st = new_game(rs, seed=5, dealer=2)
    hands = [st.observation(s)["hand"] for s in range(3)]
    talon = [rs.cards[c].code for c in st.talon]
    other = new_game(rs, deal={"hands": [hands[0], hands[2], hands[1]], "talon": talon}, dealer=2)
    e1, e2 = env(rs), env(rs)
    e1.reset(seed=1)
    e2.reset(seed=1)
    e1.state, e2.state = st, other
    o1, o2 = e1.observe("seat_0"), e2.observe("seat_0")
    assert np.array_equal(o1["observation"], o2["observation"]) and np.array_equal(o1["action_mask"], o2["action_mask"])
    assert not np.array_equal(e1.observe("seat_1")["observation"], e2.observe("seat_1")["observation"])


def _deal_out(game, rng):
    st = game.new_initial_state()
    while st.is_chance_node():
        outs, ps = zip(*st.chance_outcomes())
        st.apply_action(int(rng.choice(outs, p=ps)))
    return st


def test_openspiel_resample_keeps_the_information_set():
    game = pyspiel.load_game("python_stichwort", {"rules": "croatian"})
    rng = np.random.RandomState(7)
    st = _deal_out(game, rng)
    for _ in range(30):                     # some way into the play
        nxt = st.clone()
        nxt.apply_action(int(rng.choice(st.legal_actions())))
        if nxt.is_terminal():
            break
        st = nxt
    assert not st.is_terminal()
    p = st.current_player()
    seen = set()
    for k in range(6):
        other = st.resample_from_infostate(p, lambda k=k: (k + 0.5) / 6)
        assert other.information_state_string(p) == st.information_state_string(p)
        assert other.legal_actions() == st.legal_actions()
        seen.add(str(other))
    assert len(seen) > 1                      # the hidden cards differ between samples


def test_openspiel_ismcts_plays_a_deal():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_stichwort", {"rules": "simple"})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=15, random_state=np.random.RandomState(2),
                           allow_inconsistent_action_sets=True)
    rng = np.random.RandomState(3)
    st = _deal_out(game, rng)
    moves = 0
    while not st.is_terminal():
        if st.current_player() == 0:
            a = bot.step(st)
            assert a in st.legal_actions()
            moves += 1
        else:
            a = int(rng.choice(st.legal_actions()))
        st.apply_action(a)
    assert moves >= 1 and len(st.returns()) == 3


def test_analysis_doc_examples_run():
    """The python examples of docs/analysis.md run as written."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "analysis.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)
    assert len(blocks) >= 2
    for code in blocks:
        exec(compile(code, "docs/analysis.md", "exec"), {})
