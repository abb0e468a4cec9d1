"""The generated settlement (interpreter/codegen/settle.py) against the interpreter's rows: at the
end of random deals the rows judged by the interpreter (phases/settle._judge), by the function of the
contract being settled on, and by the generic body (the one kept for no contract or another) give the
same transfers in the same order."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.phases import settle
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from tests.games_support import playable_games

GAMES = ["wien", "koenigrufen", "priffe", "simple", "slovenian"]


@pytest.mark.parametrize("name", GAMES)
def test_every_generated_form_of_the_rows_judges_as_the_interpreter(name):
    rs = load(name)
    ref, gen = compile_rules(rs, engine="interpreter"), compile_rules(rs, engine="generated")
    fn = gen.settle_rows.evaluate
    assert fn is gen.generated.rows["settle"]
    ns = gen.generated.namespace
    by = ns[fn.__name__ + "_BY"]
    specialised = 0
    for i in range(40):
        dealer = i % ref.n_seats
        hands, talon = deal_cards(ref, random.Random(f"deal:{i}"), dealer)
        st = State(gen, dealer, hands, talon, deal_number=i)
        rng = random.Random(f"policy:{i}")
        while not st.is_over():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        want = settle._judge(st, ref.settle_rows)
        assert fn(st) == want
        specialised += st._con is not None and st._con.name in by
        assert ns[fn.__name__ + "_ANY"](st) == want      # the generic body
    assert specialised > 0 and any(f is not ns[fn.__name__ + "_ANY"] for f in by.values())


@pytest.mark.parametrize("name", sorted(playable_games()))
def test_every_contract_gets_its_rows_at_its_first_settlement(name):
    """The rows per contract are made when a contract is first settled (not when the rules are compiled);
    complete() makes those of every contract, as `stichwort compile --show` prints them."""
    from interpreter.engine import rules as rules_mod

    mod = rules_mod.compile_uncached(load(name), (), "generated").generated   # freshly compiled
    before = mod.source
    for fname in mod.gen.later_rows:
        assert mod.namespace[fname + "_BY"] == {}
    shown = mod.complete()
    assert shown.startswith(before) and mod.source == before
    for fname in mod.gen.later_rows:
        table = mod.namespace[fname + "_BY"]
        assert set(table) == set(mod.gen.contracts)
        assert all(callable(f) for f in table.values())


def test_a_let_in_the_rows_is_worked_out_where_the_interpreter_works_it_out(tmp_path):
    """A let read in payment rows is kept in a local of the rows' function, set at its first reading: a
    row whose condition is false does not read it (here it would fail), one that pays it reads it once for
    every row; where nothing else reads the activation the function makes none."""
    path = tmp_path / "house.stw"
    path.write_text('extends "wien"\nlet boom = 2 ^ (pot + 200)\nlet twice = A * 2\nsettle {\n  pay = table {\n'
                    "    | when     | from     | to  | amount | note     |\n"
                    "    | pot < 0  | declarer | pot | boom   | \"never\"  |\n"
                    "    | made     | pot      | declarer | twice  | \"made\"   |\n"
                    "    | not made | declarer | pot | twice  | \"lost\"   |\n"
                    "  }\n}\n", encoding="utf-8")
    rs = load(str(path))
    ref, gen = compile_rules(rs, engine="interpreter"), compile_rules(rs, engine="generated")
    fn = gen.settle_rows.evaluate
    assert fn is gen.generated.rows["settle"]
    settled = 0
    for i in range(30):
        dealer = i % ref.n_seats
        hands, talon = deal_cards(ref, random.Random(f"deal:{i}"), dealer)
        st, st_ref = State(gen, dealer, hands, talon, deal_number=i), State(ref, dealer, hands, talon, deal_number=i)
        rng = random.Random(f"policy:{i}")
        while not st.is_over():
            legal = st.legal_actions()
            action = legal[rng.randrange(len(legal))]
            st.apply(action)
            st_ref.apply(action)
        assert st.payments == st_ref.payments and st.accounts == st_ref.accounts
        assert fn(st) == settle._judge(st, ref.settle_rows)
        settled += bool(st.payments)
    assert settled > 0
    shown = gen.generated.complete()
    under = shown[shown.index(f"def {gen.generated.namespace[fn.__name__ + '_BY']['eight'].__name__}(st):"):]
    under = under[:under.index("return out")]
    assert "Ctx(" not in under and under.count(" = MISSING") == 3     # boom, twice and the A it reads
    assert under.count("v_L0 := min(") == 2                     # A's own source, where `twice` reads it
