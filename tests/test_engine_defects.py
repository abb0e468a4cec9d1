"""Engine defects of issue 7: words the engine prints and accepts, `raise = any`, a call's `contracts`
as an expression, and holds counted as the held bid."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import initial_accounts
from interpreter.engine.text import parse

WIEN_HANDS = {"hands": [["QC", "KC", "AC", "JS", "QS", "KS", "AS", "7D", "9D", "JH"],
                        ["7C", "7S", "8S", "JD", "8H", "9H", "10H", "QH", "KH", "AH"],
                        ["8C", "10C", "9S", "10S", "8D", "10D", "QD", "KD", "AD", "7H"]],
              "talon": ["JC", "9C"]}


def variant(tmp_path: Path, body: str, base: str = "wien"):
    path = tmp_path / "house.stw"
    path.write_text(f'extends "{base}"\n' + body, encoding="utf-8")
    return load(str(path))


def texts(st) -> list[str]:
    return [st.action_text(a) for a in st.legal_actions()]


def test_words_are_what_the_engine_prints_and_accepts(tmp_path):
    rs = variant(tmp_path, 'words { pass = "weiter"  go = "mit"  stay = "daheim"  bid = "biete" }\n')
    accounts = initial_accounts(compile_rules(rs), 2)
    accounts["pot"] = 30                          # above the stake: going along is not compulsory
    st = new_game(rs, deal=WIEN_HANDS, dealer=2, accounts=accounts)
    assert "weiter" in texts(st) and "biete one" in texts(st)
    assert "pass" not in texts(st)
    st.apply(parse(st, "weiter"))                 # the rule file's word
    st.apply(parse(st, "bid one"))                # the old spelling stays an alias
    assert [c for _, c in st.auction.calls] == ["pass", "one"]
    assert st.action_text(st.log[0][1]) == "weiter"
    for text in ("biete two", "pass"):
        st.apply(parse(st, text))
    st.apply(st.legal_actions()[0])               # C discards
    st.apply(parse(st, "declare two"))
    st.apply(parse(st, "decline"))                # B, who bid, is asked about after-purchase
    assert st.phase == "defence"
    assert sorted(texts(st)) == ["daheim", "mit"]
    st.apply(parse(st, "go along"))               # alias
    assert st.defence.answers[st.log[-1][0]] == "go"


def test_raise_any_offers_lower_bids(tmp_path):
    rs = variant(tmp_path, "auction { raise = any  allowed = true }\n")
    st = new_game(rs, deal=WIEN_HANDS, dealer=2)
    st.apply(parse(st, "bid three"))
    assert "bid one" in texts(st) and "bid two" in texts(st)
    base = new_game(load("wien"), deal=WIEN_HANDS, dealer=2)
    base.apply(parse(base, "bid three"))
    assert "bid one" not in texts(base)


def test_a_calls_contracts_may_be_an_expression(tmp_path):
    rs = variant(tmp_path, "call one { contracts = if me == forehand then [one, two] else [three] }\n")
    st = new_game(rs, deal=WIEN_HANDS, dealer=2)          # forehand is seat 0
    for text in ("bid one", "pass", "pass"):
        st.apply(parse(st, text))
    st.apply(st.legal_actions()[0])                       # discard
    assert sorted(texts(st)) == ["declare one", "declare two"]
    st = new_game(rs, deal=WIEN_HANDS, dealer=2)
    for text in ("pass", "bid one", "pass"):
        st.apply(parse(st, text))
    st.apply(st.legal_actions()[0])
    assert st.declarer == 1 and st.phase != "contract" and st.con.name == "three"
    while not st.is_over():                                # and the deal plays to its end
        st.apply(st.legal_actions()[0])


@pytest.mark.rules("WIEN-AMB-03", "WIEN-AUC-12", "WIEN-AUC-21", "WIEN-TAL-07")
def test_a_hold_counts_as_the_held_bid():
    st = new_game(load("wien"), deal=WIEN_HANDS, dealer=2)   # A forehand, B middlehand, C dealer
    for text in ("pass", "bid one", "hold"):
        st.apply(parse(st, text))
    assert st.first_bid(2) == "one" and st.has_bid(2)
    st.apply(parse(st, "bid two"))
    assert sorted(texts(st)) == ["bid four", "bid three", "hold", "pass"]
    for text in ("pass",):
        st.apply(parse(st, text))
    st.apply(st.legal_actions()[0])                          # B discards
    st.apply(parse(st, "declare two"))
    assert st.phase == "after_purchase" and st.current_player() == 2


def test_a_kontra_chain_without_a_maximum_gets_the_default():
    from interpreter.engine.rules import DEFAULT_KONTRA_MAX

    R = compile_rules(load("croatian"))                   # max = none: "and so on ad infinitum"
    assert R.kontra.max == DEFAULT_KONTRA_MAX
    st = new_game(load("croatian"), seed=3)
    while not st.is_over():                                # the README's loop: always the first action
        st.apply(st.legal_actions()[0])
        assert len(st.log) <= R.max_actions
    assert st.kontra.level <= DEFAULT_KONTRA_MAX


def test_a_power_out_of_range_is_a_clear_error_not_zero(tmp_path):
    from interpreter.engine.compile import RuleRuntimeError

    rs = variant(tmp_path, "let M = 2 ^ (kontra_level + 200)\n", base="croatian")
    st = new_game(rs, seed=1)
    with pytest.raises(RuleRuntimeError, match="exponent"):
        for _ in range(compile_rules(rs).max_actions):
            if st.is_over():
                break
            st.apply(st.legal_actions()[0])
        st.result()
        raise AssertionError("the deal settled without evaluating M")


def test_implemented_is_read_from_the_dispatch_tables():
    from interpreter.engine import builtins, implemented
    from interpreter.engine.phases import PHASES
    from interpreter.engine.phases.play import OBLIGATIONS

    got = implemented()
    assert set(got) == {"value", "function", "comprehension", "phase", "obligation"}
    assert got["value"] == set(builtins.VALUES) and got["function"] == set(builtins.FUNCTIONS)
    assert got["phase"] == set(PHASES) and got["obligation"] == set(OBLIGATIONS)
    # names the engine cannot do yet (the registry's pending entries) are not claimed
    from interpreter.model.vocabulary import ENTRIES

    for entry in ENTRIES:
        if entry.pending and entry.kind in got:
            assert entry.name not in got[entry.kind]


def test_an_unimplemented_function_is_an_error_when_evaluated_not_a_silent_value(monkeypatch):
    # every function the vocabulary declares is implemented today, so take one implementation away
    from interpreter.engine import builtins
    from interpreter.engine.compile import RuleRuntimeError

    monkeypatch.delitem(builtins.FUNCTIONS, "played_card")
    monkeypatch.setenv("STICHWORT_ENGINE", "interpreter")
    R = compile_rules(load("wien"))
    f = R.compiler.text("played_card(dealer, 1) == none")
    with pytest.raises(RuleRuntimeError, match="played_card"):
        f(new_game(load("wien"), seed=1).ctx())
