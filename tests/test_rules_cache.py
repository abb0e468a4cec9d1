"""compile_rules keeps one compiled form per rule set's files: a game loaded again shares the rules
compiled before (and what they learned while playing), and any change to a file of its extends chain
gives new ones."""
from __future__ import annotations

import random

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State


def _play(R, seed: int) -> list[int]:
    rng = random.Random(seed)
    st = State(R, 0, *deal_cards(R, rng, 0))
    while not st.is_over():
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return [a for _, a in st.log]


def test_a_game_loaded_again_shares_its_compiled_rules():
    a, b = load("wien"), load("wien")
    assert a is not b and a.digest == b.digest and len(a.digest) == 64
    R = compile_rules(a, engine="generated")
    assert compile_rules(b, engine="generated") is R
    assert compile_rules(b, engine="interpreter") is not R
    assert compile_rules(load("wien-hearts"), engine="generated") is not R


def test_table_options_compile_apart():
    rs = load("koenigrufen")
    plain = compile_rules(rs)
    assert compile_rules(load("koenigrufen"), {}) is plain
    assert rs.options["point_value"] == 1
    doubled = compile_rules(load("koenigrufen"), {"point_value": 2})
    assert doubled is not plain and compile_rules(rs, {"point_value": 2}) is doubled


def test_an_edited_file_compiles_again(tmp_path):
    path = tmp_path / "house.stw"
    path.write_text('extends "wien"\n\ntitle = "House rules, first draft"\n', encoding="utf-8")
    first = compile_rules(load(str(path)))
    assert compile_rules(load(str(path))) is first
    path.write_text('extends "wien"\n\ntitle = "House rules, second draft"\n', encoding="utf-8")
    second = compile_rules(load(str(path)))
    assert second is not first
    assert second.rs.title == "House rules, second draft" and first.rs.title == "House rules, first draft"


def test_shared_rules_play_as_fresh_ones():
    """Rules that have already played (memos filled, settlements generated) give the same deals as
    rules compiled for the first time."""
    from interpreter.engine import rules as rules_mod

    warm = compile_rules(load("koenigrufen"))
    for seed in range(40):
        _play(warm, seed)
    assert compile_rules(load("koenigrufen")) is warm
    fresh = rules_mod.compile_uncached(load("koenigrufen"), (), "generated")
    for seed in range(100, 130):
        assert _play(warm, seed) == _play(fresh, seed)
