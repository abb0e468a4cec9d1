"""The OpenSpiel conformance harness (interpreter/adapters/conformance*.py, tools/conformance.py): OpenSpiel's
chance outcomes become a stated deal, the seat to act and the legal moves are compared at every decision and
the scores at the end; a wrong mapping is reported with a scenario file that reproduces the disagreement;
bad input exits 2. Oh Hell against OpenSpiel's oh_hell is in tests/test_conformance_ohhell.py."""
from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import pytest

from interpreter.adapters.conformance import (
    ConformanceError,
    Pair,
    chance_prefix,
    deal_returns,
    play_deal,
    run,
    uniform_chance,
    values,
)
from interpreter.adapters.conformance_map import load_mapping
from interpreter.diagnostics import DiagnosticError
from interpreter.harness.scenario import run_file
from interpreter.resources import games_dir

ROOT = Path(__file__).resolve().parent.parent
OHHELL = games_dir() / "ohhell" / "openspiel.yml"


def _tool():
    spec = importlib.util.spec_from_file_location("stichwort_conformance", ROOT / "tools" / "conformance.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


def conformance(capsys, *args) -> tuple[int, str, str]:
    code = TOOL.main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def mapping_variant(tmp_path: Path, old: str, new: str) -> Path:
    """games/ohhell/openspiel.yml with one edit, its rule files found beside the original."""
    text = OHHELL.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new)
    text = re.sub(r"rules: (oh-hell-openspiel[-0-9]*\.stw)", lambda m: f"rules: {OHHELL.parent / m.group(1)}", text)
    path = tmp_path / "openspiel.yml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.rules("OHH-OS-02", "OHH-OS-03", "OHH-OS-04", "OHH-DEAL-03")
def test_the_chance_outcomes_become_the_deal_openspiel_dealt():
    pair = Pair(load_mapping(OHHELL), "5")
    for seed in range(20):
        state = pair.game.new_initial_state()
        outcomes = chance_prefix(state, random.Random(seed))
        setup = pair.setup(outcomes)
        tricks, dealer, cards = outcomes[0], outcomes[1], outcomes[2:]
        assert setup.options == {"num_tricks": tricks} and setup.dealer == dealer
        assert len(cards) == 5 * tricks + 1
        for p in range(5):                       # a card at a time to players 0, 1, …, whoever deals
            assert setup.hands[p] == [pair.cards[c] for c in cards[p:5 * tricks:5]]
        assert setup.talon[0] == pair.cards[cards[-1]]                 # the trump card, turned up
        assert sorted(sum(setup.hands, []) + setup.talon) == sorted(pair.cards)
        assert state.current_player() == (dealer + 1) % 5


def test_openspiels_card_ids_and_action_texts_come_from_the_mapping():
    pair = Pair(load_mapping(OHHELL), "4")
    assert pair.cards[:5] == ["2C", "2D", "2S", "2H", "3C"] and pair.cards[-1] == "AH"
    assert [pair.text(a) for a in (0, 51, 52, 53, 64)] == ["play 2C", "play AH", "bid 0", "bid 1", "bid 12"]
    state = pair.game.new_initial_state()
    chance_prefix(state, random.Random(3))
    for a in state.legal_actions():              # OpenSpiel's own spelling of its bids: the number
        assert pair.text(a) == f"bid {state.action_to_string(state.current_player(), a)}"


def test_a_short_run_agrees_and_counts_what_it_compared(capsys):
    code, out, _ = conformance(capsys, "ohhell", "--config", "4", "--deals", "30", "--seed", "5")
    assert code == 0
    m = re.search(r"30 deals, (\d+) decisions compared, agree", out)
    assert m and int(m.group(1)) >= 30 * 5          # at least four bids and a card a deal


