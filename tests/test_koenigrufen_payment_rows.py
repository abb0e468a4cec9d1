"""Königrufen's payment in named rows (issue 37: results that explain themselves): the game × valat ×
kontra, then each figure on its own, declared or silent, with its own kontras. The split changes what each
seat pays in no deal: the rows of each deal add up to the one amount the file paid before, here written
again as a variant with the former single row, and both files play the same seeded deals with the rule
and the random bots."""
from __future__ import annotations

import pytest

from interpreter.harness.runner import play_one
from interpreter.harness.scenario_rows import deal_rows
from interpreter.harness.scenario_steps import as_number
from interpreter.language.loader import load as load_document
from interpreter.pipeline import load
from interpreter.present import outcome

FIGURES = ["trull", "four_kings", "grammeln", "grossgrammeln", "kung_ultimo", "pagat_ultimo", "uhu", "kakadu"]

# The payment of a positive game as one row, as koenigrufen.stw had it before its rows were named.
ONE_ROW = """
title = "Königrufen, one payment row"
let declared_figures(x) = sum(figure_value(f, x) for f in figure_list if declared_by(f, x))
let game_part = (if made then 1 else -1) * game_value * (if silent_beat_valat then 1 else valat_factor)
let figure_part = declared_figures(declarers) - declared_figures(defenders)
                  + (if valat_made and not silent_beat_valat then 0 else silent_figures(declarers) - silent_figures(defenders))
let bid_bird = sum(f.declared for f in figure_list if f in contract.must_declare)
let positive_amount = if given_up then -(loss_value + bid_bird) else game_part + figure_part
settle.pay[game].amount = positive_amount
""" + "".join(f"remove settle.pay[{f}]\n" for f in FIGURES)


def _positive(st) -> bool:
    return st.con is not None and st.R.doc["contract"][st.con.name]["kind"] == "positive"


def _one_row(tmp_path, game: str):
    path = tmp_path / f"{game}-one-row.stw"
    path.write_text(f'extends "{game}"\n' + ONE_ROW, encoding="utf-8")
    return load(str(path))


@pytest.mark.rules("KR-SCORE-09", "KR-SCORE-21", "KR-SCORE-23", "KR-SCORE-30", "KR-SCORE-31", "KR-SCORE-33",
                   "KR-SCORE-34", "KR-SCORE-35", "KR-SCORE-36", "KR-SCORE-37", "KR-SCORE-46", "KR-AMB-17", "KR-AMB-18")
@pytest.mark.parametrize("game", ["koenigrufen", "koenigrufen-5"])
@pytest.mark.parametrize("bots,deals", [("rule", 400), ("random", 200),
                                        pytest.param("rule", 2000, marks=pytest.mark.slow),
                                        pytest.param("random", 2000, marks=pytest.mark.slow)])
def test_the_rows_pay_what_the_single_row_paid(tmp_path, game, bots, deals):
    rows_file, one_row = load(game), _one_row(tmp_path, game)
    split = 0                                   # deals whose positive game pays in more than one row
    figure_rows = set()
    for i in range(deals):
        new, _ = play_one(rows_file, {}, 11, i, bots)
        old, _ = play_one(one_row, {}, 11, i, bots)
        assert new.log == old.log, (game, i)
        paid = new.result()["payments"]
        assert paid == old.result()["payments"], (game, i, new.result()["contract"])
        rows = deal_rows(new.payments, str)
        assert {s: sum(as_number(r.get(str(s), 0)) for r in rows.values()) for s in paid} == paid, (game, i)
        assert all(any(v for v in r.values()) for r in rows.values())       # no row that pays nothing
        if _positive(new) and len(rows) > 1:
            split += 1
            figure_rows |= set(rows) - {"game × valat × kontra"}
    assert split > deals // 20, split            # the split is seen, not only the game row
    assert "Pagat ultimo" in figure_rows and "Trull" in figure_rows, figure_rows


def test_every_payment_row_has_a_unique_name():
    for game in ("koenigrufen", "koenigrufen-5"):
        names = [r.get("name") for r in load_document(game).doc["settle"]["pay"]]
        assert all(names) and len(set(names)) == len(names), names
    assert set(FIGURES) <= set(names) and "game" in names


@pytest.mark.rules("KR-SCORE-33", "KR-SCORE-36")
def test_the_end_of_a_deal_names_each_row_as_the_table_shows_it():
    """The presenter's rows (web table and terminal) are the same rows, by their names without catalog ids."""
    rs = load("koenigrufen")
    for i in range(200):
        st, _ = play_one(rs, {}, 5, i, "rule")
        if not _positive(st):
            continue
        shown = outcome.summary(st)["rows"]
        rows = deal_rows(st.payments, str)
        assert [r["note"] for r in shown] == list(rows)
        if len(rows) > 2:
            break
    else:
        pytest.fail("no positive game with a figure row in 200 deals")
    text = "\n".join(outcome.words(st))
    for note in rows:
        assert f"{note[:1].upper()}{note[1:]}: " in text
    assert "KR-" not in text


ROWS_SCENARIO = """rules: koenigrufen
seats: [A, B, C, D]
dealer: D
deals:
  - outcome:
      contract: rufer
      declarer: A
      partner: C
      tricks: {A: 4, B: 3, C: 4, D: 1}
      points: {A: 22, B: 16, C: 18, D: 14}
      declared: {pagat_ultimo: A}
      kontras: {pagat_ultimo: 1}
      figures: {pagat_ultimo: declarers, four_kings: defenders}
    expect:
      rows:
        game × valat × kontra: {A: 1, B: -1, C: 1, D: -1}
        Pagat ultimo: {A: PAGAT, B: -4, C: 4, D: -4}
"""


@pytest.mark.rules("KR-SCORE-33", "KR-SCORE-34", "KR-DEF-03")
def test_a_scenario_states_all_of_a_deals_rows(tmp_path, capsys):
    """`expect: rows` fails on a wrong amount and on a row the deal paid that it leaves out (four kings)."""
    from interpreter.cli import main

    path = tmp_path / "rows.yaml"
    path.write_text(ROWS_SCENARIO.replace("PAGAT", "4"), encoding="utf-8")
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert "the deal also paid 'Four kings' {'A': -1, 'B': 1, 'C': -1, 'D': 1}" in out
    path.write_text(ROWS_SCENARIO.replace("PAGAT", "2") + "        Four kings: {A: -1, B: 1, C: -1, D: 1}\n",
                    encoding="utf-8")
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert "rows.Pagat ultimo.A: expected 2, got 4" in out and "also paid" not in out
    path.write_text(ROWS_SCENARIO.replace("PAGAT", "4") + "        Four kings: {A: -1, B: 1, C: -1, D: 1}\n",
                    encoding="utf-8")
    assert main(["test", str(path)]) == 0, capsys.readouterr().out
