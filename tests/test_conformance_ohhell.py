"""Oh Hell against OpenSpiel's oh_hell (games/ohhell/openspiel.yml): the mapping has a config for every player
count from three to seven, both scorings and a short pack (the runs themselves are in test_conformance_games.py);
OpenSpiel's form keeps a card to turn up, and the table game deals the whole pack without trumps."""
from __future__ import annotations

import pytest

from interpreter import load
from interpreter.adapters.conformance_map import load_mapping
from interpreter.engine import new_game
from interpreter.engine.errors import RuleRuntimeError
from interpreter.resources import games_dir

FOLDER = games_dir() / "ohhell"
MAPPING = load_mapping(FOLDER / "openspiel.yml")


def test_every_player_count_and_both_scorings_have_a_config():
    params = [c.params for c in MAPPING.configs]
    assert sorted({p["players"] for p in params}) == [3, 4, 5, 6, 7]
    assert any(p.get("off_bid_penalty") for p in params) and any(p.get("num_tricks_fixed") for p in params)
    assert any(p.get("num_suits", 4) < 4 and p.get("num_cards_per_suit", 13) < 13 for p in params)


@pytest.mark.rules("OHH-DEAL-04", "OHH-VAR-01")
def test_the_table_game_plays_a_hand_of_the_whole_pack_without_trumps():
    st = new_game(load("oh-hell"), seed=1, options={"top": 13}, deal_number=12)
    assert all(bin(h).count("1") == 13 for h in st.hands) and st.talon == [] and st.trump is None


@pytest.mark.rules("OHH-OS-02", "OHH-OS-06")
@pytest.mark.parametrize("name, players, most", [("oh-hell-openspiel-3", 3, 17), ("oh-hell-openspiel", 4, 12),
                                                 ("oh-hell-openspiel-5", 5, 10), ("oh-hell-openspiel-6", 6, 8),
                                                 ("oh-hell-openspiel-7", 7, 7), ("oh-hell-openspiel-short", 3, 5)])
def test_openspiels_form_always_leaves_a_card_to_turn_up(name, players, most):
    rs = load(name)
    assert rs.players == players and most == (rs.deck_size - 1) // players
    sizes = []
    for deal in range(most + 1):                  # num_tricks 0: 1, 2, … the most, then 1 again
        st = new_game(rs, seed=deal, deal_number=deal)
        sizes.append(bin(st.hands[0]).count("1"))
        assert st.trump is not None and st.R.codes[st.talon[0]][-1] == st.trump
    assert sizes == [*range(1, most + 1), 1]
    st = new_game(rs, seed=3, options={"num_tricks": most})
    assert len(st.talon) == rs.deck_size - players * most >= 1
    with pytest.raises((RuleRuntimeError, ValueError)):
        new_game(rs, seed=3, options={"num_tricks": most + 1})
