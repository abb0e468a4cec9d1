"""What a deal wrote on the score sheet: for games scored in accounts rather than money (a declarer
column, a juha against each opponent, refas), each per-seat or per-pair account's change per seat,
so `simulate` can report those instead of money that never moves."""
from __future__ import annotations

from fractions import Fraction


def seat_deltas(state) -> dict[str, list]:
    """Account name → the change of each seat's entry in this deal (a pair account counts for its
    first seat: `account(juha, p, q)` is p's column against q)."""
    n = state.n
    accounts = state.R.accounts
    out: dict[str, list] = {}
    for src, dst, amount, _note in getattr(state, "payments", []):
        for side, sign in ((dst, 1), (src, -1)):
            if not (isinstance(side, tuple) and len(side) >= 2 and isinstance(side[1], int)):
                continue
            name = side[0]
            if (accounts.get(name) or {}).get("per") not in ("seat", "pair") or not 0 <= side[1] < n:
                continue
            row = out.setdefault(name, [Fraction(0)] * n)
            row[side[1]] += sign * Fraction(amount) if not isinstance(amount, float) else sign * Fraction(str(amount))
    return out
