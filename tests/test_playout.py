"""Random playouts in the style of OpenSpiel's random_sim_test, over every built-in rule file
(every one of them; a built-in file that needs an unimplemented mechanism fails here): at every step
each card is in exactly one place, exactly one seat acts, legal actions are empty only at the end, every
action's text reads back as that action; the deal ends within its maximum, money balances, and the log
replays to the same state. Two policies: uniformly random, and always the first legal action (the
README's loop)."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from interpreter.engine.text import parse
from interpreter.pipeline import NotPlayable
from interpreter.resources import builtin_games
from tests.games_support import IN_DEVELOPMENT, playable_games

GAMES = playable_games()


@pytest.mark.parametrize("name", sorted(builtin_games()))
def test_every_built_in_game_plays(name):
    """Every built-in rule file is in this suite: none is refused as needing what the engine lacks, except
    the games listed as in development (tests/games_support.py), which are refused, each with what it needs."""
    if name not in IN_DEVELOPMENT:
        load(name)
        return
    with pytest.raises(NotPlayable) as err:
        load(name)
    assert f"{name} is not playable yet: the engine does not implement" in err.value.summary


def test_the_suite_covers_every_family():
    for name in ("wien", "wien-hearts", "wien-4", "simple", "simple-4", "croatian", "serbian", "slovenian",
                 "koenigrufen", "koenigrufen-5", "priffe", "priffe-5", "priffe-honours50", "priffe-half-honours",
                 "priffe-double-slam", "priffe-second-game-40", "oh-hell"):
        assert name in GAMES


def card_places(st: State) -> list[int]:
    talon = 0
    for c in st.talon:
        talon |= 1 << c
    trick = 0
    for _, c in st.trick:
        trick |= 1 << c
    # the cards passed before the play lie aside until every seat has passed (engine/phases/pass_cards.py)
    aside = list(st.passed) if st.phase == "pass_cards" else []
    # the cards dealt after a pause wait until `deal_rest` (engine/phases/deal_rest.py)
    return list(st.hands) + list(st.held) + [st.discards, talon, trick] + list(st.play.won_cards) + aside


def frozen(st: State) -> str:
    """Everything the state holds, as text (the compiled rules aside, and State._last_legal: the answer
    legal_actions() keeps for apply() to check an action against, which is no part of the deal)."""
    return repr(sorted((k, repr(v)) for k, v in vars(st).items() if k not in ("R", "_last_legal")))


def check_step(st: State) -> list[int]:
    seen = 0
    for m in card_places(st):
        assert seen & m == 0, "a card is in two places"
        seen |= m
    assert seen == st.R.full_mask, "a card is nowhere"
    before = frozen(st)
    legal = st.legal_actions()
    assert frozen(st) == before, "legal_actions() changed the state"
    if st.is_over():
        assert legal == [] and st.current_player() == -1
        return legal
    assert legal, f"no legal action in phase {st.phase}, but the deal is not over"
    assert len(set(legal)) == len(legal), "an action is listed twice"
    assert st.current_player() in st.active, "exactly one seat taking part acts"
    return legal


def balance(accounts: dict) -> object:
    return sum(accounts.get("money", [])) + accounts.get("pot", 0)


def playout(name: str, seed: int, policy: str) -> None:
    rs = load(name)
    R = compile_rules(rs)
    dealer = seed % R.n_seats
    st = new_game(rs, seed=seed, dealer=dealer)
    dealt = {"hands": [rs.codes(h) for h in st.dealt_hands], "talon": [R.codes[c] for c in st.talon]}
    rng = random.Random(seed)
    steps = 0
    while True:
        legal = check_step(st)
        if not legal:
            break
        a = legal[0] if policy == "first" else legal[rng.randrange(len(legal))]
        assert parse(st, st.action_text(a)) == a, f"'{st.action_text(a)}' does not read back"
        st.apply(a)
        steps += 1
        assert steps <= R.max_actions, f"{name} seed {seed}: the deal runs past its {R.max_actions} actions"
    assert balance(st.accounts) == balance(st.start_accounts), "money does not balance"
    again = new_game(rs, deal=dealt, dealer=dealer)
    for seat, a in st.log:      # the seat whose action it is (a dummy's card: his seat, played by another)
        assert seat in (again.current_player(), again.to_act)
        again.apply(parse(again, st.action_text(a)))
    assert again.is_over()
    assert again.result() == st.result()
    assert again.accounts == st.accounts
    assert [again.observation(s) for s in range(R.n_seats)] == [st.observation(s) for s in range(R.n_seats)]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("policy", ["random", "first"])
def test_playouts(name, policy):
    for seed in range(12 if policy == "random" else 4):
        playout(name, seed, policy)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_many_random_playouts(name):
    for seed in range(12, 300):
        playout(name, seed, "random")
