"""Skat as OpenSpiel plays it (games/skat/skat-openspiel.stw, catalog games/skat/RULES.md section OPENSPIEL): the
talon's `card_by_card` (an exchange's discards one card per action, on both backends), the mapping's hands dealt in
packets (the 3–skat–4–3 deal), the variant's bidding and returns. The worked deals are the scenario files
games/skat/scenarios/os-*.yaml; the agreement with OpenSpiel is tests/test_conformance_games.py."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.adapters.conformance import Pair, chance_prefix
from interpreter.adapters.conformance_map import load_mapping
from interpreter.backends import compile_rules
from interpreter.cli import main
from interpreter.diagnostics import DiagnosticError
from interpreter.engine import new_game
from interpreter.engine.state import State
from interpreter.resources import games_dir

SKAT = games_dir() / "skat"
HANDS = [["AS", "10S", "KS", "QS", "9S", "8S", "7S", "AH", "10H", "KH"],
         ["JC", "JS", "JH", "JD", "AD", "10D", "KD", "QD", "9D", "8D"],
         ["7D", "8H", "7H", "AC", "10C", "KC", "QC", "9C", "8C", "7C"]]
TALON = ["QH", "9H"]


@pytest.fixture(scope="module")
def os_rs():
    return load(str(SKAT / "skat-openspiel.stw"))


def _texts(st):
    return [st.action_text(a) for a in st.legal_actions()]


def _do(st, text):
    st.apply(next(a for a in st.legal_actions() if st.action_text(a) == text))


@pytest.mark.rules("SKAT-OS-06")
@pytest.mark.parametrize("engine", ["interpreter", "generated"])
def test_card_by_card_discards_one_card_per_action_on_both_backends(os_rs, engine):
    dealt = new_game(os_rs, deal={"hands": HANDS, "talon": TALON}, dealer=2)
    st = State(compile_rules(os_rs, engine=engine), 2, list(dealt.dealt_hands), list(dealt.talon))
    _do(st, "bid clubs")                         # forehand names a game: he declares it, and takes the skat
    first = _texts(st)
    assert sorted(first) == sorted(f"discard {c}" for c in HANDS[0] + TALON)       # one card each, any of 12
    _do(st, "discard QH")
    assert st.current_player() == 0 and st.phase == "talon"
    assert sorted(_texts(st)) == sorted(f"discard {c}" for c in HANDS[0] + TALON if c != "QH")
    _do(st, "discard AS")
    assert st.phase == "play" and st.current_player() == 0
    assert set(st.R.rs.codes(st.discards)) == {"QH", "AS"}
    assert sorted(st.R.rs.codes(st.hands[0])) == sorted(c for c in HANDS[0] + TALON if c not in ("QH", "AS"))


@pytest.mark.rules("SKAT-OS-07", "SKAT-OS-09", "SKAT-OS-10", "SKAT-OS-11", "SKAT-OS-12")
def test_both_backends_give_the_same_moves_and_returns(os_rs):
    """The reference interpreter and the generated code, random deals played to the end: the same legal moves at
    every step, the same returns, which add up to 0."""
    R_ref, R_gen = (compile_rules(os_rs, engine=e) for e in ("interpreter", "generated"))
    assert R_gen.generated is not None and R_ref.generated is None
    rng = random.Random("skat-openspiel")
    for deal in range(60):
        dealt = new_game(os_rs, seed=deal, dealer=2)
        ref, gen = (State(R, 2, list(dealt.dealt_hands), list(dealt.talon)) for R in (R_ref, R_gen))
        while not gen.is_over():
            mine, theirs = gen.legal_actions(), ref.legal_actions()
            assert sorted(mine) == sorted(theirs), (deal, gen.phase, gen.action_text(mine[0]))
            a = mine[rng.randrange(len(mine))]
            gen.apply(a)
            ref.apply(a)
        assert ref.is_over() and ref.accounts["reward"] == gen.accounts["reward"]
        assert sum(gen.accounts["reward"]) == 0


def test_without_card_by_card_the_exchange_discards_a_set_of_two():
    st = new_game(load("skat"), deal={"hands": HANDS, "talon": TALON}, dealer=2)
    for text in ("pass", "pass", "bid 18", "pick up"):       # middlehand, rearhand, forehand
        _do(st, text)
    assert len(st.legal_actions()) == 66 and all(len(t.split()) == 3 for t in _texts(st))   # 12 choose 2


def test_card_by_card_must_be_true_or_false(tmp_path, capsys):
    bad = tmp_path / "bad.stw"
    bad.write_text((SKAT / "skat-openspiel.stw").read_text(encoding="utf-8")
                   .replace('extends "skat"', f'extends "{SKAT / "skat.stw"}"')
                   .replace("talon.pickup.card_by_card = true", "talon.pickup.card_by_card = 2"), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "card_by_card" in out and "Traceback" not in out


@pytest.mark.rules("SKAT-OS-02", "SKAT-OS-03", "SKAT-DEAL-02")
def test_the_chance_outcomes_are_dealt_three_skat_four_three():
    pair = Pair(load_mapping(SKAT / "openspiel.yml"), "default")
    for seed in range(10):
        state = pair.game.new_initial_state()
        outcomes = chance_prefix(state, random.Random(seed))
        setup = pair.setup(outcomes)
        assert len(outcomes) == 32 and setup.dealer == 2
        card = [pair.cards[c] for c in outcomes]
        assert setup.hands[0] == card[0:3] + card[11:15] + card[23:26]
        assert setup.hands[1] == card[3:6] + card[15:19] + card[26:29]
        assert setup.hands[2] == card[6:9] + card[19:23] + card[29:32]
        assert setup.talon == card[9:11]
        assert pair.cards[0] == "7D" and pair.cards[5] == "10D" and pair.cards[31] == "JC"
        assert state.current_player() == 0


def test_a_packet_that_does_not_divide_the_hand_is_refused_at_its_line(tmp_path):
    text = (SKAT / "openspiel.yml").read_text(encoding="utf-8").replace("{each: 4, packet: 4}", "{each: 4, packet: 3}")
    path = tmp_path / "openspiel.yml"
    path.write_text(text.replace("rules: skat-openspiel.stw", f"rules: {SKAT / 'skat-openspiel.stw'}"), encoding="utf-8")
    with pytest.raises(DiagnosticError, match="'packet' must be a whole number from 1 that divides 'each'"):
        load_mapping(path)


@pytest.mark.rules("SKAT-OS-01", "SKAT-OS-05")
def test_only_the_players_before_the_first_game_named_speak(os_rs):
    for speakers in range(3):
        st = new_game(os_rs, deal={"hands": HANDS, "talon": TALON}, dealer=2)
        for seat in range(speakers):
            assert st.current_player() == seat
            _do(st, "pass")
        assert st.current_player() == speakers
        _do(st, "bid grand")
        assert st.declarer == speakers and st.phase == "talon" and st.current_player() == speakers


def test_simulate_plays_2000_deals(capsys):
    assert main(["simulate", str(SKAT / "skat-openspiel.stw"), "--deals", "2000"]) == 0
    assert "2000 deals" in capsys.readouterr().out.replace(",", "")
