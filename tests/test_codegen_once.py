"""codegen/once.py: a payment row's repeated part worked out once, and only where that is sure to give
the same value (issue 11)."""
from __future__ import annotations

import pytest

from interpreter.codegen.once import worked_once


def _run(src: str, **names):
    """The expression's value, and how many times each function was called."""
    calls: dict[str, int] = {}

    def counted(name, f):
        def g(*a):
            calls[name] = calls.get(name, 0) + 1
            return f(*a)
        return g

    env = {k: counted(k, v) if callable(v) else v for k, v in names.items()}
    return eval(compile(src, "<test>", "eval"), {}, env), calls


def test_a_repeated_call_is_made_once_and_gives_the_same_value():
    src = "max(0, f(s) + f(p) - 6) * 2 + max(0, f(s) + f(p) - 6)"
    out = worked_once(src)
    assert out != src and "_w0" in out
    before, calls_before = _run(src, f=lambda x: x * 3, s=2, p=3)
    after, calls_after = _run(out, f=lambda x: x * 3, s=2, p=3)
    assert after == before == 27
    assert calls_before["f"] == 4 and calls_after["f"] == 2


def test_a_condition_kept_is_read_in_either_branch():
    src = "(1 if g(1) else 2) + (g(1) * 10)"
    out = worked_once(src)
    assert out == "(1 if (_w0 := g(1)) else 2) + (_w0 * 10)"
    assert _run(out, g=lambda x: x)[0] == _run(src, g=lambda x: x)[0] == 11


@pytest.mark.parametrize("src", [
    "(g(1) if p else 0) + g(1)",            # first met in one branch of an if only
    "(p or g(1)) + g(1)",                    # behind an `or` that may stop before it
    "(p and g(1)) + g(1)",                   # behind an `and`
    "sum(g(x) for x in s) + g(x)",           # a comprehension's part reads its own variable
    "Party(1) == Party(1)",                  # each makes a new object
    "(v := g(1)) + h(v) + h(v)",             # reads a local the expression itself assigns
    "(p < 3 < g(1)) + g(1)",                 # a chained comparison may stop before its second part
    "g(1) + 1",                              # nothing repeated
])
def test_parts_that_may_differ_or_may_not_be_evaluated_are_left(src):
    assert worked_once(src) == src


def test_a_part_evaluated_surely_before_a_branch_is_read_in_it():
    src = "g(2) + (g(2) if p else 0)"
    out = worked_once(src)
    assert out == "(_w0 := g(2)) + (_w0 if p else 0)"
    for p in (True, False):
        assert _run(out, g=lambda x: x, p=p)[0] == _run(src, g=lambda x: x, p=p)[0]


def test_a_chained_comparison_reads_its_first_part_again_after_it():
    src = "(a < g(1) < g(1))"
    assert worked_once(src) == "(a < (_w0 := g(1)) < _w0)"
    assert _run(worked_once(src), g=lambda x: x, a=0)[0] is False


def test_several_lines_or_unparsable_text_are_left_as_they_are():
    assert worked_once("g(1) +\ng(1)") == "g(1) +\ng(1)"
    assert worked_once("g(1) + + (") == "g(1) + + ("
