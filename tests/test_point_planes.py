"""point_units by bit planes equals the byte rows' sum and the exact points times the unit's denominator."""
import random

from interpreter import load
from interpreter.engine.readings import mask_points, point_planes, point_rows, point_tables
from interpreter.engine.rules import compile_rules


def test_planes_match_rows_and_points() -> None:
    for game in ("koenigrufen", "priffe", "wien"):
        R = compile_rules(load(game))
        planes = point_planes(R)
        rows, size = point_rows(R)
        den = point_tables(R)[1]
        rng = random.Random(7)
        n = len(R.cards)
        for _ in range(300):
            cards = rng.getrandbits(n)
            by_rows = sum(rows[i][cards >> 8 * i & 255] for i in range(size))
            by_planes = sum((cards & p).bit_count() << k for k, p in enumerate(planes))
            assert by_planes == by_rows == mask_points(R, cards) * den