def test_the_same_seed_plays_the_same_deals():
    pair = Pair(load_mapping(OHHELL), "3")
    a, b = run(pair, 15, seed=9), run(pair, 15, seed=9)
    assert a.decisions == b.decisions and not a.disagreements
    assert run(pair, 15, seed=10).decisions != a.decisions
    one = run(pair, 1, seed=9, first=7)             # a deal of a run can be played again alone
    assert one.deals == 1 and one.decisions == play_deal(pair, random.Random("9/7"), 7)[1]


def test_a_wrong_bid_mapping_is_a_disagreement_with_a_scenario_that_reproduces_it(tmp_path, capsys):
    wrong = mapping_variant(tmp_path, '{from: cards, text: "bid {n}"}', '{from: cards, text: "bid {n}0"}')
    out_dir = tmp_path / "out"
    code, out, _ = conformance(capsys, wrong, "--config", "4", "--deals", "5", "--out", out_dir)
    assert code == 1
    assert "the legal moves differ (legal)" in out and "only OpenSpiel: bid 00" in out
    assert "only stichwort: bid 0, bid 1" in out
    [scenario] = out_dir.glob("*.yaml")
    text = scenario.read_text(encoding="utf-8")
    assert "rules: oh-hell-openspiel\n" in text and re.search(r"- legal: \{[A-D]: \[bid 00, bid 10", text)
    outcome = run_file(scenario)
    assert not outcome.ok and "legal" in " ".join(outcome.failures)


def test_a_wrong_card_order_is_found_in_play_and_the_scenario_fails_where_the_engines_part(tmp_path, capsys):
    """Swapping the 2 and the 3 of every suit is invisible to the legal moves until a trick is won by the
    other card: then the seat to lead differs, or a void turns up."""
    wrong = mapping_variant(tmp_path, "ranks: [2, 3, 4,", "ranks: [3, 2, 4,")
    out_dir = tmp_path / "out"
    code, out, _ = conformance(capsys, wrong, "--config", "4", "--deals", "200", "--seed", "1", "--out", out_dir)
    assert code == 1 and "DISAGREEMENT" in out and "moves: A: bid" in out
    [scenario] = out_dir.glob("*.yaml")
    outcome = run_file(scenario)
    assert not outcome.ok
    assert re.search(r"it is \w's turn, expected \w's|legal", " ".join(outcome.failures))


@pytest.mark.rules("OHH-OS-05")
def test_scores_that_differ_are_a_disagreement_and_the_scenario_expects_openspiels(tmp_path, capsys):
    wrong = mapping_variant(tmp_path, "options: {off_bid_penalty: true, points_per_trick: 2}",
                            "options: {off_bid_penalty: true, points_per_trick: 1}")
    out_dir = tmp_path / "out"
    code, out, _ = conformance(capsys, wrong, "--config", "4-penalty", "--deals", "20", "--out", out_dir)
    assert code == 1 and "the scores differ (returns)" in out
    [scenario] = out_dir.glob("*.yaml")
    text = scenario.read_text(encoding="utf-8")
    assert "points_per_trick: 1" in text and "score: {A: " in text
    outcome = run_file(scenario)
    assert not outcome.ok and all("accounts.score" in f for f in outcome.failures)


def test_bench_prints_both_engines_rates_round_by_round(capsys):
    code, out, _ = conformance(capsys, "ohhell", "--bench", "--config", "3", "--deals", "10", "--rounds", "2")
    assert code == 0
    rows = [ln.split() for ln in out.splitlines() if ln.startswith("3 ")]
    assert [r[1] for r in rows] == ["round", "round", "median"]
    for r in rows:
        assert float(r[-3]) > 0 and float(r[-2]) > 0
    assert "(wall time)" in out
    code, out, _ = conformance(capsys, "ohhell", "--bench", "--cpu", "--config", "3", "--deals", "10", "--rounds", "1")
    assert code == 0 and "(CPU time)" in out and len([ln for ln in out.splitlines() if ln.startswith("3 ")]) == 2


