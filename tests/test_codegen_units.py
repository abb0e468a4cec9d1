"""Card points in whole units (readings.point_units, builtins._punits): the count the generated code compares
card points with is points() times the rule set's unit denominator, exactly, for every seat and side; and
the generated comparisons of card points are written in those units (no fraction compared at run time)."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from interpreter import load
from interpreter.engine import deal_cards
from interpreter.engine.builtins import _points, _punits
from interpreter.engine.context import Ctx
from interpreter.engine.readings import point_tables
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State

GAMES = ["koenigrufen", "wien", "priffe"]


def _playouts(name: str, n: int):
    R = compile_rules(load(name))
    rng = random.Random(f"units:{name}")
    for i in range(n):
        hands, talon = deal_cards(R, rng, i % R.n_seats)
        st = State(R, i % R.n_seats, hands, talon)
        while not st.is_over():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            yield st


@pytest.mark.parametrize("name", GAMES)
def test_point_units_are_points_times_the_denominator(name):
    checked = 0
    for st in _playouts(name, 6):
        den = point_tables(st.R)[1]
        sides = [(s,) for s in range(st.n)] + [st.active, st.declarers, st.defenders, ()]
        for x in list(range(st.n)) + sides:
            units = st.point_units(x)
            assert type(units) is int
            assert Fraction(units, den) == st.points(x)
            c = Ctx(st, cache={})
            assert _punits(c, x) == units and _punits(c, x) == units      # the memo's answer is the same
            assert _points(c, x) == st.points(x)
            checked += 1
    assert checked > 100


def test_an_outcome_given_counts_its_stated_points_in_units():
    st = next(_playouts("koenigrufen", 1))
    den = point_tables(st.R)[1]
    an = st.announce = st.announce.copy()      # its own: the one it had may be shared
    an.given = {"points": {0: Fraction(62, 3), 1: 15}}
    assert st.point_units(0) == 62 * den // 3 and st.point_units((0, 1)) == (Fraction(62, 3) + 15) * den
    assert st.point_units(2) == 0


def test_points_are_compared_in_units_in_the_generated_source():
    R = compile_rules(load("koenigrufen"))
    src = R.generated.complete()
    assert point_tables(R)[1] == 3
    assert "(_punits(c, m) == (_lv0 if _lv0 is not MISSING else (_lv0 := U" in src   # the seats with the most
    assert "cache['units:most'] = " in src        # points: no fraction compared, the most read once per loop
    assert "(_punits(c, st.declarers) >= 107)" in src    # 35 2/3 points, in thirds
    assert "qcmp_ge(_points(" not in src
