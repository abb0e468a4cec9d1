"""Games of numeric bids (issue 10, section 5): a contract's trump by expression (the turned-up card),
packet sizes by expression over the table options, and the checks that keep both to what is known
when they are worked out. Every test runs the engine on a rule file."""
from __future__ import annotations

import json

import pytest

from interpreter import load, pipeline
from interpreter.bots.rule import RuleBot
from interpreter.cli import main
from interpreter.engine import RuleRuntimeError, new_game
from interpreter.engine.rules import compile_rules

CONTRACT_TRUMP = """extends "oh-hell"
remove number_bids.trump
contract round_played { trump = suit_of(turned_up) }
"""

SHORT_PRIFFE = """extends "priffe"
option hand { default = 13  min = 8  max = 13  doc = "cards in each hand; the rest stay aside" }
deal {
  packets = table {
    | to    | cards | repeat        |
    | each  | 1     | hand          |
    | talon | 1     | 52 - 4 * hand |
  }
}
"""


def _play_out(state, seed: str):
    bots = [RuleBot(f"{seed}:{s}") for s in range(state.n)]
    while not state.is_over():
        state.apply(bots[state.current_player()].choose(state))
    return state


def _log(path) -> list[dict]:
    out = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        rec.pop("rules", None)
        out.append(rec)
    return out


def test_a_contracts_trump_by_expression_follows_the_turned_up_card(tmp_path):
    variant = tmp_path / "oh-contract-trump.stw"
    variant.write_text(CONTRACT_TRUMP)
    assert pipeline.check(str(variant)).ok
    rs = load(str(variant))
    seen = set()
    for seed in range(12):
        state = new_game(rs, seed=seed, options={"top": 3})
        _play_out(state, f"t{seed}")
        up = state.talon[0] if state.talon else None
        want = state.R.suit_names[state.R.suit_of[up]] if up is not None else None
        assert state.trump == want
        seen.add(want)
    assert len(seen) > 1           # the trump changes with the card, it is not fixed by the file


def test_the_contracts_trump_plays_as_the_number_bids_trump_did(tmp_path):
    variant = tmp_path / "oh-contract-trump.stw"
    variant.write_text(CONTRACT_TRUMP)
    logs = []
    for target, name in (("oh-hell", "a.log"), (str(variant), "b.log")):
        assert main(["simulate", target, "--deals", "60", "--seed", "4", "--log", str(tmp_path / name)]) == 0
        logs.append(_log(tmp_path / name))
    assert logs[0] == logs[1] and len(logs[0]) == 60


def test_a_contracts_trump_expression_must_give_a_suit(tmp_path, capsys):
    bad = tmp_path / "bad.stw"
    bad.write_text(CONTRACT_TRUMP.replace("suit_of(turned_up)", "tricks_total"))
    assert main(["validate", str(bad)]) == 1
    assert "E402 contract.trump must give a suit" in capsys.readouterr().out
    unknown = tmp_path / "unknown.stw"
    unknown.write_text(CONTRACT_TRUMP.replace("suit_of(turned_up)", "X"))
    assert main(["validate", str(unknown)]) == 1
    assert "E301 unknown suit 'X'" in capsys.readouterr().out


def test_packet_sizes_by_a_table_option(tmp_path):
    variant = tmp_path / "short-priffe.stw"
    variant.write_text(SHORT_PRIFFE)
    assert pipeline.check(str(variant)).ok
    rs = load(str(variant))
    assert (rs.hand_size, rs.talon_size) == (13, 0)
    for hand in (13, 9, 8):
        state = new_game(rs, seed=hand, options={"hand": hand})
        assert [bin(h).count("1") for h in state.hands] == [hand] * 4
        assert len(state.talon) == 52 - 4 * hand
        _play_out(state, f"p{hand}")
        assert sum(state.play.tricks_won) == hand


def test_a_packet_size_that_cannot_deal_the_deck_is_refused(tmp_path):
    variant = tmp_path / "no-bounds.stw"
    variant.write_text(SHORT_PRIFFE.replace("min = 8  max = 13  ", ""))
    rs = load(str(variant))
    with pytest.raises(RuleRuntimeError, match="the deal cannot be made"):   # said in words at play, not a crash
        compile_rules(rs, {"hand": 14})       # 52 - 56: a packet of -4 cards


def test_packet_sizes_reading_the_deal_are_refused(tmp_path, capsys):
    variant = tmp_path / "reads-the-deal.stw"
    variant.write_text(SHORT_PRIFFE.replace("| 1     | hand          |", "| 1     | deal_number   |"))
    assert main(["validate", str(variant)]) == 1
    assert "cannot read 'deal_number'" in capsys.readouterr().out


def test_explain_shows_packet_sizes_by_expression(tmp_path, capsys):
    variant = tmp_path / "short-priffe.stw"
    variant.write_text(SHORT_PRIFFE)
    assert main(["explain", str(variant), "--format", "markdown"]) == 0
    assert "Packets in order: 1 ×hand to each player, 1 ×52 - 4 * hand to the talon." in capsys.readouterr().out
