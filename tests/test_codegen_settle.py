"""The generated settlement (interpreter/engine/codegen/settle.py) against the interpreter's rows: at the
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
from interpreter.resources import builtin_games

GAMES = ["wien", "koenigrufen", "priffe", "simple", "slovenian"]


@pytest.mark.parametrize("name", GAMES)
def test_every_generated_form_of_the_rows_judges_as_the_interpreter(name):
    rs = load(name)
    ref, gen = compile_rules(rs, engine="interpreter"), compile_rules(rs, engine="generated")
    fn = gen.generated.rows[id(gen.settle_rows)]
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


@pytest.mark.parametrize("name", sorted(builtin_games()))
def test_every_contract_gets_its_rows_at_its_first_settlement(name):
    """The rows per contract are made when a contract is first settled (not when the rules are compiled);
    complete() makes those of every contract, as `stichwort compile --show` prints them."""
    from interpreter.engine import rules as rules_mod

    mod = rules_mod._compile_cached.__wrapped__(load(name), (), "generated").generated   # freshly compiled
    before = mod.source
    for fname in mod.gen.later_rows:
        assert mod.namespace[fname + "_BY"] == {}
    shown = mod.complete()
    assert shown.startswith(before) and mod.source == before
    for fname in mod.gen.later_rows:
        table = mod.namespace[fname + "_BY"]
        assert set(table) == set(mod.gen.contracts)
        assert all(callable(f) for f in table.values())
