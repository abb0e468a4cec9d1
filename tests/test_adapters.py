"""The game-AI adapters (extra `stichwort[rl]`, part of the `test` extra): PettingZoo's own API test and
OpenSpiel's random-simulation test pass for every built-in game that plays (the list comes from
builtin_games(); a game in development must be refused with one clear message), the action catalogue
is small for every game and covers what is played, OpenSpiel's ISMCTS bot plays on it, and what an
agent observes is its seat's information set only."""
from __future__ import annotations

import functools
import random

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

import interpreter.adapters.openspiel_game  # noqa: F401  (registers python_stichwort)
from interpreter.adapters.encoding import ActionCatalog, load_rules
from interpreter.adapters.pettingzoo_env import env
from interpreter.bots.rule import RuleBot
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.pipeline import check, load
from interpreter.resources import builtin_games

GAMES = sorted(builtin_games())
SIMS = 3                 # OpenSpiel random simulations per game (each checks every state it passes)
CYCLES = 300             # PettingZoo api_test's play test: steps, over as many deals as that takes


@functools.cache
def plays(name: str) -> bool:
    """Whether `validate` lists the built-in game as ok (else it is in development: the adapters refuse it)."""
    report = check(name)
    assert report.ok or report.only_pending, f"{name} is neither valid nor in development"
    return report.ok


def test_every_listed_game_is_covered():
    assert len(GAMES) >= 20 and {"wien", "koenigrufen", "priffe-5", "oh-hell"} <= set(GAMES)


@pytest.mark.filterwarnings("ignore:Observation")        # api_test's notes on dict observations (as for its own games)
@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api(name):
    if not plays(name):
        with pytest.raises(ValueError, match="cannot run .* not playable"):
            env(name)
        return
    api_test(env(name, seed=1), num_cycles=CYCLES)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation(name):
    if not plays(name):
        with pytest.raises(ValueError, match="cannot run .* not playable"):
            pyspiel.load_game("python_stichwort", {"rules": name})
        return
    game = pyspiel.load_game("python_stichwort", {"rules": name})
    assert game.num_distinct_actions() <= 1000           # small by design, whatever the talon discards
    size = game.information_state_tensor_size()

    def check_state(state):
        if state.is_chance_node() or state.is_terminal():
            return
        p = state.current_player()
        legal = state.legal_actions()
        assert legal and all(0 <= a < game.num_distinct_actions() for a in legal)
        tensor = np.asarray(state.information_state_tensor(p))
        assert tensor.shape == (size,) and tensor.min() >= 0.0 and tensor.max() <= 1.0

    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=False, verbose=False, state_checker_fn=check_state)


def test_a_game_in_development_is_refused_with_one_clear_message():
    path = "tests/diagnostics/cases/pending_mechanisms.stw"
    for make in (lambda: env(path), lambda: pyspiel.load_game("python_stichwort", {"rules": path})):
        with pytest.raises(ValueError, match=r"cannot run .*pending_mechanisms.stw is not playable yet: the engine "
                                             r"does not implement kontra.personal"):
            make()


@pytest.mark.parametrize("name", GAMES)
def test_catalogue_is_small_and_covers_every_action_played(name):
    if not plays(name):
        with pytest.raises(ValueError, match="cannot run .* not playable"):
            load_rules(name)
        return
    rs = load(name)
    cat = ActionCatalog(rs)
    assert cat.size == len(set(cat.actions)) <= 1000
    rng = random.Random(4)
    for i in range(8):                  # random moves, and the rule bot's (which reach talons and kontras)
        st = new_game(rs, seed=i, dealer=i % cat.seats)
        bot = RuleBot(i) if i % 2 else None
        for _ in range(cat.rules.max_actions):
            if st.is_over():
                break
            legal = st.legal_actions()
            for a in legal:
                idx = cat.indices_of(legal, a)
                assert idx and all(0 <= k < cat.size for k in idx)
                if len(idx) == 1:
                    assert cat.to_action(idx[0]) == a
            assert cat.legal_indices(legal)
            st.apply(bot.choose(st) if bot else legal[rng.randrange(len(legal))])
        assert st.is_over()


def test_card_by_card_discards_keep_the_tarock_catalogue_small():
    """Königrufen lays away up to six cards: the engine offers them one by one, so the catalogue holds one
    discard per card and no combination (C(54, 6) would be 25 million)."""
    cat = ActionCatalog(load("koenigrufen"))
    discards = [a for a in cat.actions if A.kind_of(a) == A.DISCARD]
    assert cat.discard_sizes == [] and len(discards) == 54 and cat.size < 1000


