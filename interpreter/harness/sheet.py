"""What a deal wrote on the score sheet: for games scored in accounts rather than money (a declarer
column, a juha against each opponent, refas, a partnership's points), each per-seat, per-pair or
per-team account's change per seat, so `simulate` can report those instead of money that never moves."""
from __future__ import annotations

from fractions import Fraction


def seat_deltas(state) -> dict[str, list]:
    """Account name → the change of each seat's entry in this deal (a pair account counts for its
    first seat: `account(juha, p, q)` is p's column against q; a partnership's account counts for each
    seat of the partnership, as its own score)."""
    n = state.n
    accounts = state.R.accounts
    out: dict[str, list] = {}
    for src, dst, amount, _note in getattr(state, "payments", []):
        for side, sign in ((dst, 1), (src, -1)):
            if not (isinstance(side, tuple) and len(side) >= 2 and isinstance(side[1], int)):
                continue
            name = side[0]
            per = accounts[name].per if name in accounts else None
            if per not in ("seat", "pair", "team") or not 0 <= side[1] < n:
                continue
            seats = state.teams.get(side[1], (side[1],)) if per == "team" and len(side) == 2 else (side[1],)
            row = out.setdefault(name, [Fraction(0)] * n)
            value = sign * Fraction(amount) if not isinstance(amount, float) else sign * Fraction(str(amount))
            for seat in seats:
                row[seat] += value
    return out
