"""Issue 34: money is conserved in every payment game. Random playouts of every built-in game, with the
random bots and the rule bots, in sessions (so the rows before and after a deal, the all-pass rows and the
final reckoning count too): after every deal the players' money and the table accounts money is paid
into (the pot, a cup it overflows into) add up to zero, as they started; so do they after the session's
final reckoning where its amounts are payments, not results entered seat by seat (harness/balance.py).
A payment row whose party reads none would break it; the engine stops such a deal instead
(tests/test_silent_payments.py)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from interpreter import load
from interpreter.harness.balance import _account_of, _payment_rows, entered_accounts
from interpreter.harness.runner import play_session
from tests.games_support import playable_games

GAMES = sorted(playable_games())


def table_money(rs) -> set[str]:
    """The table accounts (`per = game`) a row moves money between and a seat (`from = pot  to = declarer`),
    and those a row moves it between and such an account (the cup the pot overflows into)."""
    accounts = rs.doc.get("account") or {}
    names = set(accounts) | {"money"}
    links = [(_account_of(row["from"], names), _account_of(row["to"], names))
             for row in _payment_rows(rs.doc) if "from" in row]
    money: set = {None}                 # None: a seat's money
    grew = True
    while grew:
        grew = False
        for a, b in links + [(b, a) for a, b in links]:
            if a not in money and b in money and (accounts.get(a) or {}).get("per") == "game":
                money.add(a)
                grew = True
    return money - {None}


def total(accounts: dict, pots: set[str]) -> Fraction:
    seats = sum((Fraction(v) for v in accounts.get("money") or []), Fraction(0))
    return seats + sum((Fraction(accounts.get(a, 0)) for a in pots), Fraction(0))


@pytest.mark.parametrize("bots", ["random", "rule"])
@pytest.mark.parametrize("name", GAMES)
def test_money_adds_up_to_zero_after_every_deal(name, bots):
    rs = load(name)
    pots = table_money(rs)
    paid = 0
    for index in range(3):
        sess, _final = play_session(rs, {}, 34, index, 6, bots)
        for deal in sess.deals:                       # the accounts as each deal left them
            assert total(deal["accounts"], pots) == 0, (name, bots, index, deal["transfers"])
            paid += any(type(src) is int and type(dst) is int for src, dst, *_ in deal["transfers"])
        if "money" not in entered_accounts(rs) or sess.ended_by_rule:
            assert total(sess.accounts, pots) == 0, (name, bots, index, "after the reckoning")
    if "money" not in entered_accounts(rs) and (rs.doc.get("settle") or {}).get("pay"):
        assert paid or "money" not in str(rs.doc.get("session", {}).get("result", "money")), \
            f"{name}: no seat paid another in 18 deals; the test would prove little"