def test_the_bench_draws_a_shuffled_deck_uniformly_and_anything_else_by_its_probabilities():
    import pyspiel

    # Oh Hell's chance nodes (the number of tricks, the dealer, the cards, the trump) are all uniform;
    # 2048's new tile is not (a 2 nine times as likely as a 4)
    assert uniform_chance(Pair(load_mapping(OHHELL), "4").game, random.Random(1))
    assert not uniform_chance(pyspiel.load_game("2048"), random.Random(1), deals=1)


@pytest.mark.parametrize("game, config", [("ohhell", "4-penalty"), ("spades", "default"), ("bridge", "none-vulnerable")])
def test_the_bench_reads_the_same_returns_as_the_check(game, config):
    """deal_returns (the bench) reads from the final state alone what values() (the check) reads from a
    clone made at the start: per seat, and per partnership for spades' and bridge's team accounts."""
    from interpreter.engine import new_game

    pair = Pair(load_mapping(games_dir() / game / "openspiel.yml"), config)
    rng = random.Random(5)
    for i in range(5):
        st = new_game(pair.rs, seed=i, dealer=i % pair.n, options=dict(pair.config.options))
        start = st.clone()
        while not st.is_over():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        assert deal_returns(pair, st) == values(pair, start, st)
        assert any(deal_returns(pair, st))


@pytest.mark.parametrize("edit, message", [
    (("game: oh_hell", "gmae: oh_hell"), r"openspiel.yml:\d+:\d+: E506 unknown key 'gmae' in the mapping"),
    (("- dealer  ", "- deeler  "), r"E506 unknown chance step 'deeler'"),
    (("order: rank_major", "order: diagonal"), r"E506 'order' must be one of rank_major, suit_major"),
    (("returns: {account: score}", "returns: money"), r"E506 'returns' must be result"),
])
def test_a_wrong_mapping_file_is_refused_at_its_line(tmp_path, capsys, edit, message):
    code, _, err = conformance(capsys, mapping_variant(tmp_path, *edit))
    assert code == 2 and re.search(message, err), err
    assert "Traceback" not in err


def test_bad_input_exits_2_without_a_traceback(tmp_path, capsys):
    code, _, err = conformance(capsys, tmp_path / "missing.yaml")
    assert code == 2 and "missing.yaml" in err and "E100" in err
    code, _, err = conformance(capsys, "ohhell", "--config", "eight")
    assert code == 2 and "no config 'eight'" in err
    wrong = mapping_variant(tmp_path, "{name: \"3\", params: {players: 3}", "{name: \"3\", params: {players: 4}")
    code, _, err = conformance(capsys, wrong, "--config", "3")
    assert code == 2 and "has 4 players" in err and "3 seats" in err
    wrong = mapping_variant(tmp_path, "options: {points_per_trick: 3}", "options: {points_per_trik: 3}")
    code, _, err = conformance(capsys, wrong, "--config", "5-fixed")
    assert code == 2 and "config 5-fixed: unknown table option 'points_per_trik'" in err
    wrong = mapping_variant(tmp_path, "game: oh_hell", "game: oh_heaven")
    code, _, err = conformance(capsys, wrong, "--config", "3")
    assert code == 2 and "OpenSpiel cannot load oh_heaven" in err
    with pytest.raises(SystemExit) as exit_:
        TOOL.main(["ohhell", "--deals", "0"])
    assert exit_.value.code == 2
    capsys.readouterr()


def test_a_mapping_that_does_not_take_every_chance_outcome_is_bad_input(tmp_path):
    wrong = mapping_variant(tmp_path, "  - talon: 1 ", "  - hands: {each: 1} ")
    pair = Pair(load_mapping(wrong), "4")
    with pytest.raises(ConformanceError, match="the chance step 'hands' needs"):
        run(pair, 5)
    with pytest.raises(DiagnosticError):
        load_mapping(tmp_path / "nothing.yaml")