@pytest.mark.parametrize("name", ["koenigrufen", "koenigrufen-5"])
def test_every_kind_of_tarock_action_passes_through_the_environment(name):
    """Knock, bids, the partner call, the talon, card-by-card discards, announcements and per-item kontras
    all reach the engine through PettingZoo's catalogue indices (rule bot mixed with random moves)."""
    e = env(name, seed=2)
    seen = set()
    for ep in range(60):
        e.reset(seed=ep)
        bot, rng = RuleBot(ep), random.Random(ep)
        for _agent in e.agent_iter(2000):
            obs, _r, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal_idx = list(np.flatnonzero(obs["action_mask"]))
            if rng.random() < 0.7 and not e.chosen:
                a = bot.choose(e.state)
                step = e.catalog.indices_of(e.state.legal_actions(), a)[0]
            else:
                step = int(rng.choice(legal_idx))
            assert step in legal_idx
            seen.add(A.kind_of(e.catalog.to_action(step)))
            e.step(step)
        assert all(e.terminations.values())
        if seen >= {A.KNOCK, A.BID, A.PASS, A.PARTNER_CALL, A.DISCARD, A.ANNOUNCE, A.ITEM_KONTRA, A.PLAY}:
            break
    assert seen >= {A.KNOCK, A.BID, A.PASS, A.PARTNER_CALL, A.DISCARD, A.ANNOUNCE, A.ITEM_KONTRA, A.PLAY}


def test_episode_rewards_are_the_deal_money():
    e = env("wien", seed=3)
    e.reset(seed=11)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(500):
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            result = info["result"]
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
    assert {a: float(v) for a, v in total.items()} == {f"seat_{s}": float(v) for s, v in result["payments"].items()}


def test_five_at_the_table_play_four_seats_a_deal():
    """Priffe at five rotates who sits out between deals: one deal (one episode) has the engine's four seats."""
    e = env("priffe-5", seed=1)
    assert e.possible_agents == [f"seat_{s}" for s in range(4)]
    game = pyspiel.load_game("python_stichwort", {"rules": "koenigrufen-5", "dealer": 2})
    assert game.num_players() == 5
    st = game.new_initial_state()
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
    assert st.engine.dealt_hands[2] == 0 and all(st.engine.dealt_hands[s] for s in (0, 1, 3, 4))   # the dealer sits out


@pytest.mark.parametrize("name", ["wien", "koenigrufen", "priffe", "oh-hell", "croatian"])
def test_observation_hides_other_hands(name):
    """Seat 0's observation, action mask and OpenSpiel strings are the same whichever way two other seats'
    hands lie, action by action, as long as the same moves are legal (the called partner stays hidden)."""
    rs = load(name)
    rng = random.Random(5)
    steps = 0
    for k in range(4):
        dealer = 1 + k % 2
        st = new_game(rs, seed=k, dealer=dealer)
        others = [s for s in st.active if s != 0][:2]
        assert 0 in st.active and len(others) == 2
        hands = [rs.codes(st.hands[s]) for s in range(st.n)]     # as dealt (unseen before a cut, observation)
        hands[others[0]], hands[others[1]] = hands[others[1]], hands[others[0]]
        other = new_game(rs, deal={"hands": hands, "talon": [rs.cards[c].code for c in st.talon]}, dealer=dealer)
        e1, e2 = env(rs), env(rs)
        e1.reset(seed=1)
        e2.reset(seed=1)
        e1.state, e2.state = st, other
        for _ in range(200):
            o1, o2 = e1.observe("seat_0"), e2.observe("seat_0")
            assert np.array_equal(o1["observation"], o2["observation"])
            assert np.array_equal(o1["action_mask"], o2["action_mask"])
            if st.is_over() or other.is_over():
                break
            legal = st.legal_actions()
            a = legal[rng.randrange(len(legal))]
            if a not in other.legal_actions():
                break
            st.apply(a)
            other.apply(a)
            steps += 1
        assert not np.array_equal(e1.observe(f"seat_{others[0]}")["observation"],
                                  e2.observe(f"seat_{others[0]}")["observation"])
    assert steps >= 8


def _deal_out(game, rng):
    st = game.new_initial_state()
    while st.is_chance_node():
        outs, ps = zip(*st.chance_outcomes())
        st.apply_action(int(rng.choice(outs, p=ps)))
    return st


@pytest.mark.parametrize("name", ["croatian", "koenigrufen", "koenigrufen-5", "priffe", "priffe-5", "wien-4"])
def test_openspiel_resample_keeps_the_information_set(name):
    game = pyspiel.load_game("python_stichwort", {"rules": name})
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
    for _ in range(game.max_game_length()):
        if st.is_terminal():
            break
        if st.current_player() == 0:
            a = bot.step(st)
            assert a in st.legal_actions()
            moves += 1
        else:
            a = int(rng.choice(st.legal_actions()))
        st.apply_action(a)
    assert st.is_terminal() and moves >= 1 and len(st.returns()) == 3


def test_analysis_doc_examples_run():
    """The python examples of docs/analysis.md run as written."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "analysis.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)
    assert len(blocks) >= 2
    for code in blocks:
        exec(compile(code, "docs/analysis.md", "exec"), {})
