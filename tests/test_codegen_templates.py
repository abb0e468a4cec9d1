"""The generator's templates of built-in values and functions (interpreter/codegen/templates.py) are in step
with the engine's implementations (engine/builtins.py): a template that reads other names than its
implementation is not used (codegen/source._same) and the generated code calls the built-in instead, which
is right but slow, and nothing else would tell. These tests do."""
from __future__ import annotations

import pytest

from interpreter.codegen.source import _names, _same
from interpreter.codegen.templates import FUNCTION_SOURCE, VALUE_SOURCE
from interpreter.engine import builtins as B


@pytest.mark.parametrize("name", sorted(FUNCTION_SOURCE))
def test_each_function_template_reads_what_its_implementation_reads(name):
    template = FUNCTION_SOURCE[name][0]
    assert _same(template, B.FUNCTIONS[name]), (template, sorted(_names(B.FUNCTIONS[name])))


@pytest.mark.parametrize("name", sorted(n for n in VALUE_SOURCE if B.VALUES.get(n) is not None))
def test_each_value_template_reads_what_its_implementation_reads(name):
    template = VALUE_SOURCE[name][0]
    assert _same(template, B.VALUES[name]), (template, sorted(_names(B.VALUES[name])))


def test_count_in_of_a_suit_is_written_as_the_states_reading():
    """Hearts' `broken` counts the hearts left in every hand: the generated code reads each hand's count
    (st.count_in with the suit's mask), not through the built-in's function."""
    from interpreter.engine import new_game
    from interpreter.pipeline import load
    from interpreter.resources import games_dir

    st = new_game(load(games_dir() / "hearts" / "hearts-openspiel.stw"), seed=1)
    source = st.R.generated.source
    assert "st.count_in(" in source and "built-in function 'count_in'" not in source


def test_tricks_total_of_a_rule_set_dealing_whole_hands_is_a_constant_of_the_generated_code():
    """Königrufen deals every hand in full (no `deal.hand`): its generated code has the number of tricks as a
    constant, never the call (codegen/expr.py folds it while deals.tricks_total reads what it mirrors)."""
    from interpreter.engine import new_game
    from interpreter.pipeline import load
    from interpreter.resources import games_dir

    source = new_game(load(games_dir() / "koenigrufen" / "koenigrufen.stw"), seed=1).R.generated.source
    assert "tricks_total" in source and "deals.tricks_total(st)" not in source


def test_the_written_out_templates_mirror_their_implementations():
    """The templates written out in full (a Ref's entry, a call's, a power, a tuple's membership and size, the
    state's readings, the inline and early ones) are used only while the implementation reads the names
    recorded with them (codegen/expr.py): a changed implementation falls back to its call, which is right but
    slow. Here a change that needs its template brought in step shows."""
    from interpreter.codegen import templates as T
    from interpreter.codegen.source import _early_holds, _reading_holds

    assert T.ATTR_SOURCE[1].__code__.co_names == T.ATTR_SOURCE[2]
    assert T.call_attr.__code__.co_names == T.CALL_ATTR_SOURCE[1]
    assert T.POWER_SOURCE[1].__code__.co_names == T.POWER_SOURCE[2]
    assert T.CONTAINS_SOURCE[1].__code__.co_names == T.CONTAINS_SOURCE[2]
    assert T.SIZE_OF_TUPLE[1].__code__.co_names == T.SIZE_OF_TUPLE[2]
    assert all(impl.__code__.co_names == names for _, _, impl, names in T.INLINE.values())
    assert all(_reading_holds(name) for name in T.READING_INLINE)
    assert all(_early_holds(name) for name in T.EARLY)
    from interpreter.engine import compile as X

    for op in ("<", "<=", ">", ">="):     # a comparison of values that may be none (expr._cmp writes it out)
        code = X._cmp(op).__code__
        assert (code.co_names, code.co_varnames, code.co_consts) == ((), ("a", "b"), (None,))

