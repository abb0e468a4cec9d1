"""The sampler's short cuts give what the plain way gives: a replayed deal built straight as a State is the
deal new_game(deal=...) builds (and a deal new_game would refuse is still refused), and the assignment
of the unknown cards draws the same cards from the same random numbers as the reference loop."""
from __future__ import annotations

import random

import pytest

from interpreter.bots import seat_view
from interpreter.bots.rule import RuleBot
from interpreter.bots.sampler import Sampler
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.engine.deals import DealError
from interpreter.pipeline import load


def _play_until(rs, seed, plays):
    st = new_game(rs, seed=seed, dealer=seed % 3)
    bots = [RuleBot(f"{seed}:{s}") for s in range(st.n)]
    while not st.is_over() and sum(1 for _, a in st.log if A.kind_of(a) == A.PLAY) < plays:
        st.apply(bots[st.current_player()].choose(st))
    return st


@pytest.mark.parametrize("name", ["wien", "koenigrufen", "priffe-5"])
def test_replayed_deals_are_those_new_game_builds(name):
    rs = load(name)
    st = _play_until(rs, 5, 5)
    assert not st.is_over()
    view = seat_view(st)
    sampler = Sampler(view)
    rng = random.Random(2)
    checked = 0
    for _ in range(30):
        w = sampler.sample(rng)
        if w is None:
            continue
        deal = sampler.last_deal
        assert deal is not None
        ref = new_game(rs, deal=deal, options=view.options, dealer=view.dealer, accounts=view.accounts,
                       deal_number=view.deal_number)
        for _s, a in w.log:
            ref.apply(a)
        assert ref.hands == w.hands and ref.dealt_hands == w.dealt_hands and ref.log == w.log
        assert ref.peek("talon") == w.peek("talon") and ref.accounts == w.accounts
        assert ref.legal_actions() == w.legal_actions() and ref.phase == w.phase
        checked += 1
    assert checked >= 3


def test_a_deal_new_game_refuses_is_refused():
    rs = load("wien")
    view = seat_view(_play_until(rs, 1, 0))
    sampler = Sampler(view)
    got = sampler._assign(random.Random(0))
    assert got is not None
    hands, talon = got
    talon_cards = sorted(i for i in range(rs.deck_size) if talon >> i & 1)
    assert sampler._deal(list(hands), talon_cards) is not None          # accepted (and its counts noted)
    other = next(s for s in sampler.others)
    c = talon_cards[0]
    with pytest.raises(DealError):                  # a card twice: the same counts, but not a partition
        sampler._deal([h | (1 << c) if s == other else h for s, h in enumerate(hands)], talon_cards)
    with pytest.raises(DealError):                  # a card short in the talon
        sampler._deal(list(hands), talon_cards[1:])


def _assign_reference(sampler, rng):
    """The assignment as it was first written (one seat at a time, through dicts)."""
    hands = list(sampler.known)
    talon = sampler.known_talon
    cap = dict(sampler.capacity)
    quota = {s: 2 * sampler.hidden_discards[s] for s in sampler.others}
    cards = list(sampler.unknown)
    rng.shuffle(cards)
    excl = sampler.exclusions
    cards.sort(key=lambda c: -sum(1 for s in sampler.others if excl.get(s, 0) >> c & 1))
    for c in cards:
        places, weights = [], []
        for s in sampler.others:
            if cap[s] <= 0 or (excl.get(s, 0) >> c & 1 and quota[s] <= 0):
                continue
            places.append(s)
            weights.append(cap[s])
        if cap[-1] > 0:
            places.append(-1)
            weights.append(cap[-1])
        if not places:
            return None
        where = rng.choices(places, weights)[0] if len(places) > 1 else places[0]
        cap[where] -= 1
        if where == -1:
            talon |= 1 << c
        else:
            hands[where] |= 1 << c
            if excl.get(where, 0) >> c & 1:
                quota[where] -= 1
    return hands, talon


@pytest.mark.parametrize("name", ["wien", "koenigrufen"])
def test_assignment_matches_the_reference(name):
    rs = load(name)
    view = seat_view(_play_until(rs, 6, 6))
    unknown = Sampler(view).unknown
    pick = random.Random(9)
    for trial in range(40):
        # exclusions of every sort: none, a few cards, a whole stretch of the unknown cards
        excl = {} if trial % 4 == 0 else {s: sum(1 << c for c in pick.sample(unknown, pick.randrange(len(unknown))))
                                          for s in Sampler(view).others if pick.random() < 0.7}
        sampler = Sampler(view, dict(excl))
        a, b = random.Random(trial), random.Random(trial)
        assert sampler._assign(a) == _assign_reference(sampler, b)
        assert a.random() == b.random()             # the same numbers drawn
