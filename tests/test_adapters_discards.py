"""Discards the catalogue offers card by card. A rule file whose talon lays away k cards at once, with
C(deck, k) above the catalogue's budget, gets no entry per combination: the seat picks the cards one by
one, lowest first, and the engine's discard is applied once the set is complete. The built-in games
stay within the budget (or discard card by card in the engine), so these tests lower the budget to
zero and run Vienna Préférence (talon and after-purchase discards of two cards) that way."""
from __future__ import annotations

import warnings

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

import interpreter.adapters.encoding as encoding
import interpreter.adapters.openspiel_game  # noqa: F401  (registers python_stichwort)
from interpreter.adapters.pettingzoo_env import env
from interpreter.bots.rule import RuleBot
from interpreter.engine import actions as A

NAME = "wien"


@pytest.fixture
def no_combinations(monkeypatch):
    monkeypatch.setattr(encoding, "COMBINATIONS", 0)


def test_without_budget_the_catalogue_has_one_discard_per_card(no_combinations):
    e = env(NAME)
    discards = [a for a in e.catalog.actions if A.kind_of(a) == A.DISCARD]
    assert e.catalog.discard_sizes == [] and len(discards) == e.ruleset.deck_size
    assert e.catalog.size < 250


def _drive_to_a_pick(e, seed):
    """Rule-bot moves until a seat is about to discard several cards; None if the deal never gets there."""
    e.reset(seed=seed)
    bot = RuleBot(seed)
    for _ in range(e.catalog.rules.max_actions):
        if e.state.is_over():
            return None
        legal = e.state.legal_actions()
        if e.catalog.composed(legal):
            return legal
        e.step(e.catalog.indices_of(legal, bot.choose(e.state))[0])
    return None


def test_pettingzoo_picks_the_cards_one_by_one(no_combinations):
    e = env(NAME, seed=3)
    done = 0
    for seed in range(40):
        legal = _drive_to_a_pick(e, seed)
        if legal is None:
            continue
        agent = e.agent_selection
        seat = e.possible_agents.index(agent)
        hand_before = e.state.hands[seat]
        wanted = A.arg_of(RuleBot(seed).choose(e.state))
        picks = e.catalog.indices_of(legal, A.make(A.DISCARD, wanted))
        assert len(picks) == bin(wanted).count("1") == 2
        first_mask = e.observe(agent)["action_mask"]
        others = [a for a in e.possible_agents if a != agent]
        before = {a: e.observe(a)["observation"] for a in others}
        own_before = e.observe(agent)["observation"]
        e.step(picks[0])
        # the same seat picks again; it sees its pick, the others see nothing of it
        first = A.arg_of(e.catalog.to_action(picks[0]))              # the mask of the card picked
        assert e.agent_selection == agent and e.chosen == first == wanted & -wanted
        assert e.state.hands[seat] == hand_before                  # nothing applied to the engine yet
        mask = e.observe(agent)["action_mask"]
        assert mask[picks[1]] == 1 and mask[picks[0]] == 0 and first_mask[picks[0]] == 1
        assert {A.kind_of(e.catalog.to_action(i)) for i in np.flatnonzero(mask)} == {A.DISCARD}
        assert all(e.catalog.to_action(i) & hand_before for i in np.flatnonzero(mask))   # cards of the hand
        lower = [c for c in range(e.ruleset.deck_size) if 1 << c < first]
        assert not any(mask[e.catalog.single[c]] for c in lower)  # lowest card first: no order is counted twice
        assert all(np.array_equal(e.observe(a)["observation"], before[a]) for a in others)
        assert not np.array_equal(e.observe(agent)["observation"], own_before)
        e.step(picks[1])
        assert e.chosen == 0 and e.state.hands[seat] == hand_before & ~wanted
        done += 1
        if done >= 3:
            break
    assert done >= 3


@pytest.mark.filterwarnings("ignore:Observation")
def test_pettingzoo_api_with_discards_card_by_card(no_combinations):
    api_test(env(NAME, seed=1), num_cycles=300)


def test_openspiel_with_discards_card_by_card(no_combinations):
    game = pyspiel.load_game("python_stichwort", {"rules": NAME, "dealer": 1})
    assert game.num_distinct_actions() < 250
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    rng = np.random.RandomState(2)
    checked = 0
    for _ in range(60):
        st = game.new_initial_state()
        for _ in range(game.max_game_length()):
            if st.is_terminal():
                break
            if st.is_chance_node():
                outs, ps = zip(*st.chance_outcomes())
                st.apply_action(int(rng.choice(outs, p=ps)))
                continue
            if st.chosen:                     # half-way through a discard: resampling keeps the picks
                p = st.current_player()
                assert "picked" in st.information_state_string(p)
                assert "picked" not in st.information_state_string((p + 1) % game.num_players())
                again = st.resample_from_infostate(p, lambda: 0.25)
                assert again.information_state_string(p) == st.information_state_string(p)
                assert again.legal_actions() == st.legal_actions() and again.chosen == st.chosen
                checked += 1
            st.apply_action(int(rng.choice(st.legal_actions())))
        assert st.is_terminal()
        if checked >= 3:
            break
    assert checked >= 3


def test_a_composed_discard_is_the_engine_discard(no_combinations):
    """Picking the cards of a legal discard, lowest card first, applies exactly that discard; a card that
    completes no legal discard is refused."""
    from interpreter.adapters.encoding import ActionCatalog
    from interpreter.engine import new_game
    from interpreter.pipeline import load

    rs = load(NAME)
    cat = ActionCatalog(rs)
    legal = [A.make(A.DISCARD, (1 << 3) | (1 << 9)), A.make(A.DISCARD, (1 << 3) | (1 << 20)),
             A.make(A.DISCARD, (1 << 9) | (1 << 20)), A.make(A.DISCARD, (1 << 1) | (1 << 30))]
    assert cat.composed(legal) == [A.arg_of(a) for a in legal]
    assert [cat.to_action(i) for i in cat.legal_indices(legal)] == [A.make(A.DISCARD, 1 << c) for c in (1, 3, 9)]
    assert [cat.to_action(i) for i in cat.legal_indices(legal, 1 << 3)] == [A.make(A.DISCARD, 1 << c) for c in (9, 20)]
    assert cat.legal_indices(legal, 1 << 20) == []
    assert cat.advance(legal, 0, cat.single[3]) == (None, 1 << 3)
    assert cat.advance(legal, 1 << 3, cat.single[20]) == (legal[1], 0)
    with pytest.raises(ValueError, match="not legal"):
        cat.advance(legal, 0, cat.single[20])
    st = new_game(rs, seed=3)
    assert not cat.composed(st.legal_actions())           # bids are never composed
