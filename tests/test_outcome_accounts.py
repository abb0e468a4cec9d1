"""The end of a deal names what each payment row did, accounts included, by the titles the rule file gives
them: a row that only adds to a partnership's score said "10 a trick bid …: ." (spades, euchre), and the
Stock of schafkopf-stock was shown as "pot"."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.bots import make_bot
from interpreter.engine import deal_cards
from interpreter.engine.session import Session
from interpreter.present import explain, outcome


def _deal(game: str, seed: int, passing: bool = False, sess: Session | None = None):
    """One deal by the rule bots (everyone passing when `passing`), finished in its session."""
    sess = sess or Session(load(game), {})
    hands, talon = deal_cards(sess.R, random.Random(seed), sess.dealer, sess.deal_number, sess.accounts)
    st = sess.start(hands=list(hands), talon=list(talon))
    bot = make_bot("rule", "x")
    while not st.is_over():
        legal = st.legal_actions()
        passes = [a for a in legal if st.action_text(a).split()[0] in ("pass", "weiter")] if passing else []
        st.apply(passes[0] if passes else bot.choose(st.clone()))
    sess.finish(st)
    return sess, st


@pytest.mark.rules("SPD-SCORE-01", "SPD-SCORE-03", "EUC-SCORE-01")
@pytest.mark.parametrize(("game", "accounts"), [("spades", ("score", "bags")), ("euchre", ("score",))])
def test_a_row_paying_into_a_partnerships_account_says_how_much_and_whose(game, accounts):
    """Each row line names the account by its title and the partnership, and the amount it shows is what
    the partnership's account gained in the deal."""
    for seed in (1, 2, 3):
        _, st = _deal(game, seed)
        lines = outcome.words(st)
        assert not [x for x in lines if x.endswith(": .")], lines
        shown = {}
        for row in outcome.summary(st)["rows"]:
            for k, v in row["amounts"].items():
                shown[k] = shown.get(k, 0) + v
        gained = {}
        for name in accounts:
            title = str(st.R.accounts[name].title)
            for team, after in st.accounts[name].items():
                before = st.start_accounts.get(name, {}).get(team, 0)
                if after != before:
                    gained[f"{title} of seats {team[0]} and {team[1]}"] = after - before
        assert gained and {k: v for k, v in shown.items() if v} == gained, (seed, lines)


@pytest.mark.rules("SCHAF-VAR-05")
def test_the_stock_is_called_the_stock_at_the_end_of_a_deal_and_in_the_booklet():
    """Everybody passes the first deal: each of the four pays the Sauspiel price, 20, into the Stock (80)."""
    sess, st = _deal("schafkopf-stock", 1, passing=True)
    lines = outcome.words(st)
    assert "Everyone passed: the Sauspiel price into the Stock: seat 0 -20, seat 1 -20, seat 2 -20, seat 3 -20, Stock +80." in lines
    assert lines[-1].endswith("; in the Stock 80.")
    assert lines[0] == "All passed: no contract." and not [x for x in lines if x.startswith("Tricks:")], lines
    assert not [x for x in lines if "pot" in x], lines
    assert outcome.summary(st)["pot_title"] == "Stock"
    text = explain.to_markdown(explain.build(load("schafkopf-stock")))
    assert "| Stock | declarer | pot / 2 |" in text        # the row's `from`: the account by its title
    assert "- Stock (pot), one for the whole table" in text


@pytest.mark.parametrize("game", ["spades", "euchre"])
def test_a_game_kept_on_score_sheets_prints_no_payments_of_nothing(game):
    """A game whose rows only add to score sheets moves no money: the end of its deal does not print
    "Payments of the deal: seat 0 0, …" and "Balance: … 0" (its scores are in the rows' lines)."""
    for seed in (1, 2):
        _, st = _deal(game, seed)
        lines = outcome.words(st)
        assert not [x for x in lines if x.startswith(("Payments of the deal", "Balance"))], lines


def test_a_money_game_still_prints_its_payments_and_balance():
    _, st = _deal("wien", 1)
    lines = outcome.words(st)
    assert any(x.startswith("Payments of the deal: ") for x in lines), lines
    assert any(x.startswith("Balance: ") for x in lines), lines
