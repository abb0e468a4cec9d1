"""`new_game(rng=…)`: a deal from the caller's random.Random, shuffled as `rng.shuffle` shuffles (the same deck,
the generator left where it leaves it), and the deal's two ways of turning the shuffled deck into hands (the
cards' bits where the talon is short, their indices otherwise) giving the same deal."""
import random

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.deals import _plan, deal_cards
from interpreter.engine.rules import compile_rules


@pytest.mark.parametrize("game", ["wien", "bridge", "tarok", "oh-hell", "skat"])
def test_rng_deals_as_the_seed_does_and_leaves_the_generator_as_shuffle_does(game):
    rs = load(game)
    for seed in range(20):
        by_seed = new_game(rs, seed=seed)
        rng = random.Random(seed)
        by_rng = new_game(rs, rng=rng)
        assert by_rng.dealt_hands == by_seed.dealt_hands
        assert by_rng.dealt_talon_order == by_seed.dealt_talon_order
        again = random.Random(seed)
        again.shuffle(list(range(rs.deck_size)))
        assert rng.getstate() == again.getstate()       # the next deal from it is the one shuffle would give


def test_a_generator_plays_deal_after_deal_the_same_way():
    rs = load("hearts")
    first = [new_game(rs, rng=r).dealt_hands for r in [random.Random(3)] for _ in range(5)]
    second = [new_game(rs, rng=r).dealt_hands for r in [random.Random(3)] for _ in range(5)]
    assert first == second and len(set(first)) == 5


def test_rng_with_a_seed_or_a_deal_is_refused():
    rs = load("simple")
    with pytest.raises(ValueError, match="one of seed, rng and deal"):
        new_game(rs, seed=1, rng=random.Random(1))
    with pytest.raises(ValueError, match="one of seed, rng and deal"):
        new_game(rs, deal={"hands": [[]] * rs.seats}, rng=random.Random(1))


@pytest.mark.parametrize("game, options", [("oh-hell", {}), ("tarok", {}), ("bridge", {}), ("skat", {})])
def test_the_bits_deck_and_the_index_deck_deal_alike(game, options):
    """Each dealer and hand size: the hands and talon deal_cards gives are those of the deck of indices
    shuffled the same way, read through the packet plan."""
    R = compile_rules(load(game), options)
    for dealer in range(R.n_seats):
        for seed in range(10):
            hands, talon = deal_cards(R, random.Random(seed), dealer, seed)
            each = max((h.bit_count() for h in hands), default=0)
            seats, talon_of, _few = _plan(R, dealer, each)
            deck = list(range(len(R.cards)))
            random.Random(seed).shuffle(deck)
            assert hands == [sum(1 << c for c in take(deck)) if take is not None else 0 for take in seats]
            assert talon == list(talon_of(deck))
