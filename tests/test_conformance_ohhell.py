"""Oh Hell against OpenSpiel's oh_hell, move for move (games/ohhell/openspiel.yaml, tools/conformance.py):
every player count from three to seven and the scoring parameters, a short run by default and 2,000 deals a
config in the slow run; the rule files name every id of games/ohhell/RULES.md; OpenSpiel's form keeps a card to
turn up and plays one deal."""
from __future__ import annotations

import re

import pytest

from interpreter import load
from interpreter.adapters.conformance import Pair, run
from interpreter.adapters.conformance_map import load_mapping
from interpreter.engine import new_game
from interpreter.engine.errors import RuleRuntimeError
from interpreter.resources import games_dir

FOLDER = games_dir() / "ohhell"
MAPPING = load_mapping(FOLDER / "openspiel.yaml")
CONFIGS = [c.name for c in MAPPING.configs]
PLAY_IDS = ("OHH-SEAT-01", "OHH-SEAT-02", "OHH-DECK-01", "OHH-DECK-02", "OHH-BID-01", "OHH-BID-02", "OHH-BID-03",
            "OHH-BID-04", "OHH-PLAY-01", "OHH-PLAY-02", "OHH-PLAY-03", "OHH-PLAY-04", "OHH-DEAL-03", "OHH-OS-01",
            "OHH-OS-02", "OHH-OS-03", "OHH-OS-04", "OHH-OS-05", "OHH-OS-06", "OHH-VAR-03", "OHH-VAR-04")


def test_every_player_count_and_both_scorings_have_a_config():
    params = [c.params for c in MAPPING.configs]
    assert sorted({p["players"] for p in params}) == [3, 4, 5, 6, 7]
    assert any(p.get("off_bid_penalty") for p in params) and any(p.get("num_tricks_fixed") for p in params)
    assert any(p.get("num_suits", 4) < 4 and p.get("num_cards_per_suit", 13) < 13 for p in params)


@pytest.mark.rules(*PLAY_IDS)
@pytest.mark.parametrize("config", CONFIGS)
def test_oh_hell_agrees_with_openspiel_move_for_move(config):
    report = run(Pair(MAPPING, config), 40, seed="default-run")
    assert report.deals == 40 and not report.disagreements, report.disagreements[:1]
    assert report.decisions > 40 * 4


@pytest.mark.slow
@pytest.mark.rules(*PLAY_IDS)
@pytest.mark.parametrize("config", CONFIGS)
def test_oh_hell_agrees_with_openspiel_over_2000_deals(config):
    report = run(Pair(MAPPING, config), 2000, seed=35)
    assert report.deals == 2000 and not report.disagreements, report.disagreements[:1]


def test_every_rule_id_of_the_catalog_is_named_in_the_rule_files():
    """As tests/test_rule_files_name_every_id.py does for the shared catalogs: each id of DECK to SESS, VAR and
    OPENSPIEL is named where a rule file expresses it."""
    catalog = (FOLDER / "RULES.md").read_text(encoding="utf-8")
    ids = re.findall(r"^- \*\*(OHH-([A-Z]+)-\d{2})\*\*", catalog, re.M)
    wanted = [i for i, section in ids if section not in {"EX", "AMB"}]
    text = "".join(p.read_text(encoding="utf-8") for p in FOLDER.glob("*.stw"))
    named = set(re.findall(r"OHH-[A-Z]+-\d{2}", text))
    for m in re.finditer(r"(OHH-[A-Z]+-)(\d{2})\.\.(\d{2})", text):
        named |= {f"{m.group(1)}{k:02d}" for k in range(int(m.group(2)), int(m.group(3)) + 1)}
    assert len(wanted) >= 30 and not [i for i in wanted if i not in named]


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
