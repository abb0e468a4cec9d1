"""Slovenian tarok (games/tarok/): random playouts keep every card in one place and the 70 card points whole; the
scores are what the rules make of them; the conformance mapping's phase-bound action texts, the deal read from
OpenSpiel's state and its per-deal seed; a wrong mapping of those is refused at its line."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.adapters.conformance import Pair, play_deal
from interpreter.adapters.conformance_map import load_mapping
from interpreter.bots.random_bot import RandomBot
from interpreter.diagnostics import DiagnosticError
from interpreter.engine import deal_cards
from interpreter.engine.readings import mask_points
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from interpreter.resources import games_dir

TAROK = games_dir() / "tarok"
FILES = ["tarok.stw", "tarok-3.stw", "tarok-announce.stw", "tarok-openspiel.stw", "tarok-openspiel-3.stw"]


def _places(st: State) -> list[int]:
    talon = 0
    for c in st.talon:
        talon |= 1 << c
    trick = 0
    for _, c in st.trick:
        trick |= 1 << c
    return [*st.hands, st.discards, *st.play.won_cards, talon, trick]


def _one_place(st: State) -> None:
    seen = 0
    for m in _places(st):
        assert seen & m == 0, "a card is in two places"
        seen |= m
    assert seen == st.R.full_mask, "a card is nowhere"


@pytest.mark.rules("SLT-DECK-01", "SLT-DECK-03", "SLT-DEAL-01", "SLT-TAL-01", "SLT-TAL-03", "SLT-CON-02", "SLT-KING-02")
@pytest.mark.parametrize("name", FILES)
def test_random_playouts_keep_every_card_in_one_place_and_70_points(name):
    rs = load(str(TAROK / name))
    R = compile_rules(rs)
    contracts = set()
    for seed in range(120):
        rng = random.Random(seed)
        dealer = seed % R.n_seats
        hands, talon = deal_cards(R, rng, dealer)
        st = State(R, dealer, hands, talon)
        # passes weighted so that the low contracts and klop come up, not only the valats
        bots = [RandomBot(f"{seed}:{s}") for s in range(R.n_seats)]
        steps = 0
        while not st.is_over():
            _one_place(st)
            legal = st.legal_actions()
            assert legal, f"no legal action in phase {st.phase}"
            texts = [st.action_text(a) for a in legal]
            if st.phase == "auction" and "pass" in texts and rng.random() < 0.8:
                st.apply(legal[texts.index("pass")])
            else:
                st.apply(bots[st.current_player()].choose(st))
            steps += 1
            assert steps < 200
        _one_place(st)
        assert sum(mask_points(R, m) for m in _places(st)) == 70
        con = st.result()["contract"]
        contracts.add(con)
        ctx = st.ctx()
        if con == "klop":       # every card goes to a trick's winner, the talon too (SLT-CON-02)
            assert sum(ctx.st.points(s) for s in range(R.n_seats)) == 70
        elif st.R.contracts[con].talon in ("threes", "twos", "ones") and "openspiel" not in name:
            # the packets left count for the opponents, the discards for the declarer (SLT-TAL-03): all 70 counted
            assert st.points(st.declarers) + st.points(st.defenders) == 70
    assert {"klop", "three"} <= contracts and len(contracts) >= 6, contracts


def test_the_klop_scores_are_the_lost_points_or_70_for_the_extremes():
    rs = load(str(TAROK / "tarok.stw"))
    R = compile_rules(rs)
    checked = 0
    for seed in range(400):
        rng = random.Random(seed)
        hands, talon = deal_cards(R, rng, 3)
        st = State(R, 3, hands, talon)
        while not st.is_over():
            legal = st.legal_actions()
            texts = [st.action_text(a) for a in legal]
            pick = "bid klop" if "bid klop" in texts else "pass" if "pass" in texts else None
            st.apply(legal[texts.index(pick)] if pick else legal[rng.randrange(len(legal))])
        if st.result()["contract"] != "klop":
            continue
        checked += 1
        counted = [int((st.points(s) + 0.5) // 1) for s in range(4)]
        extremes = [c > 35 or st.play.tricks_won[s] == 0 for s, c in enumerate(counted)]
        want = [(-70 if c > 35 else 70 if st.play.tricks_won[s] == 0 else 0) if any(extremes) else -c
                for s, c in enumerate(counted)]
        assert list(st.accounts["score"]) == want
    assert checked > 100


def test_the_mapping_reads_the_deal_from_openspiels_state_and_texts_by_phase():
    mapping = load_mapping(TAROK / "openspiel.yml")
    pair = Pair(mapping, "4")
    assert mapping.seed_param == "rng_seed" and pair.config.dealer == 3
    assert pair.text(0, "auction") == "pass" and pair.text(12, "auction") == "bid valat without"
    assert pair.text(29, "partner") == "call KH" and pair.text(0, "play") == "play T1"
    assert pair.text(53, "talon") == "discard KC" and pair.text(53, "auction") is None
    game = pair.game_for(random.Random(4))
    state = game.new_initial_state()
    state.apply_action(0)
    setup = pair.setup([0], state)
    assert setup.dealer == 3 and len(setup.talon) == 6 and all(len(h) == 12 for h in setup.hands)
    assert setup.talon == [pair.cards[c] for c in state.talon()]
    # the same deal's generator gives the same seed, so a deal can be played again alone
    again = pair.game_for(random.Random(4)).new_initial_state()
    again.apply_action(0)
    assert again.talon() == state.talon()
    seen: dict = {}
    found, steps = play_deal(pair, random.Random(9), 0, seen)
    assert found is None and steps > 4 and sum(seen.values()) == 1


@pytest.mark.parametrize("edit", [
    ("talon: talon}", "talon: Talon}", "names the state's methods"),
    ("- {phase: talon, match: \"^Talon set\"", "- {phase: talon, match: \"^Talon (set\"", "no valid pattern"),
    ("weights: {pass: 30", "weights: {pass: -3", "whole number"),
])
def test_a_wrong_tarok_mapping_is_refused_at_its_line(tmp_path: Path, edit):
    old, new, message = edit
    text = (TAROK / "openspiel.yml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "openspiel.yml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DiagnosticError) as err:
        load_mapping(path)
    d = err.value.diagnostics[0]
    assert d.code == "E506" and message in d.message and d.span is not None
