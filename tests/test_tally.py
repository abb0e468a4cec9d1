"""The simulation's running statistics (harness/batch.py) and how its speed is shown (present/report.py)."""
from __future__ import annotations

import statistics
from fractions import Fraction

import pytest

from interpreter.harness.batch import Moments
from interpreter.present.report import rate_text

STREAMS = [
    [3, -5, 0, 12, 7],                                   # whole numbers only (most money and scores)
    [Fraction(1, 3), 2, Fraction(-7, 2), 0.25, 5],       # mixed: ints, fractions, a float
    [0.1, 0.2, 0.3],
    [10**30, -(10**30), 1],                              # exact beyond a float's reach
]


@pytest.mark.parametrize("values", STREAMS)
def test_moments_are_exact_whatever_the_kinds_of_number(values):
    m = Moments()
    for v in values:
        m.add(v)
    exact = [Fraction(v) for v in values]
    assert m.n == len(values)
    assert m.total == sum(exact)
    assert m.mean() == float(statistics.mean(exact))
    assert m.stdev() == pytest.approx(float(statistics.pstdev(exact)), rel=1e-12, abs=1e-12)


def test_moments_count_nothing_as_zero():
    m = Moments()
    for v in (None, True, 4):
        m.add(v)
    assert (m.n, m.total, m.mean()) == (3, 4, pytest.approx(4 / 3))


def test_moments_do_not_depend_on_the_order_of_the_values():
    a, b = Moments(), Moments()
    values = [Fraction(1, 7), 3, 0.5, -2, Fraction(5, 3)]
    for v in values:
        a.add(v)
    for v in reversed(values):
        b.add(v)
    assert (a.total, a.squares, a.mean(), a.stdev()) == (b.total, b.squares, b.mean(), b.stdev())


@pytest.mark.parametrize("rate, shown", [(1182.4, "1,182"), (12.6, "13"), (0.84, "0.84"), (0.1649, "0.16"),
                                         (1 / 90, "0.011 (a deal every 90 s)")])
def test_a_slow_rate_is_not_shown_as_zero(rate, shown):
    assert rate_text(rate) == shown
