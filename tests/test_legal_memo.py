"""State.apply()'s check against the answer of the state's last legal_actions() (State._last_legal):
in every phase, a list the caller changed, another state's answer, a clone, a step taken since, the knock's
positions, and apply_unchecked()."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine import state as state_module
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import IllegalAction, State


def _states(name: str, deals: int = 6):
    R = compile_rules(load(name))
    rng = random.Random(5)
    for i in range(deals):
        hands, talon = deal_cards(R, rng, i % R.n_seats)
        st = State(R, i % R.n_seats, hands, talon)
        while not st.is_over():
            yield st, rng
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])


def _illegal(st: State) -> int:
    """An action the phase does not allow here (worked out without the kept answer)."""
    legal = set(st._component.legal(st))  # type: ignore[union-attr]
    return next(a for a in range(1 << 12) if a not in legal)


@pytest.mark.parametrize("name", ["koenigrufen", "wien", "priffe"])
def test_every_step_refuses_what_the_phase_does_not_allow(name: str) -> None:
    for st, _ in _states(name):
        legal = st.legal_actions()
        bad = _illegal(st)
        with pytest.raises(IllegalAction) as refused:
            st.apply(bad)
        assert str(refused.value) == st.action_text(bad)
        assert st.legal_actions() == legal       # nothing changed by the refusal


def test_a_list_changed_by_its_caller_does_not_change_the_check() -> None:
    for st, _ in _states("koenigrufen", 3):
        legal = st.legal_actions()
        bad = _illegal(st)
        legal[0] = bad
        legal.append(bad)
        with pytest.raises(IllegalAction):
            st.apply(bad)


def test_a_clone_takes_the_answer_along_and_each_state_checks_its_own_steps() -> None:
    for st, rng in _states("koenigrufen", 3):
        legal = st.legal_actions()
        twin = st.clone()
        bad = _illegal(st)
        with pytest.raises(IllegalAction):
            twin.apply(bad)
        a = legal[rng.randrange(len(legal))]
        twin.apply(a)                           # the clone moves on; the original's answer still holds for it
        if not twin.is_over():
            with pytest.raises(IllegalAction):
                twin.apply(bad if bad not in twin._component.legal(twin) else _illegal(twin))
        with pytest.raises(IllegalAction):
            st.apply(bad)


def test_an_answer_of_an_earlier_step_or_another_state_is_not_used() -> None:
    R = compile_rules(load("koenigrufen"))
    rng = random.Random(9)
    hands, talon = deal_cards(R, rng, 0)
    a = State(R, 0, hands, talon)
    b = State(R, 0, hands, talon)
    while a.phase != "play":
        a.apply(a.legal_actions()[0])
        b.apply_unchecked(b.legal_actions()[0])
    first = a.legal_actions()
    a.apply(first[0])
    with pytest.raises(IllegalAction):      # no longer in the hand: the answer kept is an earlier step's
        a.apply(first[0])
    b.legal_actions()
    bad = next(c for c in a.legal_actions() if c not in b._component.legal(b))  # type: ignore[union-attr]
    with pytest.raises(IllegalAction):      # another state's answer, of another step: not taken for this one
        b.apply(bad)


def test_a_clone_keeps_no_answer_of_its_original() -> None:
    """A clone's cards may be changed before it moves (a search bot's sampling): it asks again."""
    R = compile_rules(load("wien"))
    hands, talon = deal_cards(R, random.Random(4), 0)
    st = State(R, 0, hands, talon)
    st.legal_actions()
    assert st._last_legal != state_module.NO_ANSWER
    assert st.clone()._last_legal == state_module.NO_ANSWER


def test_the_deal_over_is_refused() -> None:
    R = compile_rules(load("wien"))
    rng = random.Random(2)
    hands, talon = deal_cards(R, rng, 0)
    st = State(R, 0, hands, talon)
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    assert st.legal_actions() == []
    assert st._last_legal == state_module.NO_ANSWER     # the deal over: nothing kept for a check no step needs
    with pytest.raises(IllegalAction, match="the deal is over"):
        st.apply(0)
